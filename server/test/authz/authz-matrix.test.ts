import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { CRUD_ACTIONS, MODULES, PERMISSIONS } from '../../../shared/permissions';
import type { RegisteredRoute } from '../../src/http/api-router';
import { toDbDateTime } from '../../src/lib/clock';
import { randomToken, sha256 } from '../../src/lib/crypto';
import { settingsRepository } from '../../src/modules/settings/settings.repository';
import { SETTING_KEYS } from '../../src/modules/users/account-settings';
import {
  Client,
  PORTAL_HOST,
  STAFF_HOST,
  createBranch,
  createRole,
  createStudent,
  createTestApp,
  createUser,
  type TestApp,
} from '../harness';

/**
 * The authorisation matrix (quality §14, §12): every registered route × nine kinds of caller → the expected
 * status, kept in `matrix.json`. The test fails on any mismatch, on any registered route missing from the file,
 * and on a row whose permission key differs from the route's. It also holds every row to rules that do not
 * depend on the file (anonymous → 401, staff without the module or without a role → 403, admin never 401/403,
 * a token answers as its owner would or is refused …), so a row cannot bless a hole. It prints
 * `authorisation matrix: R routes × C callers = N requests, U unexpected answers` and needs U = 0.
 *
 * Adding a route: run the test; it prints a ready row for each missing route (what the app answers now) —
 * check the statuses, then paste the row into `matrix.json`. `AUTHZ_MATRIX_WRITE=1` appends those rows itself,
 * and fills in the statuses of a caller the file does not list yet (a new column) from what the app answers now;
 * it never rewrites a status the file already holds. Review every status it writes.
 *
 * Every request is made with `:id` = 1 and the row's `body` (default `{}`), so writes stop at validation.
 * The fixture makes record 1 of users, roles, companies and branches belong to the *other* branch and still be
 * referenced, so deletes answer 409 and a branch-scoped caller gets 404 (student 1 through its application 1, which
 * a submitted checklist row keeps; no checklist row 1, family member 1, education 1 or grade report 1 exists, so
 * their writes stop at 404 and change nothing); school 1 and its subject 1 (agency-wide,
 * seen by every branch) are still referenced too, and so are service category 1, service 1 and special event 1
 * (agency-wide; its registration 2 is student 1's, no registration 1 or quotation item 1 exists).
 *
 * The `token` caller sends `Authorization: Bearer …` and no cookie. Its owner is staff holding every permission
 * with `all` scope (not an admin), and the token has exactly one ability: the route's own key when the route has
 * one a role can hold, else `students.view` (a key no route here asks for). So the column shows what one ability
 * opens — the same answer as the owner's session (`writer`), except where a token is less: the access rules weigh
 * it by its abilities (403 `insufficient_rights` on an account or role that needs more), and account routes need a
 * browser session (403). Its refusals outside the ability are proven by a second sweep: every route with a key
 * is called again with a token holding another key of the same module, and must answer 403.
 */

export const ROLES = [
  'anonymous',
  'student',
  'no_module',
  'read_only',
  'writer',
  'branch_scoped',
  'admin',
  'no_role',
  'token',
] as const;
type Role = (typeof ROLES)[number];

interface Row {
  route: string;
  permission: string | null;
  /** request body; the text `{role}` inside a string becomes the caller's role name */
  body?: Record<string, unknown>;
  /** after this request the caller signs in again (the route ends the session) */
  relogin?: boolean;
  /** statuses in the order of the file's `roles`, e.g. "401 401 403 200 200 404 200 403 200" */
  expect: string;
  note?: string;
}

interface MatrixFile {
  $comment: string[];
  roles: string[];
  routes: Row[];
}

interface Answer {
  status: number;
  code: string | null;
}

const FILE = path.join(__dirname, 'matrix.json');
const PUBLIC_ACCESS = 'public';
/** the `token` caller's ability on a route without a key a role can hold (no route here asks for it) */
const TOKEN_FALLBACK = 'students.view';

