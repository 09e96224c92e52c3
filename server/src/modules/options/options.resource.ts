import type { OptionKey } from '../../../../shared/schemas/options';
import { AppError } from '../../lib/app-error';
import type { Trx } from '../../db/knex';
import type { ResourceDefinition } from '../../resources/resource';
import { declaredRules } from '../../resources/rows';
import { options } from '../../../../shared/resources/options';
import { readSettings } from '../settings/settings.service';
import { OPTION_USAGE } from './option-usage';
import { optionsRepository } from './options.repository';
import { optionUsage } from './options.service';
import { msg } from '../../../../shared/messages';

const CURRENCY_CODE = /^[A-Z]{3}$/;
const DEFAULT_CURRENCY_MESSAGE = 'defaultCurrencyInUse';

async function isDefaultCurrency(db: Trx, value: string): Promise<boolean> {
  return (await readSettings(db)).default_currency === value;
}

/**
 * The rules of one option list (`/api/options/{key}`) beyond the declaration (shared/resources/options.ts), which
 * serves every list of the shared `options` table: a value is unique within its list; a value in use cannot be
 * deleted (409 with the counts, telling to deactivate it) nor change its code; the currency list holds ISO codes,
 * and the default currency stays active and keeps its code.
 */
export function optionRules(key: OptionKey): Partial<ResourceDefinition> {
  return declaredRules(options, {
    unique: [['key', 'value']],
    references: OPTION_USAGE[key].map(({ table, column }) => ({
      table,
      column,
      key: table,
      field: 'value',
      whenTableExists: true,
    })),
    referencedHint: 'deactivateIt',
    async beforeWrite(db, data, existing) {
      if (key === 'currency' && data.value !== undefined && !CURRENCY_CODE.test(data.value)) {
        throw AppError.field('validation', 'value', 'currencyCodeOption');
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
          throw AppError.field('validation', 'value', msg('optionCodeUsed', { count: used }));
        }
      }
    },
    async beforeDelete(db, row) {
      if (key === 'currency' && (await isDefaultCurrency(db, row.value))) {
        throw new AppError('conflict', DEFAULT_CURRENCY_MESSAGE);
      }
    },
    async prepare(db, input, existing) {
      if (input.sort_order !== null && (existing || input.sort_order !== undefined)) return input;
      const { sort_order: _none, ...data } = input;
      // a new entry goes to the end of the list; an emptied order keeps the old one
      return existing ? data : { ...data, sort_order: (await optionsRepository.maxSortOrder(db, key)) + 1 };
    },
    async expand(db, rows) {
      const usage = await optionUsage(
        db,
        key,
        rows.map((r) => r.value),
      );
      return rows.map((r) => ({ ...r, in_use: usage.get(r.value) ?? 0 }));
    },
    createForm: async () => ({ key }),
  });
}
