/**
 * The resource machinery itself (issue 11): the unit of work, relations resolved per page, child resources
 * under a parent, states and actions (with a move's own effects, actions served by routes of their own, work
 * after a delete's commit), and record tabs, on test-only declarations over tables this file creates.
 */
import { declareResource } from '../../../shared/resources/declaration';
import type { RequestContext } from '../../src/http/context';
import { AppError } from '../../src/lib/app-error';
import { toDbDateTime } from '../../src/lib/clock';
import { definitionFromDeclaration } from '../../src/resources/declared';
import type { Row } from '../../src/resources/resource';
import { registerChildResource, registerResource } from '../../src/resources/resource.routes';
import { createResourceService, type ResourceService } from '../../src/resources/resource.service';
import { unitOfWork } from '../../src/resources/unit-of-work';
import {
  createBranch,
  createTestApp,
  createUser,
  signedInAdmin,
  type Client,
  type TestApp,
} from '../harness';
import { signIn } from './helpers';

const parentDecl = declareResource({
  name: 'zt_parent',
  path: '/zt-parents',
  table: 'zt_parents',
  module: 'schools',
  fields: {
    name: { type: 'text', max: 60, required: true, searchable: 'name', sortable: true, export: false },
    branch_id: { type: 'integer', required: true, export: false },
    category_id: { type: 'lookup', resource: 'student_category', export: false },
    second_category_id: { type: 'lookup', resource: 'student_category', export: false },
    state: { type: 'text', max: 1, readOnly: true, export: false },
  },
  display: { en: ['name'], zh_HK: ['name'] },
  defaultSort: 'name',
  unique: [['name']],
  branchColumn: 'branch_id',
  // like a document checklist: pending → uploaded → submitted, and back
  states: {
    column: 'state',
    values: ['P', 'U', 'S'],
    initial: 'P',
    actions: {
      upload: { from: ['P', 'U'], to: 'U' },
      submit: { from: ['U'], to: 'S', permission: 'receipts.approve' },
      unsubmit: { from: ['S'], to: 'U' },
    },
  },
  tabs: ['record', 'children'],
});

const childDecl = declareResource({
  name: 'zt_child',
  path: '/zt-children',
  table: 'zt_children',
  module: 'schools',
  fields: {
    parent_id: { type: 'integer', required: true, export: false },
    name: { type: 'text', max: 60, required: true, sortable: true, export: false },
  },
  display: { en: ['name'], zh_HK: ['name'] },
  defaultSort: 'name',
  unique: [['name']],
  parent: { resource: 'zt_parent', column: 'parent_id', segment: 'children' },
});

const parentDef = definitionFromDeclaration(parentDecl, {
  guards: {
    // a move the resource's own rule refuses
    unsubmit: async (_db, row) => {
      if (String(row.name).startsWith('locked')) throw new AppError('business_rule');
    },
  },
  tabData: {
    children: async (db, row) => {
      const found = await db('zt_children').where({ parent_id: row.id }).count({ n: '*' }).first();
      return { children_count: Number(found?.n ?? 0) };
    },
  },
});
const childDef = definitionFromDeclaration(childDecl);

let t: TestApp;
let admin: Client;
let adminId: number;
let branchA: number;
let branchB: number;
let parents: ResourceService;
let categories: number[];

function contextFor(actorId: number): RequestContext {
  return {
    actor: { type: 'user', id: actorId },
    branchScope: null,
    ip: null,
    userAgent: null,
    requestId: null,
    access: {
      userId: actorId,
      isAdmin: true,
      permissions: [],
      dataScope: 'all',
      branchId: null,
      roleId: null,
      recentPasswordConfirmation: false,
      viaToken: false,
    },
    language: 'en',
  };
}

