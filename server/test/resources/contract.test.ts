/**
 * The contract every resource keeps (issue 11, deliverable 10): one parametrised suite that each declared
 * resource runs by being declared — list / search / sort / filters / paging, create valid / invalid /
 * duplicate, update, a record outside the caller's branch is 404, delete (refused while referenced), export
 * read back in both languages, import all or nothing, the permission matrix, names of related records for a
 * read-only user, and the lookup route. Definitions still registered the old way (without a declaration) run
 * the part of the contract that needs no declaration, until they move onto one.
 */
import { DECLARATIONS, declarationByName } from '../../../shared/resources';
import { ADMINS_ONLY } from '../../../shared/permissions';
import {
  fieldLabelKey,
  isExported,
  lookupNameField,
  stateLabelKey,
  valueLabelKey,
} from '../../../shared/resources/declaration';
import type { FieldDeclaration, ResourceDeclaration } from '../../../shared/resources/declaration';
import { displayName, writableFields } from '../../../shared/resources/derive';
import { currentYear, toDbDateTime } from '../../src/lib/clock';
import { declaredLabel, majorUnits } from '../../src/resources/declared';
import type { ResourceDefinition } from '../../src/resources/resource';
import * as routes from '../../src/resources/resource.routes';
import {
  createBranch,
  createTestApp,
  responseLog,
  signedInAdmin,
  type Client,
  type LoggedResponse,
  type TestApp,
} from '../harness';
import { responseValidator } from '../openapi/response-validator';
import { countRows, download, insertAnyRow, listAll, readCsv, readXlsx, signIn } from './helpers';

// Every definition the app registers, declared or not, as it registers it (the old-way ones are found here).
jest.mock('../../src/resources/resource.routes', () => {
  const actual = jest.requireActual('../../src/resources/resource.routes');
  const registered: unknown[] = [];
  return {
    ...actual,
    registered,
    registerResource: (api: unknown, db: unknown, def: unknown) => {
      registered.push(def);
      return actual.registerResource(api, db, def);
    },
    registerChildResource: (api: unknown, db: unknown, parent: unknown, def: unknown) => {
      registered.push(def);
      return actual.registerChildResource(api, db, parent, def);
    },
    registerResourceFamily: (api: unknown, db: unknown, family: { members: Record<string, unknown> }) => {
      registered.push(...Object.values(family.members));
      return actual.registerResourceFamily(api, db, family);
    },
  };
});
const registered = (routes as unknown as { registered: ResourceDefinition[] }).registered;

/** A second person approving the suite's receipts (nobody approves what they recorded). */
let approver: Client | undefined;

/** An invoice of 10,000.00 (its own line): room for the suite's receipts. */
async function orderWithRoom(): Promise<Row> {
  const decl = declarationByName('order')!;
  const line = { description: 'zq line', quantity: 1, unit_price: 1_000_000, discount_rate: 0 };
  return createRecord(decl, { ...(await validBody(decl)), lines: [line] });
}

type Row = Record<string, any>;

/**
 * Values a resource's own rules need beyond what its declaration says (one line per resource): `seq` is the
 * row's unique number, `base` the generated row.
 */
const OVERRIDES: Record<string, (seq: number, base: Row) => Row | Promise<Row>> = {
  // holidays are listed by year, the current one by default
  // the role's permission keys are its rules' own field
  role: () => ({ permissions: ['dashboard.view'] }),
  // a new account's password is its rules' own field
  user: () => ({ password: 'Secret123!x', password_confirmation: 'Secret123!x' }),
  // the list shows the areas, not their districts (unless asked for one area's)
  area: () => ({ parent_id: null }),
  // the default terms cannot be deleted while others exist: the suite's rows are not the default
  order_terms: () => ({ is_default: false }),
  refund_terms: () => ({ is_default: false }),
  // a school's district is one of its area's districts
  school: async (n, base) => {
    const area = declarationByName('area')!;
    const district = await createRecord(area, { ...(await validBody(area, n)), parent_id: base.area_id });
    return { district_id: district.id };
  },
  holiday: (n) => ({
    date: new Date(Date.UTC(currentYear(), 0, 1) + (n % 365) * 86_400_000).toISOString().slice(0, 10),
  }),
  // the intake is one of the school's and opens the subject; its checklist of three becomes the application's own
  student_application: async () => {
    const school = await createRecord(declarationByName('school')!);
    const subject = await createUnder(declarationByName('school_subject')!, school.id);
    const intake = await createUnder(declarationByName('school_admission')!, school.id, {
      subject_ids: [subject.id],
      documents: ['Passport', 'Transcript', 'Photo'].map((name, i) => ({
        name_en: `zq ${name} ${++seq}`,
        name_zh: `zq 文件 ${seq}`,
        is_required: i !== 1,
      })),
    });
    return { school_id: school.id, admission_id: intake.id, subject_id: subject.id };
  },
  // registration opens and closes on the event's day, before it ends; room for every registration of the suite
  special_event: (n) => {
    const day = new Date(Date.UTC(2030, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
    return {
      reg_start_date: day,
      reg_end_date: day,
      event_start: `${day}T02:00:00Z`,
      event_end: `${day}T04:00:00Z`,
      capacity: 1000,
    };
  },
  // a receipt within its invoice's room, paid in cash (a prepaid one would need the student's balance)
  receipt: async () => ({ order_id: (await orderWithRoom()).id, method: 'cash', amount: 100 }),
  // a refund within what its invoice was paid: a receipt approved by a second person, then refunded in part
  refund: async () => {
    const order = await orderWithRoom();
    const receipt = await createRecord(declarationByName('receipt')!, {
      ...(await validBody(declarationByName('receipt')!)),
      order_id: order.id,
      amount: 1_000,
    });
    approver ??= await signIn(t, ['receipts.view', 'receipts.approve']);
    await approver.post(`/api/receipts/${receipt.id}/approve`).expect(200);
    return { order_id: order.id, receipt_id: receipt.id, method: 'cash', amount: 100 };
  },
  // a deposit (a refund of prepaid money needs a balance first)
  student_prepaid: () => ({ method: 'cash', kind: 'deposit' }),
  // a package's intake is one of its school's and opens its subject
  quotation_item: async () => {
    const school = await createRecord(declarationByName('school')!);
    const subject = await createUnder(declarationByName('school_subject')!, school.id);
    const intake = await createUnder(declarationByName('school_admission')!, school.id, {
      subject_ids: [subject.id],
    });
    return { school_id: school.id, admission_id: intake.id, subject_id: subject.id };
  },
};

/**
 * Values a collection's rows need beyond what its fields say, by collection name: a sales document's line names one
 * source at most (a service, priced in the suite's currency).
 */
const COLLECTION_OVERRIDES: Record<string, (row: Row) => Row> = {
  lines: () => ({ quotation_item_id: null, special_event_id: null }),
};

/** Every answer of the suite, held to the API description at its end (issue 30, item 5). */
const answers: LoggedResponse[] = [];
responseLog.record = (response) => answers.push(response);

let t: TestApp;
let admin: Client;
let branchA: number;
let branchB: number;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  branchA = await createBranch(t.db);
  branchB = await createBranch(t.db);
});
afterAll(() => t.close());

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** The option values created for a list (`zq00012`), increasing with `n`. */
async function optionValue(key: string, n: number): Promise<string> {
  const value = `zq${pad(n, 5)}`;
  const found = await t.db('options').where({ key, value }).first('id');
  if (!found) {
    const now = toDbDateTime();
    await t.db('options').insert({
      key,
      value,
      label_en: `Option ${value}`,
      label_zh: `選項 ${value}`,
      sort_order: n,
      is_active: true,
      created_at: now,
      updated_at: now,
    });
  }
  return value;
}

