import type { Knex } from 'knex';
import { OPTION_KEYS, type OptionKey } from '../../../../shared/schemas/options';
import type { Trx } from '../../db/knex';
import type { RequestContext } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { auditService } from '../audit/audit.service';
import { OPTION_USAGE } from './option-usage';
import { optionsRepository } from './options.repository';

/** How many records use each value of one option list, over the tables that exist. */
export async function optionUsage(db: Trx, key: OptionKey, values: string[]): Promise<Map<string, number>> {
  const total = new Map<string, number>(values.map((v) => [v, 0]));
  if (!values.length) return total;
  for (const { table, column } of OPTION_USAGE[key]) {
    if (!(await optionsRepository.hasTable(db, table))) continue;
    const counts = await optionsRepository.countValues(db, table, column, values);
    for (const [value, n] of counts) total.set(value, (total.get(value) ?? 0) + n);
  }
  return total;
}

/** Whether `value` is an active entry of the list (a setting or a record choosing it). */
export async function isActiveOption(db: Trx, key: OptionKey, value: string): Promise<boolean> {
  return Boolean(await optionsRepository.findActive(db, key, value));
}

export type OptionChoice = { value: string; label_en: string; label_zh: string };

/**
 * The active entries of some lists, in their order, for a form's choices: what a resource's `createForm`
 * answers (a student form needs gender, nationality … without the settings permission).
 */
export async function activeOptions<K extends OptionKey>(
  db: Trx,
  keys: readonly K[],
): Promise<Record<K, OptionChoice[]>> {
  const out = Object.fromEntries(keys.map((k) => [k, [] as OptionChoice[]])) as Record<K, OptionChoice[]>;
  for (const { key, ...choice } of await optionsRepository.activeOf(db, keys)) out[key as K].push(choice);
  return out;
}

export function createOptionsService(db: Knex) {
  return {
    /** Every list, with how many entries it has and how many are active. */
    async summary(): Promise<{ items: { key: OptionKey; total: number; active: number }[] }> {
      const counts = new Map((await optionsRepository.summary(db)).map((r) => [r.key, r]));
      return {
        items: OPTION_KEYS.map((key) => ({
          key,
          total: counts.get(key)?.total ?? 0,
          active: counts.get(key)?.active ?? 0,
        })),
      };
    },

    /** `ids` (every entry of the list, each once) in their new order: sort_order 1, 2, 3 … */
    async reorder(key: OptionKey, ids: number[], ctx: RequestContext): Promise<void> {
      await db.transaction(async (trx) => {
        const existing = await optionsRepository.idsOf(trx, key);
        const known = new Set(existing);
        const unique = new Set(ids);
        if (unique.size !== ids.length) throw AppError.field('validation', 'ids', 'idTwice');
        if (ids.some((id) => !known.has(id)) || ids.length !== existing.length) {
          throw AppError.field('validation', 'ids', 'everyEntryOnce');
        }
        for (const [i, id] of ids.entries()) {
          await optionsRepository.setSortOrder(trx, id, i + 1, ctx.actor.id);
        }
        await auditService.record(trx, ctx, {
          action: 'reorder',
          entity: 'option',
          detail: { key, ids },
        });
      });
    },
  };
}