beforeAll(async () => {
  t = await createTestApp();
  const timestamps = (table: import('knex').Knex.CreateTableBuilder) => {
    table.dateTime('created_at').notNullable();
    table.dateTime('updated_at').notNullable();
    table.integer('created_by').unsigned().nullable();
    table.integer('updated_by').unsigned().nullable();
  };
  await t.db.schema.createTable('zt_parents', (table) => {
    table.increments('id');
    table.string('name', 60).notNullable().unique();
    table.integer('branch_id').unsigned().notNullable();
    table.integer('category_id').unsigned().nullable();
    table.integer('second_category_id').unsigned().nullable();
    table.string('state', 1).notNullable();
    timestamps(table);
  });
  await t.db.schema.createTable('zt_children', (table) => {
    table.increments('id');
    table.integer('parent_id').unsigned().notNullable().references('id').inTable('zt_parents');
    table.string('name', 60).notNullable().unique();
    timestamps(table);
  });
  parents = registerResource(t.api, t.db, parentDef);
  registerChildResource(t.api, t.db, parents, childDef);
  admin = await signedInAdmin(t);
  adminId = (await createUser(t.db, { is_admin: true })).id;
  branchA = await createBranch(t.db);
  branchB = await createBranch(t.db);
  const now = toDbDateTime();
  categories = [];
  for (let i = 0; i < 4; i++) {
    const [id] = await t.db('student_categories').insert({
      name_en: `Category ${i}`,
      name_zh: `類別 ${i}`,
      created_at: now,
      updated_at: now,
    });
    categories.push(Number(id));
  }
});
afterAll(() => t.close());

let n = 0;
const unique = (prefix: string) => `${prefix}-${++n}`;

describe('unit of work', () => {
  it('commits a parent and its child together, each with its audit row', async () => {
    const ctx = contextFor(adminId);
    const ran: string[] = [];
    const { parent, child } = await unitOfWork(t.db, async (uow) => {
      const parent = await parents.create({ name: unique('p'), branch_id: branchA }, ctx, uow);
      const children = createResourceService(t.db, { ...childDef, fixed: { parent_id: parent.id } });
      const child = await children.create({ name: unique('c') }, ctx, uow);
      uow.afterCommit(async () => {
        ran.push('after');
      });
      return { parent, child };
    });
    expect(ran).toEqual(['after']);
    expect(await t.db('zt_parents').where({ id: parent.id }).first()).toBeDefined();
    expect((await t.db('zt_children').where({ id: child.id }).first())?.parent_id).toBe(parent.id);
    expect(
      await t.db('audit_logs').where({ entity: 'zt_parent', entity_id: parent.id }).pluck('action'),
    ).toEqual(['create']);
    expect(
      await t.db('audit_logs').where({ entity: 'zt_child', entity_id: child.id }).pluck('action'),
    ).toEqual(['create']);
  });

  it('rolls a parent back with its audit row when the child fails, and runs nothing after the commit', async () => {
    const ctx = contextFor(adminId);
    const name = unique('rolled');
    const ran: string[] = [];
    let parentId: number | null = null;
    const failure = unitOfWork(t.db, async (uow) => {
      const parent = await parents.create({ name, branch_id: branchA }, ctx, uow);
      parentId = Number(parent.id);
      uow.afterCommit(async () => {
        ran.push('after');
      });
      // inside the transaction the parent and its audit row exist
      expect(await uow.trx('zt_parents').where({ id: parent.id }).first()).toBeDefined();
      expect(
        await uow.trx('audit_logs').where({ entity: 'zt_parent', entity_id: parent.id }).first(),
      ).toBeDefined();
      const children = createResourceService(t.db, { ...childDef, fixed: { parent_id: parent.id } });
      const twin = unique('twin');
      await children.create({ name: twin }, ctx, uow);
      await children.create({ name: twin }, ctx, uow); // a duplicate within the parent: refused
    });
    await expect(failure).rejects.toMatchObject({ code: 'duplicate' });
    expect(parentId).not.toBeNull();
    expect(await t.db('zt_parents').where({ name }).first()).toBeUndefined();
    expect(await t.db('zt_children').where({ parent_id: parentId }).first()).toBeUndefined();
    expect(
      await t.db('audit_logs').where({ entity: 'zt_parent', entity_id: parentId }).first(),
    ).toBeUndefined();
    expect(ran).toEqual([]);
  });

  it('rolls back a write refused by the database itself (not only by the service’s checks)', async () => {
    const ctx = contextFor(adminId);
    const name = unique('dbfail');
    const failure = unitOfWork(t.db, async (uow) => {
      await parents.create({ name, branch_id: branchA }, ctx, uow);
      await uow.trx('zt_children').insert({ parent_id: 999_999, name: unique('orphan') });
      // SQLite checks the foreign key at once too (PRAGMA foreign_keys); a NOT NULL violation otherwise
      await uow.trx('zt_children').insert({ parent_id: null, name: unique('orphan') });
    });
    await expect(failure).rejects.toBeDefined();
    expect(await t.db('zt_parents').where({ name }).first()).toBeUndefined();
  });
});