/** The parent record of a child resource's rows in this suite (one per child resource). */
const parents = new Map<string, number>();

async function parentIdOf(decl: ResourceDeclaration): Promise<number | null> {
  if (!decl.parent) return null;
  if (!parents.has(decl.name)) {
    const parentDecl = declarationByName(decl.parent.resource)!;
    parents.set(decl.name, (await createRecord(parentDecl)).id);
  }
  return parents.get(decl.name)!;
}

/**
 * The collection URL of a resource (a child's inside its suite parent, under the parent's own path whether the
 * parent is top-level or a child itself: `/api/applications/5/documents`; a family's first member's).
 */
async function baseUrl(decl: ResourceDeclaration): Promise<string> {
  if (decl.family) return `/api${decl.path.replace(`:${decl.family.param}`, decl.family.members[0])}`;
  if (!decl.parent) return `/api${decl.path}`;
  const parentDecl = declarationByName(decl.parent.resource)!;
  return `/api${parentDecl.path}/${await parentIdOf(decl)}/${decl.parent.segment}`;
}

/** A record of the child resource `decl` under parent record `parentId` (not the suite's parent), as an admin. */
async function createUnder(decl: ResourceDeclaration, parentId: number, extra: Row = {}): Promise<Row> {
  const parentDecl = declarationByName(decl.parent!.resource)!;
  const res = await admin.post(`/api${parentDecl.path}/${parentId}/${decl.parent!.segment}`, {
    ...(await validBody(decl)),
    ...extra,
  });
  if (res.status !== 201) throw new Error(`create ${decl.name}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * The way up from a record without a branch column of its own: the record its `branchVia` field names (a
 * registration's student), else its parent.
 */
function upOf(decl: ResourceDeclaration): { column: string; target: ResourceDeclaration } | null {
  if (decl.branchVia) {
    const field = decl.fields[decl.branchVia] as { resource: string };
    return { column: decl.branchVia, target: declarationByName(field.resource)! };
  }
  if (!decl.parent) return null;
  return { column: decl.parent.column, target: declarationByName(decl.parent.resource)! };
}

/**
 * The declarations from `decl` up to the one whose own column names the branch (`decl` alone when it has one; a
 * record without one is in the branch of the record it names or of its parents), or null when its records belong
 * to no branch.
 */
function branchChain(decl: ResourceDeclaration): ResourceDeclaration[] | null {
  if (decl.branchColumn) return [decl];
  const up = upOf(decl);
  if (!up) return null;
  const above = branchChain(up.target);
  return above ? [decl, ...above] : null;
}

/** The branch a record is in, read up its chain (`chain`: `branchChain`). */
async function branchOfRecord(chain: ResourceDeclaration[], record: Row): Promise<number> {
  let row = record;
  for (const decl of chain.slice(0, -1)) {
    const up = upOf(decl)!;
    row = await t.db(up.target.table).where({ id: row[up.column] }).first();
  }
  return Number(row[chain[chain.length - 1].branchColumn!]);
}

/** The rows of the resource in this suite's scope (a child's of its suite parent), for counting. */
async function scopeOf(decl: ResourceDeclaration): Promise<Row> {
  if (decl.family) return { [decl.family.param]: decl.family.members[0] };
  return decl.parent ? { [decl.parent.column]: await parentIdOf(decl) } : {};
}

/** One field's value for row number `n`: unique where it can be, increasing with `n`. */
async function valueOf(decl: ResourceDeclaration, name: string, field: FieldDeclaration, n: number) {
  const letter = LETTERS[Object.keys(decl.fields).indexOf(name) % 26];
  switch (field.type) {
    case 'text': {
      if (field.values) return field.values[n % field.values.length];
      let text = `zq${letter}${pad(n, 5)}`;
      if (field.uppercase) text = text.toUpperCase();
      if (text.length > field.max) text = pad(n, field.max);
      if (field.min && text.length < field.min) text = text.padEnd(field.min, 'x');
      return text;
    }
    case 'email':
      return `zq${letter}${pad(n, 5)}@example.com`;
    case 'integer':
    case 'rate': {
      const min = field.min ?? 0;
      const max = field.max ?? 2_000_000;
      return min + (n % (max - min + 1));
    }
    case 'money':
      return 10_000 + n;
    case 'currency':
      return 'HKD';
    case 'date':
      return new Date(Date.UTC(2030, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
    case 'datetime':
      return new Date(Date.UTC(2030, 0, 1) + n * 3_600_000).toISOString().replace('.000Z', 'Z');
    case 'boolean':
      return n % 2 === 0;
    case 'option':
      return optionValue(field.key, n);
    case 'lookup': {
      if (name === decl.branchColumn && field.resource === 'branch') return branchA;
      // a tree (areas): the suite's rows hang under one root record of their own
      if (field.resource === decl.name) return rootOf(decl);
      return (await createRecord(declarationByName(field.resource)!)).id;
    }
    case 'richtext':
      return `<p>zq${letter}${pad(n, 5)}</p>`;
    case 'color':
      return `#${(n % 0xffffff).toString(16).padStart(6, '0')}`;
    case 'file':
      return insertAnyRow(t.db, 'files', {
        path: `test/zq${n}-${Math.random().toString(36).slice(2)}`,
        owner_type: 'test',
        owner_id: 1,
        original_name: 'a.pdf',
        mime_type: 'application/pdf',
        size_bytes: 1,
        sha256: '0'.repeat(64),
      });
  }
}

const roots = new Map<string, number>();

/** The root of a resource that looks itself up: created once, with no parent of its own. */
async function rootOf(decl: ResourceDeclaration): Promise<number> {
  if (!roots.has(decl.name)) {
    roots.set(decl.name, 0);
    const body = await validBody(decl);
    for (const [name, field] of writableFields(decl))
      if (field.type === 'lookup' && field.resource === decl.name) body[name] = null;
    roots.set(decl.name, (await createRecord(decl, body)).id);
  }
  return roots.get(decl.name)!;
}

