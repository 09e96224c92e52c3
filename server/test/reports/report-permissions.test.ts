/**
 * The reports' permission keys (decision 0019): one key per report group and the export, no view / create / update
 * / delete. The migration gives every role and API token that held `reports.view` the four group keys (it could
 * open every report before) and drops the keys that meant nothing; rolling back gives `reports.view` back to
 * whoever holds a group key.
 */
import { PERMISSIONS } from '../../../shared/permissions';
import { toDbDateTime } from '../../src/lib/clock';
import { down, up } from '../../../migrations/20261128000030_reports';
import { createTestApp, createUser, type TestApp } from '../harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const GROUPS = ['reports.students', 'reports.schools', 'reports.orders', 'reports.calendar'];

async function role(permissions: string[]): Promise<number> {
  const now = toDbDateTime();
  const [id] = await t.db('roles').insert({
    name: `reports-${Math.random().toString(36).slice(2, 10)}`,
    data_scope: 'all',
    permissions: JSON.stringify(permissions),
    created_at: now,
    updated_at: now,
  });
  return Number(id);
}

async function keysOf(id: number): Promise<string[]> {
  return JSON.parse((await t.db('roles').where({ id }).first('permissions')).permissions);
}

it('the reports module has a key per report group and the export, and no CRUD keys', () => {
  expect(PERMISSIONS.filter((p) => p.startsWith('reports.'))).toEqual([...GROUPS, 'reports.export']);
});

it('migrates roles and API tokens: reports.view becomes every group key in its place, keys that meant nothing go', async () => {
  // the database as it was before the migration: roles with the old keys
  await down(t.db);
  const viewer = await role(['students.view', 'reports.view']);
  const exporter = await role(['reports.view', 'reports.create', 'reports.export', 'orders.view']);
  const none = await role(['students.view']);
  const malformed = await role([]);
  await t.db('roles').where({ id: malformed }).update({ permissions: 'not json' });
  const user = await createUser(t.db);
  const now = toDbDateTime();
  const [tokenId] = await t.db('api_tokens').insert({
    user_id: user.id,
    name: 'reports token',
    token_hash: 'a'.repeat(64),
    abilities: JSON.stringify(['reports.view', 'students.view']),
    created_at: now,
    updated_at: now,
  });

  await up(t.db);
  expect(await keysOf(viewer)).toEqual(['students.view', ...GROUPS]);
  expect(await keysOf(exporter)).toEqual([...GROUPS, 'reports.export', 'orders.view']);
  expect(await keysOf(none)).toEqual(['students.view']);
  expect((await t.db('roles').where({ id: malformed }).first('permissions')).permissions).toBe('not json');
  const token = await t.db('api_tokens').where({ id: tokenId }).first('abilities');
  expect(JSON.parse(token.abilities)).toEqual([...GROUPS, 'students.view']);

  // rolled back: whoever holds a group key gets reports.view again, the group keys go
  await down(t.db);
  expect(await keysOf(viewer)).toEqual(['students.view', 'reports.view']);
  expect(await keysOf(exporter)).toEqual(['reports.view', 'reports.export', 'orders.view']);
  await up(t.db);
});