describe('relations', () => {
  beforeAll(async () => {
    const now = toDbDateTime();
    const rows = Array.from({ length: 24 }, (_, i) => ({
      name: `rel-${String(i).padStart(2, '0')}`,
      branch_id: branchA,
      category_id: categories[i % 4],
      second_category_id: i % 3 === 0 ? null : categories[(i + 1) % 4],
      state: 'P',
      created_at: now,
      updated_at: now,
    }));
    await t.db('zt_parents').insert(rows);
  });

  async function queriesOf(
    url: string,
    client: Client = admin,
  ): Promise<{ count: number; body: { items: Row[] } }> {
    let count = 0;
    const onQuery = () => {
      count++;
    };
    t.db.on('query', onQuery);
    try {
      const res = await client.get(url).expect(200);
      return { count, body: res.body };
    } finally {
      t.db.removeListener('query', onQuery);
    }
  }

  it('names every lookup of a page with one query per relation, whatever the page size', async () => {
    await queriesOf('/api/zt-parents?q=rel-&per_page=2'); // what is cached once (the count, the session) is
    const small = await queriesOf('/api/zt-parents?q=rel-&per_page=2');
    const large = await queriesOf('/api/zt-parents?q=rel-&per_page=20');
    expect(large.body.items).toHaveLength(20);
    // the names not kept yet (names-cache.ts): at most one query for each of the two relations
    expect(large.count).toBeLessThanOrEqual(small.count + 2);
    expect(large.count).toBeLessThan(20);
    // then kept: the large page costs what the small one does
    expect((await queriesOf('/api/zt-parents?q=rel-&per_page=20')).count).toBe(small.count);
    for (const item of large.body.items) {
      const index = Number(String(item.name).slice(4));
      expect(item.category_name).toBe(`Category ${index % 4}`);
      expect(item.second_category_name).toBe(index % 3 === 0 ? null : `Category ${(index + 1) % 4}`);
    }
  });

  it('names them in the caller’s language, and null for a reference to a missing record', async () => {
    const zh = await admin.get('/api/zt-parents?q=rel-00').set('Accept-Language', 'zh-HK').expect(200);
    expect(zh.body.items[0].category_name).toBe('類別 0');
    await t.db('zt_parents').where({ name: 'rel-01' }).update({ second_category_id: 999_999 });
    const missing = await admin.get('/api/zt-parents?q=rel-01').expect(200);
    expect(missing.body.items[0].second_category_name).toBeNull();
    expect(missing.body.items[0].category_name).toBe('Category 1');
  });
});

describe('child resources (/api/zt-parents/:id/children)', () => {
  let p1: Row;
  let p2: Row;
  let p3: Row;
  let childOfP2: Row;

  beforeAll(async () => {
    p1 = (await admin.post('/api/zt-parents', { name: unique('p1'), branch_id: branchA }).expect(201)).body;
    p2 = (await admin.post('/api/zt-parents', { name: unique('p2'), branch_id: branchA }).expect(201)).body;
    p3 = (await admin.post('/api/zt-parents', { name: unique('p3'), branch_id: branchB }).expect(201)).body;
    childOfP2 = (await admin.post(`/api/zt-parents/${p2.id}/children`, { name: unique('c2') }).expect(201))
      .body;
  });

  it('lists, creates, updates and deletes inside one parent', async () => {
    const base = `/api/zt-parents/${p1.id}/children`;
    const a = await admin.post(base, { name: unique('ca') }).expect(201);
    expect(a.body.parent_id).toBe(p1.id);
    const b = await admin.post(base, { name: unique('cb') }).expect(201);
    const list = await admin.get(base).expect(200);
    expect(list.body.total).toBe(2);
    expect(list.body.items.map((r: Row) => r.id).sort()).toEqual([a.body.id, b.body.id].sort());
    const renamed = unique('renamed');
    const put = await admin.put(`${base}/${a.body.id}`, { name: renamed }).expect(200);
    expect(put.body).toMatchObject({ name: renamed, parent_id: p1.id });
    await admin.get(`${base}/${a.body.id}`).expect(200);
    await admin.delete(`${base}/${b.body.id}`).expect(204);
    expect(await t.db('zt_children').where({ id: b.body.id }).first()).toBeUndefined();
    // the parent comes from the path, never from the body
    const moved = await admin.post(base, { name: unique('cx'), parent_id: p2.id });
    expect(moved.status).toBe(422);
    expect(moved.body.errors.parent_id).toBeDefined();
  });

  it('answers 404 for a child of another parent through this parent, and for an unknown parent', async () => {
    const base = `/api/zt-parents/${p1.id}/children`;
    await admin.get(`${base}/${childOfP2.id}`).expect(404);
    await admin.put(`${base}/${childOfP2.id}`, { name: unique('stolen') }).expect(404);
    await admin.delete(`${base}/${childOfP2.id}`).expect(404);
    expect((await t.db('zt_children').where({ id: childOfP2.id }).first())?.name).toBe(childOfP2.name);
    await admin.get(`/api/zt-parents/${p2.id}/children/${childOfP2.id}`).expect(200);
    await admin.get('/api/zt-parents/999999/children').expect(404);
    await admin.post('/api/zt-parents/999999/children', { name: unique('lost') }).expect(404);
  });

  it('answers 404 on every child route of a parent outside the caller’s branch scope', async () => {
    const permissions = ['view', 'create', 'update', 'delete'].map((a) => `schools.${a}`);
    const scoped = await signIn(t, permissions, { branchId: branchA });
    const child = (await admin.post(`/api/zt-parents/${p3.id}/children`, { name: unique('c3') }).expect(201))
      .body;
    const base = `/api/zt-parents/${p3.id}/children`;
    await scoped.get(base).expect(404);
    await scoped.get(`${base}/create`).expect(404);
    await scoped.get(`${base}/${child.id}`).expect(404);
    await scoped.post(base, { name: unique('in') }).expect(404);
    await scoped.put(`${base}/${child.id}`, { name: unique('in') }).expect(404);
    await scoped.delete(`${base}/${child.id}`).expect(404);
    expect(await t.db('zt_children').where({ parent_id: p3.id }).count({ n: '*' }).first()).toEqual({ n: 1 });
    // its own branch's parent is open to it
    await scoped.get(`/api/zt-parents/${p1.id}/children`).expect(200);
    await scoped.post(`/api/zt-parents/${p1.id}/children`, { name: unique('mine') }).expect(201);
  });
});

