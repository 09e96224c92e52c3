import i18next from 'i18next';
import { initI18n } from '../../i18n/i18n';
import { auditConfig } from '../settings/audit/audit-config';
import { branchesConfig } from './branches-config';
import { rolesConfig } from './roles-config';
import { usersConfig } from './users-config';

/** The settings screens' configs, derived from their declarations plus what is each screen's own. */
describe('settings configs from the declarations', () => {
  beforeEach(() => initI18n('zh_HK'));
  const t = i18next.t.bind(i18next) as (key: string) => string;
  const helpers = { t, language: 'zh_HK' };

  it('pick and show a text field’s declared values by their labels (a role’s data scope)', () => {
    const field = rolesConfig.form!.fields.find((f) => f.name === 'data_scope')!;
    expect(field.input.type).toBe('select');
    const options = field.input.type === 'select' ? field.input.options({}, 'zh_HK') : [];
    expect(options).toEqual([
      { value: 'all', label: '所有分行' },
      { value: 'branch', label: '只限所屬分行' },
    ]);
    const column = rolesConfig.columns.find((c) => c.key === 'data_scope')!;
    expect(column.render!({ id: 1, data_scope: 'all' }, helpers)).toBe('所有分行');
    // the permissions are the roles' own: a count column and the grid
    expect(rolesConfig.columns.map((c) => c.key)).toContain('permissions');
    expect(rolesConfig.form!.fields.map((f) => f.name)).toContain('permissions');
  });

  it('shows a role’s description in the reader’s language (issue 31 §4), the other where it has one only', () => {
    const column = rolesConfig.columns.find((c) => c.key === 'description')!;
    const seeded = { id: 1, description: 'Every module, every branch', description_zh: '所有模組，所有分行' };
    expect(column.render!(seeded, helpers)).toBe('所有模組，所有分行');
    expect(column.render!(seeded, { t, language: 'en' })).toBe('Every module, every branch');
    expect(column.render!({ id: 2, description: 'Interns', description_zh: null }, helpers)).toBe('Interns');
    // the Chinese description is edited on the form, not a column of its own
    expect(rolesConfig.columns.map((c) => c.key)).not.toContain('description_zh');
    expect(rolesConfig.form!.fields.map((f) => f.name)).toContain('description_zh');
  });

  it('name lookups by the row’s `_name`, never by a fetched list or `#id`', () => {
    const company = branchesConfig.columns.find((c) => c.key === 'company_id')!;
    expect(company.render!({ id: 1, company_id: 3, company_name: 'HKSA 香港留學' }, helpers)).toBe(
      'HKSA 香港留學',
    );
    const role = usersConfig.columns.find((c) => c.key === 'role_id')!;
    expect(role.render!({ id: 1, role_id: 4, role_name: null }, helpers)).toBe('');
    // the form picks the company with the declared lookup input
    const field = branchesConfig.form!.fields.find((f) => f.name === 'company_id')!;
    expect(field.input.type).toBe('custom');
  });

  it('keep the users’ own: a password on create only, the locked email and admin flag, the security tab', () => {
    const fields = usersConfig.form!.fields;
    expect(fields.filter((f) => f.only === 'create').map((f) => f.name)).toEqual([
      'password',
      'password_confirmation',
    ]);
    const email = fields.find((f) => f.name === 'email')!;
    expect(email.locked!({ record: { id: 2 }, user: { id: 2 } as never })).toBe(
      'serverMessages.ownEmailOnProfile',
    );
    expect(email.locked!({ record: { id: 3 }, user: { id: 2 } as never })).toBeNull();
    expect(usersConfig.form!.create.shape).toHaveProperty('password');
    expect(usersConfig.tabs!.map((tab) => tab.key)).toEqual(['security']);
    expect(usersConfig.filters!.find((f) => f.name === 'is_active')?.type).toBe('select');
  });

  it('keep the audit log read-only but exportable, its actor type a select of its declared values', () => {
    expect(auditConfig.readOnly).toBe(true);
    expect(auditConfig.form).toBeUndefined();
    expect(auditConfig.exportable).toBe(true);
    const actorType = auditConfig.filters!.find((f) => f.name === 'actor_type')!;
    expect(actorType.options!.map((o) => t(o.labelKey!))).toEqual(['使用者', '學生', '系統']);
    expect(auditConfig.filters!.map((f) => f.name)).toEqual(
      expect.arrayContaining(['action', 'date_from', 'date_to']),
    );
  });
});