let t: TestApp;
const clients = new Map<string, Client>();
const logins = new Map<string, { email: string; password: string; host?: string }>();
/** plain tokens of the token owner, by their one ability */
const tokens = new Map<string, string>();
let tokenOwnerId = 0;

function routeKey(r: RegisteredRoute): string {
  return `${r.method} ${r.path}`;
}

const sharedKey = (permission: string | null | undefined): permission is string =>
  Boolean(permission && PERMISSIONS.includes(permission));

/** The modules of a route's keys: its own, and those of any key that also opens it (a lookup's). */
function modulesOf(route: Pick<RegisteredRoute, 'permission' | 'anyPermission'>): string[] {
  const keys = route.anyPermission ?? (route.permission ? [route.permission] : []);
  return [...new Set(keys.map((key) => key.split('.')[0]))].sort();
}

/**
 * The caller for a role, and for `no_module` the one missing the route's module — every module whose keys open
 * the route (a lookup is open to who may view or edit a record referring to it).
 */
function callerKey(role: Role, route: Pick<RegisteredRoute, 'permission' | 'anyPermission'>): string {
  if (role !== 'no_module') return role;
  const permission = route.permission ?? null;
  if (!permission) return 'no_module:none';
  // an admin-only route (a key outside the shared list): staff holding every permission, not admin
  if (!PERMISSIONS.includes(permission)) return 'no_module:all';
  return `no_module:${modulesOf(route).join('+')}`;
}

/** The one ability of the `token` caller's token on a route: the route's own key, when a role can hold it. */
function tokenAbility(permission: string | null): string {
  return sharedKey(permission) ? permission : TOKEN_FALLBACK;
}

/** An ability a route does not ask for: another key of the same module that none of its keys names. */
function siblingAbility(route: RegisteredRoute): string {
  const keys = route.anyPermission ?? [route.permission!];
  const module = route.permission!.split('.')[0];
  return PERMISSIONS.find((p) => p.startsWith(`${module}.`) && !keys.includes(p))!;
}

/** The token owner's token holding exactly `ability`, stored as `POST /user/api-tokens` stores one. */
async function tokenFor(ability: string): Promise<string> {
  const known = tokens.get(ability);
  if (known) return known;
  const plain = `sa_${randomToken(32)}`;
  const now = toDbDateTime();
  await t.db('api_tokens').insert({
    user_id: tokenOwnerId,
    name: `matrix ${ability}`,
    token_hash: sha256(plain),
    abilities: JSON.stringify([ability]),
    created_at: now,
    updated_at: now,
  });
  tokens.set(ability, plain);
  return plain;
}

async function signIn(key: string, index: number): Promise<Client> {
  const login = logins.get(key);
  const c = new Client(t.app, login?.host);
  const ip = `10.77.0.${index + 1}`;
  const send = c.send.bind(c);
  const get = c.get.bind(c);
  c.send = (method, url, body) => send(method, url, body).set('X-Forwarded-For', ip);
  c.get = (url) => get(url).set('X-Forwarded-For', ip);
  if (login) {
    const res = await c.login(login.email, login.password);
    if (res.status !== 200)
      throw new Error(`${key} could not sign in: ${res.status} ${JSON.stringify(res.body)}`);
  } else {
    await c.refreshToken();
  }
  clients.set(key, c);
  return c;
}