/** The definition the app registered for a declaration (its permission keys, its rules' importability). */
function definitionOf(decl: ResourceDeclaration): ResourceDefinition {
  const def = registered.find((d) => d.declaration === decl || d.declaration?.name === decl.name);
  if (!def) throw new Error(`${decl.name} is not registered`);
  return def;
}

/** The key a caller needs for `action` on the resource. */
function perm(decl: ResourceDeclaration, action: 'view' | 'create' | 'update' | 'delete'): string {
  return definitionOf(decl).permissions?.[action] ?? `${decl.module}.${action}`;
}

/** The generic writes on a record: update, and delete unless its records are never deleted (receipts). */
function writesOf(decl: ResourceDeclaration): string[] {
  return decl.undeletable ? ['update'] : ['update', 'delete'];
}

/** A valid create body for `decl`, every writable field set; `n` the row's number (default: the next one). */
async function validBody(decl: ResourceDeclaration, n = ++seq): Promise<Row> {
  const body: Row = {};
  for (const [name, field] of writableFields(decl)) body[name] = await valueOf(decl, name, field, n);
  if (decl.branchColumn && body[decl.branchColumn] !== undefined) body[decl.branchColumn] = branchA;
  return OVERRIDES[decl.name] ? { ...body, ...(await OVERRIDES[decl.name](n, body)) } : body;
}

