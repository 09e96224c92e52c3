import type { TFunction } from 'i18next';
import { z } from 'zod';
import { zodRule } from './resource-errors';

const t = ((key: string) => key) as unknown as TFunction;
const create = z.strictObject({ name: z.string().min(1), remark: z.string().optional() });
const update = create.partial();

describe('zodRule', () => {
  it('keeps a field the record must have required on the edit form, though the update body may leave it out', async () => {
    const rule = zodRule(update, 'name', t, create);
    expect(rule.required).toBe(true);
    await expect(rule.validator(null, '')).rejects.toThrow('errors.required');
    await expect(rule.validator(null, 'Korea University')).resolves.toBeUndefined();
    // without the create schema, the update schema alone would let it be emptied
    expect(zodRule(update, 'name', t).required).toBe(false);
  });

  it('leaves an optional field optional', async () => {
    const rule = zodRule(update, 'remark', t, create);
    expect(rule.required).toBe(false);
    await expect(rule.validator(null, '')).resolves.toBeUndefined();
  });
});
