import { toDbDateTime } from '../../src/lib/clock';
import {
  SEEDED_ROLE_DESCRIPTIONS as MIGRATED,
  describeSeededRoles,
} from '../../../migrations/20261128000040_role_descriptions';
import { SEEDED_ROLE_DESCRIPTIONS } from '../../../shared/resources/roles';
import { createTestApp, signedInAdmin, type TestApp } from '../harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/**
 * Issue 31 §4: the seeded roles' descriptions were English only ("Every module, every branch" on zh_HK screens).
 * A role has a Chinese description too; the install's roles get both, and an existing install's seeded roles get
 * the Chinese from the migration while their English description is still the seeded one.
 */
describe('role descriptions in both languages', () => {
  it('the migration gives the seeds’ own descriptions', () => {
    expect(MIGRATED).toEqual(SEEDED_ROLE_DESCRIPTIONS);
  });

  it("gives an agency's seeded roles the Chinese description, leaving edited and own roles as they are", async () => {
    const now = toDbDateTime();
    const row = (name: string, description: string | null, descriptionZh: string | null = null) => ({
      name,
      description,
      description_zh: descriptionZh,
      data_scope: 'all',
      permissions: '[]',
      created_at: now,
      updated_at: now,
    });
    await t
      .db('roles')
      .insert([
        row('Administrator', SEEDED_ROLE_DESCRIPTIONS.Administrator.en),
        row('Consultant', 'Our own words'),
        row('Sales', 'Sells'),
      ]);
    await describeSeededRoles(t.db);
    const described = Object.fromEntries(
      (await t.db('roles').whereIn('name', ['Administrator', 'Consultant', 'Sales'])).map((r) => [
        r.name,
        r.description_zh,
      ]),
    );
    console.log(`seeded role descriptions: ${JSON.stringify(described)}`);
    expect(described).toEqual({ Administrator: '所有模組，所有分行', Consultant: null, Sales: null });
  });

  it('a role is written and read with its Chinese description', async () => {
    const admin = await signedInAdmin(t);
    const created = await admin
      .post('/api/roles', {
        name: 'Intern',
        description: 'Reads students',
        description_zh: '查閱學生資料',
        data_scope: 'branch',
        permissions: [],
      })
      .expect(201);
    const read = await admin.get(`/api/roles/${created.body.id}`).expect(200);
    expect(read.body).toMatchObject({ description: 'Reads students', description_zh: '查閱學生資料' });
  });
});
