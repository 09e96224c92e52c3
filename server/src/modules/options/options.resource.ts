import { z } from 'zod';
import { ZOptionCreate, ZOptionUpdate, type OptionKey } from '../../../../shared/schemas/options';
import { AppError } from '../../lib/app-error';
import type { Trx } from '../../db/knex';
import type { ResourceDefinition } from '../../resources/resource';
import { readSettings } from '../settings/settings.service';
import { OPTION_USAGE } from './option-usage';
import { optionsRepository } from './options.repository';
import { optionUsage } from './options.service';
import { fieldMessage } from '../../../../shared/messages';

const CURRENCY_CODE = /^[A-Z]{3}$/;
const DEFAULT_CURRENCY_MESSAGE =
  'This is the default currency in the settings: choose another default currency first.';

async function isDefaultCurrency(db: Trx, value: string): Promise<boolean> {
  return (await readSettings(db)).default_currency === value;
}

/**
 * One option list as a resource at `/api/options/{key}`: the shared `options` table seen through its key.
 * A value in use cannot be deleted (409 with the counts, telling to deactivate it) nor change its code.
 */
export function optionResource(key: OptionKey): ResourceDefinition {
  const def: ResourceDefinition = {
    name: 'option',
    path: `/options/${key}`,
    table: 'options',
    module: 'settings',
    fixed: { key },
    schemas: {
      create: ZOptionCreate,
      update: ZOptionUpdate,
      filters: z.object({ is_active: z.enum(['true', 'false', '1', '0']).optional() }),
    },
    searchable: ['value', 'label_en', 'label_zh'],
    sortable: ['sort_order', 'value', 'label_en', 'label_zh'],
    defaultSort: 'sort_order',
    unique: [['key', 'value']],
    booleans: ['is_active'],
    references: OPTION_USAGE[key].map(({ table, column }) => ({
      table,
      column,
      key: table,
      field: 'value',
      whenTableExists: true,
    })),
    referencedHint: 'Deactivate it instead of deleting it.',
    exportName: `options-${key}`,
    exportColumns: [
      { key: 'value', en: 'Code', zh: '代碼' },
      { key: 'label_en', en: 'English', zh: '英文' },
      { key: 'label_zh', en: 'Chinese', zh: '中文' },
      { key: 'sort_order', en: 'Order', zh: '排序' },
      { key: 'is_active', en: 'Active', zh: '啟用' },
      { key: 'in_use', en: 'In use', zh: '使用中' },
    ],
    applyFilters(qb, filters) {
      if (filters.is_active !== undefined) {
        qb.where('is_active', filters.is_active === 'true' || filters.is_active === '1');
      }
    },
    async beforeWrite(db, data, existing) {
      if (key === 'currency' && data.value !== undefined && !CURRENCY_CODE.test(data.value)) {
        throw AppError.field('validation', 'value', 'A currency is a three-letter code (ISO 4217).');
      }
      if (key === 'currency' && existing && (await isDefaultCurrency(db, existing.value))) {
        if (data.is_active === false || (data.value !== undefined && data.value !== existing.value)) {
          throw AppError.field(
            'business_rule',
            data.is_active === false ? 'is_active' : 'value',
            DEFAULT_CURRENCY_MESSAGE,
          );
        }
      }
      if (existing && data.value !== undefined && data.value !== existing.value) {
        const used = (await optionUsage(db, key, [existing.value])).get(existing.value) ?? 0;
        if (used > 0) {
          throw AppError.field('validation', 'value', fieldMessage('optionCodeUsed', { count: used }));
        }
      }
    },
    async beforeDelete(db, row) {
      if (key === 'currency' && (await isDefaultCurrency(db, row.value))) {
        throw new AppError('conflict', DEFAULT_CURRENCY_MESSAGE);
      }
    },
    async prepare(db, input, existing) {
      if (existing || input.sort_order !== undefined) return input;
      // a new entry goes to the end of the list
      return { ...input, sort_order: (await optionsRepository.maxSortOrder(db, key)) + 1 };
    },
    async expand(db, rows) {
      const usage = await optionUsage(
        db,
        key,
        rows.map((r) => r.value),
      );
      return rows.map((r) => ({ ...r, in_use: usage.get(r.value) ?? 0 }));
    },
    createForm: async () => ({ defaults: { is_active: true }, key }),
  };
  return def;
}