async function fixture(): Promise<void> {
  const now = toDbDateTime();
  // record 1 of each: in the other branch, and still referenced
  const other = await createBranch(t.db, 'OTHER');
  const own = await createBranch(t.db, 'OWN');
  const roleOne = await createRole(t.db, ['students.view']);
  const userOne = await createUser(t.db, { email: 'record-one@example.com' });
  await t.db('users').where({ id: userOne.id }).update({ role_id: roleOne, branch_id: other });
  await t.db('students').insert({
    student_no: 'MATRIX-1',
    branch_id: other,
    consultant_user_id: userOne.id,
    created_at: now,
    updated_at: now,
  });
  // school 1 (agency-wide, so every branch sees it) with subject 1, still opened by an intake of school 2:
  // deletes answer 409, the school's child routes reach past the parent
  const stamp = { created_at: now, updated_at: now };
  const [schoolOne] = await t
    .db('schools')
    .insert({ code: 'MATRIX1', name_en: 'S1', name_zh: '一', ...stamp });
  const [schoolTwo] = await t
    .db('schools')
    .insert({ code: 'MATRIX2', name_en: 'S2', name_zh: '二', ...stamp });
  const [subjectOne] = await t
    .db('school_subjects')
    .insert({ school_id: schoolOne, code: 'M1', name_en: 'M1', name_zh: '一', ...stamp });
  const [intake] = await t
    .db('school_admissions')
    .insert({ school_id: schoolTwo, name_en: 'I', name_zh: '入', year: 2030, ...stamp });
  await t.db('admission_subjects').insert({ admission_id: intake, subject_id: subjectOne });
  // student 1's application 1 keeps student 1 from being deleted; its one checklist row (id 2: no row 1, whose
  // moves would change it between callers) is submitted, so application 1 cannot be deleted either
  const [applicationOne] = await t.db('student_applications').insert({
    student_id: 1,
    school_id: schoolTwo,
    admission_id: intake,
    subject_id: subjectOne,
    ...stamp,
  });
  await t.db('application_documents').insert({
    id: 2,
    application_id: applicationOne,
    name_en: 'Passport',
    name_zh: '護照',
    status: 'submitted',
    ...stamp,
  });
  // the catalogue: service category 1 keeps service 1, service 1 is in quotation item 2 (no item 1: its delete
  // would go through); special event 1 (agency-wide) keeps student 1's registration 2 (no registration 1, whose
  // moves would change it between callers), so deleting event 1 answers 409 and its child routes reach past it
  const [categoryOne] = await t.db('product_categories').insert({ name_en: 'C1', name_zh: '一', ...stamp });
  const [productOne] = await t.db('products').insert({
    category_id: categoryOne,
    code: 'P1',
    name_en: 'P1',
    name_zh: '一',
    price: 100,
    currency: 'HKD',
    ...stamp,
  });
  await t.db('quotation_items').insert({
    id: 2,
    code: 'Q2',
    name_en: 'Q2',
    name_zh: '二',
    product_id: productOne,
    unit_price: 100,
    currency: 'HKD',
    ...stamp,
  });
  const [eventOne] = await t.db('special_events').insert({
    event_type: 'seminar',
    title_en: 'E1',
    title_zh: '一',
    reg_start_date: '2030-01-01',
    reg_end_date: '2030-01-02',
    event_start: '2030-01-03 02:00:00',
    event_end: '2030-01-03 04:00:00',
    ...stamp,
  });
  await t.db('special_event_registrations').insert({
    id: 2,
    special_event_id: eventOne,
    student_id: 1,
    registered_at: now,
    status: 'registered',
    ...stamp,
  });
  const staff = async (
    key: string,
    permissions: string[] | null,
    scope: 'all' | 'branch',
    isAdmin = false,
  ) => {
    const u = await createUser(t.db, {
      email: `${key.replace(':', '-').replace('_', '-')}@matrix.example.com`,
      is_admin: isAdmin,
    });
    const roleId = permissions ? await createRole(t.db, permissions, scope) : null;
    await t.db('users').where({ id: u.id }).update({ role_id: roleId, branch_id: own });
    logins.set(key, { email: u.email, password: u.password });
    return u.id;
  };
  await staff(
    'read_only',
    PERMISSIONS.filter((p) => p.endsWith('.view')),
    'all',
  );
  await staff('writer', [...PERMISSIONS], 'all');
  await staff('branch_scoped', [...PERMISSIONS], 'branch');
  await staff('admin', [], 'branch', true);
  await staff('no_module:none', [], 'all');
  await staff('no_module:all', [...PERMISSIONS], 'all');
  for (const m of MODULES)
    await staff(
      `no_module:${m}`,
      PERMISSIONS.filter((p) => !p.startsWith(`${m}.`)),
      'all',
    );
  // routes open to several modules' keys (lookups): staff missing all of them
  for (const route of t.api.routes) {
    const modules = modulesOf(route);
    const key = `no_module:${modules.join('+')}`;
    if (modules.length > 1 && !logins.has(key))
      await staff(
        key,
        PERMISSIONS.filter((p) => !modules.includes(p.split('.')[0])),
        'all',
      );
  }
  // a staff account without a role (role_id NULL), in a branch
  await staff('no_role', null, 'branch');
  // the owner of the `token` caller's tokens: every permission, all branches, not an admin
  tokenOwnerId = await staff('token_owner', [...PERMISSIONS], 'all');
  await settingsRepository.set(t.db, SETTING_KEYS.feature('hasApiFeatures'), 'true');
  const student = await createStudent(t.db);
  logins.set('student', { email: student.email, password: student.password, host: PORTAL_HOST });
}