/** A record created through the API as an admin (201 asserted). */
async function createRecord(decl: ResourceDeclaration, body?: Row): Promise<Row> {
  const res = await admin.post(await baseUrl(decl), body ?? (await validBody(decl)));
  if (res.status !== 201) throw new Error(`create ${decl.name}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Each unique set with the field its duplicate error names (the last column of the first set it breaks). */
function uniqueSets(decl: ResourceDeclaration): { columns: string[]; field: string }[] {
  const all = [
    ...(decl.unique ?? []).map((s) => [...s]),
    ...Object.entries(decl.fields)
      .filter(([, f]) => f.unique)
      .map(([n]) => [n]),
  ].map((s) => s.filter((c) => c !== decl.parent?.column));
  return all.map((columns) => {
    const first = all.find((s) => s.every((c) => columns.includes(c)))!;
    return { columns, field: first[first.length - 1] };
  });
}

/**
 * `columns` and, up their `narrowedBy`, the writable fields narrowing their choices (an application's intake is one
 * of its school's): the values a record takes together from another record.
 */
function withNarrowing(decl: ResourceDeclaration, columns: readonly string[]): string[] {
  const out = [...columns];
  for (let i = 0; i < out.length; i++) {
    const field = decl.fields[out[i]];
    const by = field?.type === 'lookup' ? field.narrowedBy?.field : undefined;
    if (by && !out.includes(by) && by !== decl.parent?.column) out.push(by);
  }
  return out;
}

/**
 * The state moves possible from `state` for a holder of `permissions` (all of them for an admin): the declared ones,
 * then the actions the resource serves on routes of its own (`ownActions`: an invoice's e-mail).
 */
function movesFrom(decl: ResourceDeclaration, state: unknown, permissions: string[] | 'admin'): string[] {
  const own = Object.entries(definitionOf(decl).ownActions ?? {});
  return [...Object.entries(decl.states?.actions ?? {}), ...own]
    .filter(([, move]) => move.from.includes(String(state)))
    .filter(
      ([, move]) => permissions === 'admin' || permissions.includes(move.permission ?? perm(decl, 'update')),
    )
    .map(([name]) => name);
}

/** A stored instant (the API's ISO text, or the database's UTC text) as the Hong Kong wall clock in a Date's UTC fields. */
function hongKongWallClock(value: string): Date {
  const iso = /(Z|[+-]\d\d:?\d\d)$/i.test(value) ? value : `${value.replace(' ', 'T')}Z`;
  return new Date(Date.parse(iso) + 8 * 3_600_000);
}

/** What a row's export cell holds for a field, in a CSV (text) or an XLSX (typed cells) export. */
function exportedValue(
  decl: ResourceDeclaration,
  [name, field]: [string, FieldDeclaration],
  row: Row,
  language: 'en' | 'zh',
  kind: 'csv' | 'xlsx',
): unknown {
  if (field.type === 'lookup') return row[lookupNameField(name)];
  // a declared value by its name in the export's language (the catalogue's, as the screens show it); a state by
  // the states' names
  if (field.type === 'text' && field.values && row[name] !== null)
    return declaredLabel(
      decl.states?.column === name
        ? stateLabelKey(decl.name, row[name])
        : valueLabelKey(decl.name, name, row[name]),
    )[language];
  if (field.type === 'option') return row[`${name}_label`] ?? row[name];
  if (field.type === 'boolean')
    return row[name] ? (language === 'zh' ? '是' : 'Yes') : language === 'zh' ? '否' : 'No';
  if (field.type === 'money') return row[name] === null ? null : majorUnits(row[name], row[field.currency]);
  if (field.type === 'rate') return row[name] === null ? null : Number(row[name]) / 100;
  if (row[name] === null || row[name] === undefined) return row[name];
  // a date: a date cell at UTC midnight of the day in XLSX, the text in CSV
  if (field.type === 'date')
    return kind === 'xlsx' ? new Date(`${String(row[name]).slice(0, 10)}T00:00:00Z`) : row[name];
  // a time: Hong Kong time, as people read it; a date cell holding it in XLSX, to the minute in CSV
  if (field.type === 'datetime') {
    const wall = hongKongWallClock(String(row[name]));
    return kind === 'xlsx' ? wall : wall.toISOString().slice(0, 16).replace('T', ' ');
  }
  return row[name];
}

/** A resource whose records have a parent record of its own kind (an area's districts): its parent column. */
function treeColumn(decl: ResourceDeclaration): string | undefined {
  return Object.entries(decl.fields).find(([, f]) => f.type === 'lookup' && f.resource === decl.name)?.[0];
}

/**
 * The rows an export of the list writes, in its order: the list's own; for a tree, whose list shows its top
 * rows, every row (each top row's children too), in the list's default order (its sort column, then id).
 */
async function exportedRows(
  decl: ResourceDeclaration,
  url: string,
  language: 'en' | 'zh_HK',
): Promise<Row[]> {
  const listed = await listAll(admin, url, language);
  const column = treeColumn(decl);
  if (!column) return listed;
  const all = [...listed];
  for (const top of listed) all.push(...(await listAll(admin, `${url}?${column}=${top.id}`, language)));
  const sort = decl.defaultSort.replace(/^-/, '');
  const sign = decl.defaultSort.startsWith('-') ? -1 : 1;
  const key = (r: Row) => r[sort] as number | string | null;
  return all.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    if (x !== y) {
      if (x === null) return -sign;
      if (y === null) return sign;
      return sign * (x < y ? -1 : 1);
    }
    return sign * (a.id - b.id);
  });
}

const cell = (v: unknown) =>
  v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** Ascending or descending by `field`, ties by id the same way. */
function isOrdered(rows: Row[], field: string, direction: 'asc' | 'desc'): boolean {
  const sign = direction === 'asc' ? 1 : -1;
  const key = (v: unknown) => (typeof v === 'boolean' ? Number(v) : v);
  for (let i = 1; i < rows.length; i++) {
    const a = key(rows[i - 1][field]) as never;
    const b = key(rows[i][field]) as never;
    if (a === b || (a === null && b === null)) {
      if (sign * (rows[i - 1].id - rows[i].id) > 0) return false;
    } else if (a === null || b === null) {
      // NULLs first ascending (both databases)
      if ((a === null) !== sign > 0) return false;
    } else if (sign * (a < b ? -1 : 1) > 0) {
      return false;
    }
  }
  return true;
}

describe.each(DECLARATIONS.map((d) => [d.name, d] as const))('declared resource %s', (_name, decl) => {
  const fields = Object.entries(decl.fields);
  let url: string;
  let scope: Row;
  /** the suite's own rows, created through the API, in creation order */
  let rows: Row[] = [];
  let noView: Client;
  let viewOnly: Client;
  let viewUpdate: Client;

  beforeAll(async () => {
    url = await baseUrl(decl);
    scope = await scopeOf(decl);
    if (!decl.readOnly) {
      rows = [];
      for (let i = 0; i < 3; i++) rows.push(await createRecord(decl));
    } else {
      rows = (await listAll(admin, url)).slice(0, 3);
      // a read-only child's rows come with its parent (an application's checklist with the application): the
      // suite's parent must have made some, or the contract would pass on nothing
      if (decl.parent && !rows.length) throw new Error(`${decl.name}: its suite parent made no rows`);
    }
    noView = await signIn(t, ['dashboard.view']);
    // a resource only admins read (the audit log) has no view key to grant: its readers are admins
    const adminsOnly = perm(decl, 'view') === ADMINS_ONLY;
    viewOnly = adminsOnly ? await signedInAdmin(t) : await signIn(t, [perm(decl, 'view')]);
    viewUpdate = adminsOnly ? viewOnly : await signIn(t, [perm(decl, 'view'), perm(decl, 'update')]);
  });

  it('lists with paging, total and per_page', async () => {
    const total = await countRows(t.db, decl.table, scope);
    const first = await admin.get(`${url}?per_page=2&page=1`).expect(200);
    expect(first.body).toMatchObject({ total, page: 1, per_page: 2 });
    expect(first.body.items).toHaveLength(Math.min(2, total));
    const second = await admin.get(`${url}?per_page=2&page=2`).expect(200);
    expect(second.body).toMatchObject({ total, page: 2, per_page: 2 });
    const ids = [...first.body.items, ...second.body.items].map((r: Row) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect((await listAll(admin, url)).map((r) => r.id).sort()).toEqual(
      (await t.db(decl.table).where(scope).pluck('id')).map(Number).sort(),
    );
    expect((await admin.get(`${url}?per_page=101`)).status).toBe(422);
  });

  it('searches q on each searchable field', async () => {
    const searchable = fields.filter(([, f]) => f.searchable);
    for (const [name] of searchable) {
      const target = rows[1] ?? rows[0];
      if (!target || typeof target[name] !== 'string' || !target[name]) continue;
      const res = await admin.get(`${url}?q=${encodeURIComponent(String(target[name]))}&per_page=100`);
      expect(res.status).toBe(200);
      const ids = res.body.items.map((r: Row) => r.id);
      expect(ids).toContain(target.id);
      if (!decl.readOnly) expect(ids).not.toContain(rows[0].id === target.id ? rows[2].id : rows[0].id);
    }
    const nothing = await admin.get(`${url}?q=${encodeURIComponent('%_no such thing_%')}`).expect(200);
    if (searchable.length) expect(nothing.body.total).toBe(0);
  });

  it('sorts by every sortable field, ascending and descending', async () => {
    const sortable = fields.filter(([, f]) => f.sortable).map(([n]) => n);
    for (const name of sortable) {
      const asc = await listAll(admin, `${url}?sort=${name}`);
      const desc = await listAll(admin, `${url}?sort=-${name}`);
      expect(desc.map((r) => r.id)).toEqual(asc.map((r) => r.id).reverse());
      // the suite's own rows hold values it chose, comparable the same way in every collation
      const own = new Set(rows.map((r) => r.id));
      if (!decl.readOnly) {
        expect([
          name,
          isOrdered(
            asc.filter((r) => own.has(r.id)),
            name,
            'asc',
          ),
        ]).toEqual([name, true]);
        expect([
          name,
          isOrdered(
            desc.filter((r) => own.has(r.id)),
            name,
            'desc',
          ),
        ]).toEqual([name, true]);
      }
    }
    expect((await admin.get(`${url}?sort=created_by_nobody`)).status).toBe(422);
  });

  it('filters on each filterable field', async () => {
    for (const [name, field] of fields.filter(([, f]) => f.filterable)) {
      const target = rows.find((r) => r[name] !== null && r[name] !== undefined);
      if (!target) continue;
      let query: string;
      let match: (r: Row) => boolean;
      if (field.type === 'date' || field.type === 'datetime') {
        const day = String(target[name]).slice(0, 10);
        query = `${name}_from=${day}&${name}_to=${day}`;
        match = (r) => String(r[name]).slice(0, 10) === day;
      } else {
        query = `${name}=${encodeURIComponent(String(target[name]))}`;
        match = (r) => r[name] === target[name];
      }
      const found = await listAll(admin, `${url}?${query}`);
      expect([name, found.every(match)]).toEqual([name, true]);
      expect(found.map((r) => r.id)).toContain(target.id);
      const other = rows.find((r) => !match(r));
      if (other) expect(found.map((r) => r.id)).not.toContain(other.id);
    }
    if (decl.states) {
      const found = await listAll(admin, `${url}?${decl.states.column}=${decl.states.initial}`);
      expect(found.every((r) => r[decl.states!.column] === decl.states!.initial)).toBe(true);
    }
  });

  if (decl.readOnly) {
    it('serves no writes', async () => {
      await admin.post(url, {}).expect(404);
    });
  } else {
    it('creates a valid record: 201, and reads it back', async () => {
      const body = await validBody(decl);
      const res = await admin.post(url, body).expect(201);
      const read = await admin.get(`${url}/${res.body.id}`).expect(200);
      for (const [name, field] of writableFields(decl)) {
        if (field.type === 'datetime') expect(Date.parse(read.body[name])).toBe(Date.parse(body[name]));
        else expect([name, read.body[name]]).toEqual([name, body[name]]);
      }
      if (decl.states) expect(read.body[decl.states.column]).toBe(decl.states.initial);
      expect(read.body.allowed_actions).toEqual([
        ...writesOf(decl),
        ...movesFrom(decl, read.body[decl.states?.column ?? ''], 'admin'),
      ]);
      expect(read.body.refusal).toBeNull();
      const audit = await t.db('audit_logs').where({ entity: decl.name, entity_id: res.body.id }).first();
      expect(audit?.action).toBe('create');
    });

    it('refuses a body without a required field, or with a too-long text, with 422 naming it and writes nothing', async () => {
      const before = await countRows(t.db, decl.table, scope);
      for (const [name] of writableFields(decl).filter(([, f]) => f.required)) {
        const body = await validBody(decl);
        delete body[name];
        const res = await admin.post(url, body);
        expect([name, res.status]).toEqual([name, 422]);
        expect(res.body.code).toBe('validation');
        expect(res.body.errors?.[name]).toBeDefined();
      }
      const long = writableFields(decl).find(([, f]) => f.type === 'text' || f.type === 'richtext');
      if (long) {
        const [name, field] = long as [string, { max: number }];
        const res = await admin.post(url, { ...(await validBody(decl)), [name]: 'x'.repeat(field.max + 1) });
        expect(res.status).toBe(422);
        expect(res.body.errors?.[name]).toBeDefined();
      }
      const unknown = await admin.post(url, { ...(await validBody(decl)), created_by: 1 });
      expect(unknown.status).toBe(422);
      expect(await countRows(t.db, decl.table, scope)).toBe(before);
    });

    it('refuses a duplicate on each unique set with 422 duplicate naming the field', async () => {
      const before = await countRows(t.db, decl.table, scope);
      for (const set of uniqueSets(decl)) {
        const body = await validBody(decl);
        // the set's columns and the fields narrowing their choices (an intake's school): a duplicate, not a mismatch
        const copied = withNarrowing(decl, set.columns);
        for (const column of copied) body[column] = rows[0][column];
        const res = await admin.post(url, body);
        expect([set.columns, res.status]).toEqual([set.columns, 422]);
        expect(res.body.code).toBe('duplicate');
        expect(Object.keys(res.body.errors ?? {})).toEqual([set.field]);
        // on update too, while a record keeps its own values
        const own = await admin.put(
          `${url}/${rows[1].id}`,
          Object.fromEntries(copied.map((c) => [c, rows[0][c]])),
        );
        expect(own.status).toBe(422);
        expect(own.body.code).toBe('duplicate');
        await admin
          .put(`${url}/${rows[0].id}`, Object.fromEntries(set.columns.map((c) => [c, rows[0][c]])))
          .expect(200);
      }
      expect(await countRows(t.db, decl.table, scope)).toBe(before);
    });

    it('updates a record and reads the change back', async () => {
      const fresh = await validBody(decl);
      const changed = writableFields(decl).find(
        ([n, f]) =>
          !(n === decl.branchColumn) && ['text', 'integer', 'email', 'color', 'date'].includes(f.type),
      );
      const body = changed ? { [changed[0]]: fresh[changed[0]] } : {};
      const res = await admin.put(`${url}/${rows[2].id}`, body).expect(200);
      const read = await admin.get(`${url}/${rows[2].id}`).expect(200);
      for (const [name, value] of Object.entries(body)) {
        expect(res.body[name]).toEqual(value);
        expect(read.body[name]).toEqual(value);
      }
      rows[2] = read.body;
      await admin.put(`${url}/999999999`, body).expect(404);
    });

    it('deletes with 204, and refuses with 409 and the counts while a declared reference exists', async () => {
      const victim = await createRecord(decl);
      if (decl.undeletable) {
        // never deleted (cancelled or unapproved instead): no delete route, the record stays
        expect((await admin.delete(`${url}/${victim.id}`)).status).toBe(404);
        await admin.get(`${url}/${victim.id}`).expect(200);
        return;
      }
      for (const ref of decl.references ?? []) {
        if (!(await t.db.schema.hasTable(ref.table))) {
          expect(ref.whenTableExists).toBe(true);
          continue;
        }
        const referencing = await insertAnyRow(t.db, ref.table, { [ref.column]: victim.id, ...ref.where });
        const refused = await admin.delete(`${url}/${victim.id}`);
        expect([ref.key, refused.status]).toEqual([ref.key, 409]);
        expect(refused.body.code).toBe('referenced');
        expect(refused.body.references).toEqual({ [ref.key]: 1 });
        await admin.get(`${url}/${victim.id}`).expect(200);
        await t.db(ref.table).where({ id: referencing }).delete();
      }
      await admin.delete(`${url}/${victim.id}`).expect(204);
      await admin.get(`${url}/${victim.id}`).expect(404);
      expect(await t.db(decl.table).where({ id: victim.id }).first()).toBeUndefined();
      const audit = await t
        .db('audit_logs')
        .where({ entity: decl.name, entity_id: victim.id, action: 'delete' });
      expect(audit).toHaveLength(1);
    });
  }

  if (!decl.readOnly || decl.parent) {
    it('hides a record outside the caller’s branch scope (404), when the resource is branch-scoped (its own or its parents’)', async () => {
      const permissions = (['view', 'create', 'update', 'delete'] as const).map((a) => perm(decl, a));
      const other = await signIn(t, permissions, { branchId: branchB });
      const target = rows[0];
      const chain = branchChain(decl);
      if (decl.branchColumn) {
        await other.get(`${url}/${target.id}`).expect(404);
        await other.put(`${url}/${target.id}`, {}).expect(404);
        await other.delete(`${url}/${target.id}`).expect(404);
        expect((await listAll(other, url)).map((r) => r.id)).not.toContain(target.id);
        if (writableFields(decl).some(([n]) => n === decl.branchColumn)) {
          // nor write a record into another branch
          const body = { ...(await validBody(decl)), [decl.branchColumn]: branchA };
          const before = await countRows(t.db, decl.table, scope);
          expect((await other.post(url, body)).status).toBe(404);
          expect(await countRows(t.db, decl.table, scope)).toBe(before);
        }
        const own = await signIn(t, permissions, { branchId: target[decl.branchColumn] });
        await own.get(`${url}/${target.id}`).expect(200);
      } else if (chain) {
        // in its parents' branch: another branch's caller finds neither the parent (so none of the routes under
        // it) nor the record at its own path, nor can it move it; in the branch of a record it names (a
        // registration's student, under an agency-wide event): the parent's list is the caller's, without it
        const own = `/api${decl.path}/${target.id}`;
        await other.get(`${url}/${target.id}`).expect(404);
        if (decl.branchVia) expect((await listAll(other, url)).map((r) => r.id)).not.toContain(target.id);
        else expect((await other.get(url)).status).toBe(404);
        await other.get(own).expect(404);
        for (const action of Object.keys(decl.states?.actions ?? {}))
          expect([action, (await other.post(`${own}/${action}`)).status]).toEqual([action, 404]);
        if (!decl.readOnly) {
          const before = await countRows(t.db, decl.table, scope);
          await other.put(`${url}/${target.id}`, {}).expect(404);
          await other.delete(`${url}/${target.id}`).expect(404);
          expect((await other.post(url, await validBody(decl))).status).toBe(404);
          expect(await countRows(t.db, decl.table, scope)).toBe(before);
        }
        const mine = await signIn(t, permissions, { branchId: await branchOfRecord(chain, target) });
        await mine.get(`${url}/${target.id}`).expect(200);
        await mine.get(own).expect(200);
      } else {
        // not branch-scoped: every branch sees it
        await other.get(`${url}/${target.id}`).expect(200);
      }
      await admin.get(`${url}/${target.id}`).expect(200);
    });
  }

  if (decl.collections) {
    /** A record of `target` that a collection of `decl` may hold: under the same parent record when both have one. */
    async function collectible(target: ResourceDeclaration): Promise<number> {
      if (!target.parent || target.parent.resource !== decl.parent?.resource)
        return (await createRecord(target)).id;
      const parentBase = await baseUrl(declarationByName(decl.parent.resource)!);
      const res = await admin.post(
        `${parentBase}/${await parentIdOf(decl)}/${target.parent.segment}`,
        await validBody(target),
      );
      expect(res.status).toBe(201);
      return res.body.id;
    }

    /** Rows of a collection's writable fields (its read-only ones, a line's net amount, are the server's). */
    async function collectionRows(
      fields: Record<string, FieldDeclaration>,
      count: number,
      name = '',
    ): Promise<Row[]> {
      const rows: Row[] = [];
      for (let i = 0; i < count; i++) {
        const n = ++seq;
        const row: Row = {};
        for (const [field, declared] of Object.entries(fields))
          if (!declared.readOnly) row[field] = await valueOf({ ...decl, fields }, field, declared, n);
        rows.push({ ...row, ...(COLLECTION_OVERRIDES[name]?.(row) ?? {}) });
      }
      return rows;
    }

    /** The rows without their ids and the fields the server computes. */
    const withoutIds = (rows: Row[], fields: Record<string, FieldDeclaration> = {}) =>
      rows.map(({ id: _id, ...rest }) =>
        Object.fromEntries(Object.entries(rest).filter(([k]) => !fields[k]?.readOnly)),
      );

    it('saves its collections whole: created with the record, replaced on update keeping ids, deleted with it', async () => {
      const collections = Object.entries(decl.collections!);
      const body = await validBody(decl);
      for (const [name, c] of collections) {
        body[name] = c.ids
          ? [
              await collectible(declarationByName(c.ids.resource)!),
              await collectible(declarationByName(c.ids.resource)!),
            ]
          : await collectionRows(c.fields ?? {}, 3, name);
      }
      const created = await createRecord(decl, body);
      const read = (await admin.get(`${url}/${created.id}`).expect(200)).body;
      for (const [name, c] of collections) {
        if (c.ids) {
          expect(read[name]).toEqual(body[name]);
          // each id named in the caller's language
          expect(read[name.replace(/_ids$/, '_names')].map((x: Row) => x.id)).toEqual(body[name]);
          expect(read[name.replace(/_ids$/, '_names')].every((x: Row) => typeof x.label === 'string')).toBe(
            true,
          );
        } else {
          expect(withoutIds(read[name], c.fields)).toEqual(body[name]);
        }
      }

      // update: drop the first, reverse the others (keeping their ids), add a new one
      const update: Row = {};
      for (const [name, c] of collections) {
        if (c.ids) update[name] = [read[name][1]];
        else
          update[name] = [
            ...withoutIds(read[name].slice(1).reverse(), c.fields).map((row, i) => ({
              ...row,
              id: read[name].slice(1).reverse()[i].id,
            })),
            ...(await collectionRows(c.fields ?? {}, 1, name)),
          ];
      }
      await admin.put(`${url}/${created.id}`).send(update).expect(200);
      const after = (await admin.get(`${url}/${created.id}`).expect(200)).body;
      for (const [name, c] of collections) {
        if (c.ids) {
          expect(after[name]).toEqual(update[name]);
        } else {
          expect(withoutIds(after[name], c.fields)).toEqual(withoutIds(update[name]));
          // kept rows keep their ids, in the order sent
          expect(after[name].slice(0, 2).map((r: Row) => r.id)).toEqual(
            update[name].slice(0, 2).map((r: Row) => r.id),
          );
          expect(await countRows(t.db, c.table, { [c.column]: created.id })).toBe(3);
        }
      }
      const audit = await t
        .db('audit_logs')
        .where({ entity: decl.name, entity_id: created.id, action: 'update' })
        .first();
      const changes = JSON.parse(String(audit.changes));
      for (const [name] of collections) expect(Object.keys(changes.after)).toContain(name);

      // a row id of another record's collection is refused, and nothing changes
      const other = await createRecord(decl, {
        ...(await validBody(decl)),
        ...Object.fromEntries(collections.filter(([, c]) => !c.ids).map(([name]) => [name, []])),
      });
      for (const [name, c] of collections.filter(([, c]) => !c.ids)) {
        const foreign = await collectionRows(c.fields ?? {}, 1, name);
        const res = await admin
          .put(`${url}/${other.id}`)
          .send({ [name]: [{ ...foreign[0], id: after[name][0].id }] });
        expect(res.status).toBe(422);
        expect(await countRows(t.db, c.table, { [c.column]: other.id })).toBe(0);
      }

      if (decl.undeletable) {
        // never deleted (an invoice): no delete route, and its collections stay with it
        await admin.delete(`${url}/${created.id}`).expect(404);
        for (const [, c] of collections.filter(([, c]) => !c.ids))
          expect(await countRows(t.db, c.table, { [c.column]: created.id })).toBe(3);
        return;
      }
      await admin.delete(`${url}/${created.id}`).expect(204);
      for (const [, c] of collections)
        expect(await countRows(t.db, c.table, { [c.column]: created.id })).toBe(0);
    });
  }

  if (decl.listedUnder) {
    it('is listed, read only, under the record it names (listedUnder), that record’s access checked once', async () => {
      const listed = decl.listedUnder!;
      const named = declarationByName(listed.resource)!;
      const target = rows[0];
      const under = `/api${named.path}/${target[listed.column]}/${listed.segment}`;
      const seen = await listAll(admin, under);
      expect(seen.map((r) => r.id)).toContain(target.id);
      expect(seen.every((r) => r[listed.column] === target[listed.column])).toBe(true);
      expect(seen).toHaveLength(
        await countRows(t.db, decl.table, { [listed.column]: target[listed.column] }),
      );
      // read only there: writes stay under the parent
      expect([404, 405]).toContain((await admin.post(under, await validBody(decl))).status);
      const csv = readCsv((await download(admin, `${under}?format=csv&lang=en`).then(ok)).body);
      expect(csv).toHaveLength(seen.length + 1);
      await noView.get(under).expect(403);
      // a caller who cannot see the record it names finds nothing under it
      if (branchChain(named)) {
        const elsewhere = await signIn(t, [perm(decl, 'view'), perm(named, 'view')], { branchId: branchB });
        await elsewhere.get(under).expect(404);
      }
    });
  }

  it('exports XLSX and CSV with the declared columns headed in en and zh_HK, lookups as names', async () => {
    const exported = fields.filter(([, f]) => isExported(f));
    for (const language of ['en', 'zh'] as const) {
      // related names come in the export's language, as the list gives them in that language (a tree: every row)
      const listed = await exportedRows(decl, url, language === 'en' ? 'en' : 'zh_HK');
      const target = listed.find((r) => r.id === rows[0]?.id);
      const declared = exported.map(([n]) => declaredLabel(fieldLabelKey(decl.name, n))[language]);
      // the declared columns, in order, and any its rules add after them
      const headers = (definitionOf(decl).exportColumns ?? []).map((c) => c[language]);
      expect(headers.slice(0, declared.length)).toEqual(declared);
      const lang = language === 'en' ? 'en' : 'zh_HK';
      const csv = readCsv((await download(admin, `${url}?format=csv&lang=${lang}`).then(ok)).body);
      const xlsx = await readXlsx((await download(admin, `${url}?format=xlsx&lang=${lang}`).then(ok)).body);
      for (const [kind, sheet] of [
        ['csv', csv],
        ['xlsx', xlsx],
      ] as const) {
        expect([kind, sheet[0]]).toEqual([kind, headers]);
        expect([kind, sheet.length - 1]).toEqual([kind, listed.length]);
        if (!target) continue;
        // the suite's row, found by its position in the list's (default) order
        const line = sheet[1 + listed.indexOf(target)];
        exported.forEach(([name, field], i) => {
          const expected = exportedValue(decl, [name, field], target, language, kind);
          const got = kind === 'csv' ? line[i] : (line[i] ?? null);
          if (field.type === 'lookup' && target[name] !== null) expect(expected).not.toBeNull();
          expect([kind, name, cell(got)]).toEqual([kind, name, cell(expected)]);
        });
      }
    }
  });

  if (decl.importable) {
    it('imports all or nothing (POST /api{path}/import)', async () => {
      const writable = writableFields(decl);
      const columns = writable.map(([n]) => n);
      const good = [await validBody(decl), await validBody(decl)];
      const bad = { ...(await validBody(decl)) };
      const required = writableFields(decl).find(([, f]) => f.required);
      if (required) bad[required[0]] = '';
      const csvOf = (bodies: Row[]) =>
        [
          columns.join(','),
          ...bodies.map((b) => writable.map(([c, f]) => importCell(f, b[c], b)).join(',')),
        ].join('\r\n');
      const before = await countRows(t.db, decl.table, scope);
      const refused = await admin.post(`${url}/import`).attach('file', Buffer.from(csvOf([...good, bad])), {
        filename: 'rows.csv',
        contentType: 'text/csv',
      });
      expect(refused.status).toBe(422);
      expect(await countRows(t.db, decl.table, scope)).toBe(before);
      const accepted = await admin
        .post(`${url}/import`)
        .attach('file', Buffer.from(csvOf(good)), { filename: 'rows.csv', contentType: 'text/csv' });
      expect([accepted.status, accepted.body]).toEqual([200, expect.anything()]);
      expect(await countRows(t.db, decl.table, scope)).toBe(before + 2);
      const firstText = writableFields(decl).find(([, f]) => f.type === 'text');
      if (firstText) {
        const names = await t.db(decl.table).where(scope).pluck(firstText[0]);
        expect(names).toEqual(expect.arrayContaining(good.map((b) => b[firstText[0]])));
      }
    });
  } else {
    it('has no import route (not importable)', async () => {
      expect([404, 405]).toContain((await admin.post(`${url}/import`, {})).status);
    });
  }

  it('keeps the permission matrix: view to list, each write its own key, allowed_actions as held', async () => {
    await noView.get(url).expect(403);
    const seen = await viewOnly.get(`${url}?per_page=100`).expect(200);
    for (const item of seen.body.items)
      expect(item.allowed_actions).toEqual(
        movesFrom(decl, item[decl.states?.column ?? ''], [perm(decl, 'view')]),
      );
    if (!decl.readOnly) {
      const target = rows[0];
      const before = await countRows(t.db, decl.table, scope);
      expect((await viewOnly.post(url, await validBody(decl))).status).toBe(403);
      expect((await viewOnly.put(`${url}/${target.id}`, {})).status).toBe(403);
      // a record never deleted has no delete route at all
      const deleteRefused = decl.undeletable ? 404 : 403;
      expect((await viewOnly.delete(`${url}/${target.id}`)).status).toBe(deleteRefused);
      expect(await countRows(t.db, decl.table, scope)).toBe(before);
      const updater = await viewUpdate.get(`${url}?per_page=100`).expect(200);
      const held = [perm(decl, 'view'), perm(decl, 'update')];
      for (const item of updater.body.items) {
        expect(item.allowed_actions).toEqual(
          item.refusal ? [] : ['update', ...movesFrom(decl, item[decl.states?.column ?? ''], held)],
        );
      }
      expect((await viewUpdate.delete(`${url}/${target.id}`)).status).toBe(deleteRefused);
      const all = await admin.get(`${url}?per_page=100`).expect(200);
      for (const item of all.body.items)
        expect(item.allowed_actions).toEqual([
          ...writesOf(decl),
          ...movesFrom(decl, item[decl.states?.column ?? ''], 'admin'),
        ]);
    }
  });

  it('names related records for a read-only user, in the caller’s language', async () => {
    const lookups = fields.filter(([, f]) => f.type === 'lookup' || f.type === 'option');
    for (const language of ['en', 'zh_HK'] as const) {
      const res = await viewOnly
        .get(`${url}?per_page=100`)
        .set('Accept-Language', language === 'en' ? 'en' : 'zh-HK')
        .expect(200);
      for (const item of res.body.items as Row[]) {
        for (const [name, field] of lookups) {
          if (item[name] === null || item[name] === undefined) continue;
          if (field.type === 'lookup') {
            const target = declarationByName(field.resource)!;
            const row = await t.db(target.table).where({ id: item[name] }).first();
            expect([name, item[lookupNameField(name)]]).toEqual([name, displayName(target, row, language)]);
            expect(item[lookupNameField(name)]).toBeTruthy();
          } else if (field.type === 'option') {
            const option = await t.db('options').where({ key: field.key, value: item[name] }).first();
            if (option)
              expect([name, item[`${name}_label`]]).toEqual([
                name,
                language === 'en' ? option.label_en : option.label_zh,
              ]);
          }
        }
      }
    }
  });

  it('answers GET /lookup?q= with id and label to whoever may view it or a record referring to it', async () => {
    const target = rows.find((r) => r.is_active !== false) ?? rows[0];
    if (!definitionOf(decl).label) {
      // a resource without a label (the audit log) answers no lookup
      expect((await admin.get(`${url}/lookup`)).status).not.toBe(200);
      return;
    }
    if (!target) return;
    // a lookup offers active records only: the rows' flags follow the suite's numbering, which may make all inactive
    if (target.is_active === false)
      await t.db(decl.table).where({ id: target.id }).update({ is_active: true });
    const label = displayName(decl, target, 'en');
    const q = encodeURIComponent(String(target[decl.display.en[0]]));
    const seen = await viewOnly.get(`${url}/lookup?q=${q}`).expect(200);
    expect(seen.body).toContainEqual({ id: target.id, label });
    expect(Object.keys(seen.body[0]).sort()).toEqual(['id', 'label']);
    const zh = await viewOnly
      .get(`${url}/lookup?q=${encodeURIComponent(String(target[decl.display.zh_HK[0]]))}`)
      .set('Accept-Language', 'zh-HK')
      .expect(200);
    expect(zh.body).toContainEqual({ id: target.id, label: displayName(decl, target, 'zh_HK') });
    await noView.get(`${url}/lookup?q=${q}`).expect(403);
    const referrers = DECLARATIONS.filter(
      (d) =>
        perm(d, 'view') !== perm(decl, 'view') &&
        Object.values(d.fields).some((f) => f.type === 'lookup' && f.resource === decl.name),
    );
    for (const referrer of referrers) {
      const user = await signIn(t, [perm(referrer, 'view')]);
      const res = await user.get(`${url}/lookup?q=${q}`);
      expect([referrer.name, res.status]).toEqual([referrer.name, 200]);
      expect(res.body).toContainEqual({ id: target.id, label });
    }
  });
});

function ok<T extends { status: number }>(res: T): T {
  if (res.status !== 200) throw new Error(`download failed: ${res.status}`);
  return res;
}

/** A value as a person types it into an import file (yes/no, money in major units). */
function importCell(field: FieldDeclaration, value: unknown, body: Row): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (field.type === 'boolean') text = value ? 'Yes' : 'No';
  if (field.type === 'money') text = String(majorUnits(value, body[field.currency]));
  if (field.type === 'rate') text = String(Number(value) / 100);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

describe('definitions registered the old way (until they move onto declarations)', () => {
  const legacy = () =>
    registered.filter((d) => !d.declaration && !d.path.includes(':') && !declarationByName(d.name));

  it('found the registered definitions', () => {
    const names = (list: { name: string }[]) => [...new Set(list.map((d) => d.name))].sort();
    expect(names(registered.filter((d) => d.declaration))).toEqual(names([...DECLARATIONS]));
  });

  it('list with paging, total and per_page, and refuse a caller without the view key', async () => {
    const noView = await signIn(t, ['dashboard.view']);
    for (const def of legacy()) {
      const res = await admin.get(`/api${def.path}?per_page=1`);
      expect([def.path, res.status]).toEqual([def.path, 200]);
      expect(res.body).toMatchObject({ page: 1, per_page: 1 });
      expect(typeof res.body.total).toBe('number');
      expect(res.body.items.length).toBeLessThanOrEqual(1);
      expect([def.path, (await noView.get(`/api${def.path}`)).status]).toEqual([def.path, 403]);
    }
  });

  it('sort by every sortable column both ways, and find a row by each searchable column', async () => {
    for (const def of legacy()) {
      for (const column of def.sortable) {
        const asc = await listAll(admin, `/api${def.path}?sort=${column}`);
        const desc = await listAll(admin, `/api${def.path}?sort=-${column}`);
        expect([def.path, column, desc.map((r) => r.id)]).toEqual([
          def.path,
          column,
          asc.map((r) => r.id).reverse(),
        ]);
      }
      const first = (await admin.get(`/api${def.path}?per_page=1`)).body.items[0];
      for (const qualified of def.searchable) {
        const column = qualified.split('.').pop()!;
        if (!first || typeof first[column] !== 'string' || !first[column]) continue;
        const found = await admin.get(`/api${def.path}?per_page=100&q=${encodeURIComponent(first[column])}`);
        expect([def.path, column, found.body.items.map((r: Row) => r.id)]).toEqual([
          def.path,
          column,
          expect.arrayContaining([first.id]),
        ]);
      }
    }
  });

  it('export CSV headed by their columns, one line per row', async () => {
    for (const def of legacy()) {
      const list = await admin.get(`/api${def.path}?per_page=1`).expect(200);
      const csv = readCsv((await download(admin, `/api${def.path}?format=csv&lang=en`).then(ok)).body);
      if (def.exportColumns)
        expect([def.path, csv[0]]).toEqual([def.path, def.exportColumns.map((c) => c.en)]);
      if (list.body.total) expect([def.path, csv.length - 1]).toEqual([def.path, list.body.total]);
    }
  });
});

it('answers as GET /api/openapi.json describes: every response of this suite validates against it', async () => {
  responseLog.record = null;
  const document = (await admin.get('/api/openapi.json').expect(200)).body;
  const validator = responseValidator(document);
  let described = 0;
  const mismatches: string[] = [];
  const outside = new Set<string>();
  for (const response of answers) {
    const problem = validator.check(response);
    if (problem === null) {
      outside.add(`${response.method} ${response.url.split('?')[0].replace(/\/\d+/g, '/:id')}`);
      continue;
    }
    described++;
    if (problem) mismatches.push(problem);
  }
  console.log(
    `contract suite against /api/openapi.json: ${described} responses, ${mismatches.length} mismatches` +
      (outside.size
        ? ` (and ${answers.length - described} answers the document leaves out: sign-in and account routes no token ` +
          `can call, and routes that do not exist, e.g. ${[...outside].slice(0, 4).join(', ')})`
        : '') +
      (mismatches.length ? `\n  ${[...new Set(mismatches)].slice(0, 30).join('\n  ')}` : ''),
  );
  expect(described).toBeGreaterThan(1000);
  expect(mismatches).toEqual([]);
});