describe('states and actions', () => {
  let updater: Client;
  let approver: Client;

  beforeAll(async () => {
    updater = await signIn(t, ['schools.view', 'schools.update']);
    approver = await signIn(t, ['schools.view', 'schools.update', 'receipts.approve']);
  });

  const create = async (name = unique('doc')) =>
    (await admin.post('/api/zt-parents', { name, branch_id: branchA }).expect(201)).body as Row;

  it('starts in the initial state and moves along the declared actions, each audited by its name', async () => {
    const doc = await create();
    expect(doc.state).toBe('P');
    expect(doc.allowed_actions).toEqual(['update', 'delete', 'upload']);
    const uploaded = await admin.post(`/api/zt-parents/${doc.id}/upload`).expect(200);
    expect(uploaded.body).toMatchObject({
      state: 'U',
      allowed_actions: ['update', 'delete', 'upload', 'submit'],
    });
    const submitted = await approver.post(`/api/zt-parents/${doc.id}/submit`).expect(200);
    expect(submitted.body).toMatchObject({ state: 'S', allowed_actions: ['update', 'unsubmit'] });
    const back = await updater.post(`/api/zt-parents/${doc.id}/unsubmit`).expect(200);
    expect(back.body.state).toBe('U');
    const actions = await t
      .db('audit_logs')
      .where({ entity: 'zt_parent', entity_id: doc.id })
      .orderBy('id')
      .pluck('action');
    expect(actions).toEqual(['create', 'upload', 'submit', 'unsubmit']);
    expect((await t.db('zt_parents').where({ id: doc.id }).first()).state).toBe('U');
  });

  it('refuses a move from another state with 409 conflict, and writes nothing', async () => {
    const doc = await create();
    const res = await admin.post(`/api/zt-parents/${doc.id}/submit`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
    await admin.post(`/api/zt-parents/${doc.id}/unsubmit`).expect(409);
    expect((await t.db('zt_parents').where({ id: doc.id }).first()).state).toBe('P');
    expect(
      await t.db('audit_logs').where({ entity: 'zt_parent', entity_id: doc.id }).pluck('action'),
    ).toEqual(['create']);
    await admin.post(`/api/zt-parents/${doc.id}/nonsense`).expect(404);
    // the state is no field of the body
    expect((await admin.put(`/api/zt-parents/${doc.id}`, { state: 'S' })).status).toBe(422);
  });

  it('refuses a move without its permission with 403', async () => {
    const doc = await create();
    await admin.post(`/api/zt-parents/${doc.id}/upload`).expect(200);
    const res = await updater.post(`/api/zt-parents/${doc.id}/submit`);
    expect(res.status).toBe(403);
    expect((await t.db('zt_parents').where({ id: doc.id }).first()).state).toBe('U');
    const viewer = await signIn(t, ['schools.view']);
    await viewer.post(`/api/zt-parents/${doc.id}/upload`).expect(403);
  });

  it('lists exactly the moves possible now for this caller in allowed_actions', async () => {
    const doc = await create();
    const seen = async (client: Client) => (await client.get(`/api/zt-parents/${doc.id}`).expect(200)).body;
    expect((await seen(updater)).allowed_actions).toEqual(['update', 'upload']);
    await admin.post(`/api/zt-parents/${doc.id}/upload`).expect(200);
    expect((await seen(updater)).allowed_actions).toEqual(['update', 'upload']);
    expect((await seen(approver)).allowed_actions).toEqual(['update', 'upload', 'submit']);
    await approver.post(`/api/zt-parents/${doc.id}/submit`).expect(200);
    expect((await seen(updater)).allowed_actions).toEqual(['update', 'unsubmit']);
    const viewer = await signIn(t, ['schools.view']);
    expect((await seen(viewer)).allowed_actions).toEqual([]);
    const listed = await updater.get(`/api/zt-parents?q=${doc.name}`).expect(200);
    expect(listed.body.items[0].allowed_actions).toEqual(['update', 'unsubmit']);
  });

  it('lets the resource’s guard refuse a move the states allow', async () => {
    const doc = await create(unique('locked'));
    await admin.post(`/api/zt-parents/${doc.id}/upload`).expect(200);
    await admin.post(`/api/zt-parents/${doc.id}/submit`).expect(200);
    const res = await admin.post(`/api/zt-parents/${doc.id}/unsubmit`);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('business_rule');
    expect((await t.db('zt_parents').where({ id: doc.id }).first()).state).toBe('S');
    expect(
      await t.db('audit_logs').where({ entity: 'zt_parent', entity_id: doc.id, action: 'unsubmit' }).first(),
    ).toBeUndefined();
  });

  it('moves a record outside the caller’s branch scope for nobody (404)', async () => {
    const doc = (await admin.post('/api/zt-parents', { name: unique('far'), branch_id: branchB }).expect(201))
      .body;
    const scoped = await signIn(t, ['schools.view', 'schools.update'], { branchId: branchA });
    await scoped.post(`/api/zt-parents/${doc.id}/upload`).expect(404);
    expect((await t.db('zt_parents').where({ id: doc.id }).first()).state).toBe('P');
  });
});

describe('record tabs (?tab=)', () => {
  it('accepts a declared tab (with what the rules add for it) and refuses an unknown one with 422', async () => {
    const doc = (
      await admin.post('/api/zt-parents', { name: unique('tabs'), branch_id: branchA }).expect(201)
    ).body;
    await admin.post(`/api/zt-parents/${doc.id}/children`, { name: unique('tc') }).expect(201);
    const plain = await admin.get(`/api/zt-parents/${doc.id}`).expect(200);
    expect(plain.body.children_count).toBeUndefined();
    const record = await admin.get(`/api/zt-parents/${doc.id}?tab=record`).expect(200);
    expect(record.body.name).toBe(doc.name);
    const children = await admin.get(`/api/zt-parents/${doc.id}?tab=children`).expect(200);
    expect(children.body).toMatchObject({ id: doc.id, children_count: 1 });
    const unknown = await admin.get(`/api/zt-parents/${doc.id}?tab=nonsense`);
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.tab).toBeDefined();
    // a resource without tabs takes none
    const child = await admin.get(`/api/zt-parents/${doc.id}/children?per_page=1`).expect(200);
    const childId = child.body.items[0].id;
    expect((await admin.get(`/api/zt-parents/${doc.id}/children/${childId}?tab=record`)).status).toBe(422);
  });
});

