import { z } from 'zod';
import type { ResourceDefinition } from '../src/resources/resource';
import { registerResource } from '../src/resources/resource.routes';
import { toDbDateTime } from '../src/lib/clock';
import { Client, createBranch, createRole, createTestApp, createUser, type TestApp } from './harness';

/**
 * The generic machinery's branch scope, proven on a resource declared here over the students table (the
 * students screens arrive with their own issue and declare the same column).
 */
const scoped: ResourceDefinition = {
  name: 'scoped_student',
  path: '/__test/scoped-students',
  table: 'students',
  module: 'students',
  branchColumn: 'branch_id',
  schemas: {
    create: z.strictObject({ student_no: z.string(), branch_id: z.number().int() }),
    update: z.strictObject({ remark: z.string().optional(), branch_id: z.number().int().optional() }),
  },
  searchable: ['student_no'],
  sortable: ['student_no'],
  defaultSort: 'student_no',
};

let t: TestApp;
let mine: number;
let theirs: number;
let theirStudent: number;
let consultant: Client;
let admin: Client;

beforeAll(async () => {
  t = await createTestApp();
  registerResource(t.api, t.db, scoped);
  mine = await createBranch(t.db, 'MINE');
  theirs = await createBranch(t.db, 'THEIRS');
  const now = toDbDateTime();
  for (const [no, branch] of [
    ['M-1', mine],
    ['M-2', mine],
    ['T-1', theirs],
  ] as const) {
    await t.db('students').insert({ student_no: no, branch_id: branch, created_at: now, updated_at: now });
  }
  theirStudent = (await t.db('students').where({ student_no: 'T-1' }).first()).id;

  const perms = ['students.view', 'students.create', 'students.update', 'students.delete'];
  const user = await createUser(t.db, { permissions: perms });
  await t.db('roles').where({ id: user.roleId }).update({ data_scope: 'branch' });
  await t.db('users').where({ id: user.id }).update({ branch_id: mine });
  consultant = new Client(t.app);
  await consultant.login(user.email, user.password);

  const all = await createUser(t.db, { permissions: perms });
  await t.db('roles').where({ id: all.roleId }).update({ data_scope: 'all' });
  admin = new Client(t.app);
  await admin.login(all.email, all.password);
  expect(await createRole(t.db, [])).toBeGreaterThan(0);
});
afterAll(() => t.close());

describe('branch scope (quality §15)', () => {
  it('lists only the own branch’s rows for a branch-scoped role, every row for an all-branches role', async () => {
    const own = await consultant.get('/api/__test/scoped-students').expect(200);
    expect(own.body.items.map((s: { student_no: string }) => s.student_no)).toEqual(['M-1', 'M-2']);
    expect(own.body.total).toBe(2);
    const search = await consultant.get('/api/__test/scoped-students?q=T-').expect(200);
    expect(search.body.total).toBe(0);
    const every = await admin.get('/api/__test/scoped-students').expect(200);
    expect(every.body.total).toBe(3);
  });

  it('answers 404 for another branch’s id in the URL, for read, update and delete, and changes nothing', async () => {
    expect((await consultant.get(`/api/__test/scoped-students/${theirStudent}`)).status).toBe(404);
    expect(
      (await consultant.put(`/api/__test/scoped-students/${theirStudent}`, { remark: 'x' })).status,
    ).toBe(404);
    expect((await consultant.delete(`/api/__test/scoped-students/${theirStudent}`)).status).toBe(404);
    const row = await t.db('students').where({ id: theirStudent }).first();
    expect(row.remark).toBeNull();
  });

  it('answers 404 for another branch’s id in the body, on create and on update', async () => {
    const created = await consultant.post('/api/__test/scoped-students', {
      student_no: 'X-1',
      branch_id: theirs,
    });
    expect(created.status).toBe(404);
    expect(await t.db('students').where({ student_no: 'X-1' }).first()).toBeUndefined();
    const own = (await consultant.get('/api/__test/scoped-students').expect(200)).body.items[0];
    const moved = await consultant.put(`/api/__test/scoped-students/${own.id}`, { branch_id: theirs });
    expect(moved.status).toBe(404);
    expect((await t.db('students').where({ id: own.id }).first()).branch_id).toBe(mine);
    await consultant.post('/api/__test/scoped-students', { student_no: 'M-3', branch_id: mine }).expect(201);
  });
});
