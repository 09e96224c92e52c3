import { ZCompanyCreate } from '../../../../shared/schemas/companies';
import { formBody } from './resource-form-page';
import type { ResourceField } from './types';

const fields: ResourceField[] = [
  { name: 'code', labelKey: 'x', input: { type: 'text' } },
  { name: 'name_en', labelKey: 'x', input: { type: 'text' } },
  { name: 'email', labelKey: 'x', input: { type: 'text' } },
  { name: 'bank_details', labelKey: 'x', input: { type: 'textarea' } },
];

describe('formBody', () => {
  it('sends an emptied optional field as null when its schema takes null, so the server accepts it', () => {
    const body = formBody(
      fields,
      { code: 'HK', name_en: 'Agency', email: '', bank_details: '' },
      ZCompanyCreate,
    );
    expect(body).toEqual({ code: 'HK', name_en: 'Agency', email: null, bank_details: null });
    expect(ZCompanyCreate.partial().safeParse(body).success).toBe(true);
  });

  it('keeps an empty required text as it is, for the schema to name it', () => {
    expect(formBody(fields, { name_en: '' }, ZCompanyCreate)).toEqual({ name_en: '' });
  });

  it('leaves out fields the form does not hold', () => {
    expect(formBody(fields, { code: 'HK', is_admin: true }, ZCompanyCreate)).toEqual({ code: 'HK' });
  });
});

describe('computed fields of a declaration', () => {
  it('are shown on a record and never sent back (the server computes them)', async () => {
    const { users } = await import('../../../../shared/resources/users');
    const { declaredFields } = await import('./from-declaration');
    const declared = declaredFields(users);
    const lastLogin = declared.find((f) => f.name === 'last_login_at');
    expect(lastLogin).toMatchObject({ only: 'edit', readOnly: true });
    const body = formBody(declared, { name: 'Ann', last_login_at: '2026-11-25T04:00:00.000Z' });
    expect(body).toEqual({ name: 'Ann' });
  });
});