function fill(value: unknown, role: Role): unknown {
  if (typeof value === 'string') return value.replaceAll('{role}', role.replace('_', '-'));
  if (Array.isArray(value)) return value.map((v) => fill(v, role));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, role)]));
  }
  return value;
}

function answerOf(res: request.Response): Answer {
  const code = res.body && typeof res.body === 'object' && 'code' in res.body ? String(res.body.code) : null;
  return { status: res.status, code };
}

const urlOf = (route: RegisteredRoute) => `/api${route.path.replace(/:[A-Za-z_]+/g, '1')}`;

/** A bearer request: no cookie, no CSRF token. */
async function bearer(route: RegisteredRoute, body: object, token: string, index: number): Promise<Answer> {
  const agent = request(t.app);
  const req = agent[route.method](urlOf(route))
    .set('Host', STAFF_HOST)
    .set('X-Forwarded-For', `10.77.0.${index + 1}`)
    .set('Authorization', `Bearer ${token}`);
  return answerOf(await (route.method === 'get' ? req : req.send(body)));
}

async function call(route: RegisteredRoute, row: Row | undefined, role: Role): Promise<Answer> {
  const index = ROLES.indexOf(role);
  const body = (fill(row?.body ?? {}, role) as object) ?? {};
  if (role === 'token') {
    return bearer(route, body, await tokenFor(tokenAbility(route.permission ?? null)), index);
  }
  const key = callerKey(role, route);
  const c = clients.get(key) ?? (await signIn(key, index));
  const url = urlOf(route);
  const res = route.method === 'get' ? await c.get(url) : await c.send(route.method, url, body);
  if (row?.relogin || routeKey(route) === 'post /logout') await signIn(key, index);
  return answerOf(res);
}