describe('a move’s own effects, actions served by routes of their own, and work after a delete', () => {
  const stampedDecl = declareResource({
    name: 'zt_stamped',
    path: '/zt-stamped',
    table: 'zt_stamped',
    module: 'schools',
    fields: {
      name: { type: 'text', max: 60, required: true, sortable: true, export: false },
      note: { type: 'text', max: 60, readOnly: true, export: false },
    },
    display: { en: ['name'], zh_HK: ['name'] },
    defaultSort: 'name',
    states: {
      column: 'state',
      values: ['open', 'done'],
      initial: 'open',
      actions: { finish: { from: ['open'], to: 'done' }, reopen: { from: ['done'], to: 'open' } },
    },
  });
  /** what ran after a commit, in order */
  const committed: string[] = [];
  const stampedDef = definitionFromDeclaration(stampedDecl, {
    ownActions: {
      attach_note: { from: ['open'] },
      approve_note: { from: ['open', 'done'], permission: 'receipts.approve' },
    },
    async moveEffects(_db, action, row) {
      if (action === 'reopen') return { set: { note: null } };
      return {
        set: { note: `finished from ${String(row.state)}` },
        afterCommit: async () => {
          committed.push(`finish ${Number(row.id)}`);
        },
      };
    },
    async afterWrite(_db, row) {
      // a later step of the same move failing: everything rolls back, nothing runs after
      if (String(row.name).startsWith('fail') && row.state === 'done') throw new AppError('business_rule');
    },
    async beforeDelete(_db, row) {
      if (String(row.name).startsWith('keep')) throw new AppError('conflict');
      return async () => {
        committed.push(`deleted ${Number(row.id)}`);
      };
    },
  });
  let updater: Client;
  let approver: Client;

  beforeAll(async () => {
    await t.db.schema.createTable('zt_stamped', (table) => {
      table.increments('id');
      table.string('name', 60).notNullable();
      table.string('note', 60).nullable();
      table.string('state', 10).notNullable();
      table.dateTime('created_at').notNullable();
      table.dateTime('updated_at').notNullable();
      table.integer('created_by').unsigned().nullable();
      table.integer('updated_by').unsigned().nullable();
    });
    registerResource(t.api, t.db, stampedDef);
    updater = await signIn(t, ['schools.view', 'schools.update']);
    approver = await signIn(t, ['schools.view', 'schools.update', 'receipts.approve']);
  });

  const create = async (name = unique('st')) =>
    (await admin.post('/api/zt-stamped', { name }).expect(201)).body as Row;

  it('writes the columns a move’s effects set with its state, shows and audits them, and runs its after-commit work', async () => {
    const row = await create();
    committed.length = 0;
    const done = await admin.post(`/api/zt-stamped/${row.id}/finish`).expect(200);
    expect(done.body).toMatchObject({ state: 'done', note: 'finished from open' });
    expect(committed).toEqual([`finish ${row.id}`]);
    const audit = await t
      .db('audit_logs')
      .where({ entity: 'zt_stamped', entity_id: row.id, action: 'finish' })
      .first();
    expect(JSON.parse(String(audit.changes)).after).toMatchObject({
      state: 'done',
      note: 'finished from open',
    });
    const reopened = await admin.post(`/api/zt-stamped/${row.id}/reopen`).expect(200);
    expect(reopened.body).toMatchObject({ state: 'open', note: null });
  });

  it('rolls the effects back with a move that fails later, and runs nothing after', async () => {
    const row = await create(unique('fail'));
    committed.length = 0;
    expect((await admin.post(`/api/zt-stamped/${row.id}/finish`)).status).toBe(422);
    expect(await t.db('zt_stamped').where({ id: row.id }).first()).toMatchObject({
      state: 'open',
      note: null,
    });
    expect(committed).toEqual([]);
  });

  it('lists the actions served by routes of their own in allowed_actions, as the state and the caller’s keys allow', async () => {
    const row = await create();
    const seen = async (client: Client) =>
      (await client.get(`/api/zt-stamped/${row.id}`).expect(200)).body.allowed_actions;
    expect(await seen(updater)).toEqual(['update', 'finish', 'attach_note']);
    expect(await seen(approver)).toEqual(['update', 'finish', 'attach_note', 'approve_note']);
    expect(await seen(await signIn(t, ['schools.view']))).toEqual([]);
    await admin.post(`/api/zt-stamped/${row.id}/finish`).expect(200);
    expect(await seen(approver)).toEqual(['update', 'reopen', 'approve_note']);
    // no route of the machinery's serves them
    expect((await admin.post(`/api/zt-stamped/${row.id}/attach_note`)).status).toBe(404);
  });

  it('runs what a delete’s rules answer once the delete has committed, never for a refused one', async () => {
    const kept = await create(unique('keep'));
    const gone = await create();
    committed.length = 0;
    expect((await admin.delete(`/api/zt-stamped/${kept.id}`)).status).toBe(409);
    expect(committed).toEqual([]);
    await admin.delete(`/api/zt-stamped/${gone.id}`).expect(204);
    expect(committed).toEqual([`deleted ${gone.id}`]);
    expect(await t.db('zt_stamped').where({ id: gone.id }).first()).toBeUndefined();
  });
});