/** Rules every row must keep, whatever the file says: each problem with the caller it concerns. */
function invariantProblems(route: RegisteredRoute, observed: Record<Role, Answer>): [Role, string][] {
  const problems: [Role, string][] = [];
  const key = routeKey(route);
  const status = (role: Role) => observed[role].status;
  const denied = (s: number) => s === 401 || s === 403;
  const flag = (role: Role, text: string) => problems.push([role, `${key}: ${text}`]);
  if (route.access === PUBLIC_ACCESS) return problems;
  if (status('anonymous') !== 401) flag('anonymous', `anonymous answered ${status('anonymous')}, not 401`);
  if (route.access === 'student') {
    // a staff account, with or without a token, is no portal student
    for (const role of ['no_role', 'token'] as const) {
      if (status(role) !== 401) flag(role, `${role} answered ${status(role)} on a student route, not 401`);
    }
    return problems;
  }
  const adminOnly = Boolean(route.permission && !PERMISSIONS.includes(route.permission));
  if (adminOnly) {
    for (const role of ['no_module', 'read_only', 'writer', 'branch_scoped', 'no_role', 'token'] as const) {
      if (status(role) !== 403) flag(role, `${role} answered ${status(role)} on an admin-only route`);
    }
    if (denied(status('admin'))) flag('admin', `admin was refused (${status('admin')})`);
    return problems;
  }
  if (route.access === 'staff') {
    if (status('student') !== 401) flag('student', `a student answered ${status('student')}, not 401`);
    for (const role of ['writer', 'admin'] as const) {
      if (denied(status(role))) flag(role, `${role} was refused (${status(role)})`);
    }
    if (status('branch_scoped') === 401) flag('branch_scoped', 'branch-scoped staff answered 401');
    // signed in without a role, or by a valid token: authenticated all the same
    for (const role of ['no_role', 'token'] as const) {
      if (status(role) === 401) flag(role, `${role} answered 401`);
    }
    // the token's owner holds what `writer` holds: the token answers the same, or is refused for being less —
    // by the access rules (its abilities are its power), or on an account route that needs a browser session
    const tok = observed.token;
    if (tok.status !== status('writer')) {
      const lessByRules = tok.status === 403 && tok.code === 'insufficient_rights';
      const sessionOnly = tok.status === 403 && tok.code === 'forbidden' && !route.permission;
      if (!lessByRules && !sessionOnly) {
        flag(
          'token',
          `token answered ${tok.status} ${tok.code ?? ''} where its owner's session answers ${status('writer')}`,
        );
      }
    }
  }
  if (route.permission) {
    if (status('no_module') !== 403) {
      flag('no_module', `staff without the module answered ${status('no_module')}, not 403`);
    }
    if (status('no_role') !== 403)
      flag('no_role', `staff without a role answered ${status('no_role')}, not 403`);
    const action = route.permission.split('.')[1];
    if (action === 'view' && denied(status('read_only'))) {
      flag('read_only', `read-only staff was refused a view route (${status('read_only')})`);
    }
    if (action !== 'view' && status('read_only') !== 403) {
      flag('read_only', `read-only staff answered ${status('read_only')} on a ${action} route, not 403`);
    }
  }
  return problems;
}

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: 'loopback' });
  await fixture();
});
afterAll(() => t.close());

it('answers every route × caller as the matrix says, and the matrix lists every route', async () => {
  const file: MatrixFile = JSON.parse(fs.readFileSync(FILE, 'utf8'));
  const fileRoles = file.roles;
  const rows = new Map(file.routes.map((r) => [r.route, r]));
  /** the file's statuses by caller; a caller the file does not list yet has none */
  const expected = (row: Row): Partial<Record<Role, number>> => {
    const statuses = row.expect.trim().split(/\s+/).map(Number);
    if (statuses.length !== fileRoles.length)
      throw new Error(`${row.route}: expect needs ${fileRoles.length} statuses`);
    return Object.fromEntries(fileRoles.map((role, i) => [role, statuses[i]])) as Partial<
      Record<Role, number>
    >;
  };
  const routes = t.api.routes;
  expect(routes.length).toBeGreaterThan(0);

  const mismatches: string[] = [];
  const rowProblems: string[] = [];
  const problems: string[] = [];
  const unlisted: string[] = [];
  const missing: Row[] = [];
  /** the (route, caller) pairs whose answer is not what the file and the rules expect */
  const unexpected = new Set<string>();
  const observedOf = new Map<string, Record<Role, Answer>>();
  let requests = 0;
  for (const route of routes) {
    const key = routeKey(route);
    const row = rows.get(key);
    const observed = {} as Record<Role, Answer>;
    for (const role of ROLES) {
      observed[role] = await call(route, row, role);
      requests++;
    }
    observedOf.set(key, observed);
    for (const [role, text] of invariantProblems(route, observed)) {
      problems.push(text);
      unexpected.add(`${key} as ${role}`);
    }
    if (!row) {
      missing.push({
        route: key,
        permission: route.permission ?? null,
        expect: ROLES.map((role) => observed[role].status).join(' '),
      });
      for (const role of ROLES) unexpected.add(`${key} as ${role}`);
      continue;
    }
    if (row.permission !== (route.permission ?? null)) {
      rowProblems.push(
        `${key}: the file says permission ${row.permission}, the route declares ${route.permission ?? null}`,
      );
    }
    const want = expected(row);
    for (const role of ROLES) {
      const got = observed[role].status;
      if (want[role] === undefined) {
        unlisted.push(`${key} as ${role}: not in the file, answered ${got}`);
        unexpected.add(`${key} as ${role}`);
      } else if (want[role] !== got) {
        mismatches.push(`${key} as ${role}: expected ${want[role]}, got ${got}`);
        unexpected.add(`${key} as ${role}`);
      }
    }
  }
  const registered = new Set(routes.map(routeKey));
  const stale = file.routes.filter((r) => !registered.has(r.route)).map((r) => r.route);

  // a token refuses every route outside its ability, even though its owner holds every permission
  const keyed = routes.filter((r) => sharedKey(r.permission));
  const notRefused: string[] = [];
  for (const route of keyed) {
    const row = rows.get(routeKey(route));
    const ability = siblingAbility(route);
    const answer = await bearer(
      route,
      (fill(row?.body ?? {}, 'token') as object) ?? {},
      await tokenFor(ability),
      ROLES.indexOf('token'),
    );
    if (answer.status !== 403)
      notRefused.push(`${routeKey(route)} with a ${ability} token: ${answer.status}, not 403`);
  }

  const newColumns = ROLES.filter((role) => !fileRoles.includes(role));
  if ((missing.length || newColumns.length) && process.env.AUTHZ_MATRIX_WRITE === '1') {
    // new routes get what the app answers now; so do the statuses of callers the file does not list yet
    for (const row of file.routes) {
      const observed = observedOf.get(row.route);
      if (!observed) continue;
      const want = expected(row);
      row.expect = ROLES.map((role) => want[role] ?? observed[role].status).join(' ');
    }
    file.roles = [...ROLES];
    file.routes.push(...missing);
    const lines = file.routes.map((r) => `    ${JSON.stringify(r)}`);
    fs.writeFileSync(
      FILE,
      `{\n  "$comment": ${JSON.stringify(file.$comment)},\n  "roles": ${JSON.stringify(file.roles)},\n  "routes": [\n${lines.join(',\n')}\n  ]\n}\n`,
    );
  }
  console.log(
    [
      `authorisation matrix: ${routes.length} routes × ${ROLES.length} callers = ${requests} requests, ${unexpected.size} unexpected answers`,
      `token without the route's ability: ${keyed.length} routes tried, ${notRefused.length} not refused`,
      ...(newColumns.length ? [`callers missing from matrix.json "roles": ${newColumns.join(', ')}`] : []),
      ...(stale.length ? [`rows for routes no longer registered (remove them): ${stale.join(', ')}`] : []),
      ...(missing.length
        ? [
            'routes missing from server/test/authz/matrix.json — check these rows (what the app answers now) and add them:',
            ...missing.map((m) => `  ${JSON.stringify(m)},`),
          ]
        : []),
      ...[...problems, ...rowProblems, ...mismatches].map((p) => `  ${p}`),
    ].join('\n'),
  );
  expect(file.roles).toEqual([...ROLES]);
  expect(problems).toEqual([]);
  expect(rowProblems).toEqual([]);
  expect(mismatches).toEqual([]);
  expect(unlisted).toEqual([]);
  expect(missing.map((m) => m.route)).toEqual([]);
  expect(notRefused).toEqual([]);
  expect(unexpected.size).toBe(0);
  expect(requests).toBe(routes.length * ROLES.length);
  expect(keyed.length).toBeGreaterThan(0);
  // every CRUD key of this modules is exercised by at least one route
  for (const m of ['users', 'roles', 'companies', 'branches'] as const) {
    for (const a of CRUD_ACTIONS) expect(routes.some((r) => r.permission === `${m}.${a}`)).toBe(true);
  }
}, 300_000);
