import type { Knex } from 'knex';
import {
  BOOLEAN_SETTINGS,
  NUMERIC_SETTINGS,
  SETTING_DEFAULTS,
  ZSettings,
  type SettingKey,
  type Settings,
  type SettingsUpdate,
} from '../../../../shared/schemas/settings';
import type { NumberingPreviewQuery } from '../../../../shared/schemas/numbering';
import type { Trx } from '../../db/knex';
import type { RequestContext } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { auditService } from '../audit/audit.service';
import { numberingService } from '../numbering/numbering.service';
import { isActiveOption } from '../options/options.service';
import type { SettingsGuard } from './protected-settings';
import { settingsRepository } from './settings.repository';

const KEYS = Object.keys(ZSettings.shape) as SettingKey[];

/** The settings as typed values; a key never saved reads as its default. */
export async function readSettings(db: Trx): Promise<Settings> {
  const stored = await settingsRepository.getMany(db, KEYS);
  const out: Record<string, unknown> = { ...SETTING_DEFAULTS };
  for (const key of KEYS) {
    const value = stored[key];
    if (value === null || value === undefined || value === '') continue;
    if (NUMERIC_SETTINGS.includes(key)) out[key] = Number(value);
    else if (BOOLEAN_SETTINGS.includes(key)) out[key] = value === 'true';
    else out[key] = value;
  }
  return out as Settings;
}

export function createSettingsService(db: Knex, guard: SettingsGuard) {
  return {
    read: () => readSettings(db),

    /**
     * Saves the given settings in one transaction, with one audit row of what changed. The storage settings
     * among them are protected (admins, a recent password confirmation, a notice to every admin).
     */
    async update(input: SettingsUpdate, ctx: RequestContext): Promise<Settings> {
      return guard.change(ctx, async (trx, touched) => {
        const before = await readSettings(trx);
        if (input.default_currency !== undefined && input.default_currency !== before.default_currency) {
          if (!(await isActiveOption(trx, 'currency', input.default_currency))) {
            throw AppError.field('validation', 'default_currency', 'chooseActiveCurrency');
          }
        }
        const changed = (Object.keys(input) as SettingKey[]).filter(
          (key) => input[key] !== undefined && input[key] !== before[key],
        );
        touched(changed);
        for (const key of changed) await settingsRepository.set(trx, key, String(input[key]), ctx.actor.id);
        const after = await readSettings(trx);
        await auditService.record(trx, ctx, { action: 'update', entity: 'settings', before, after });
        return after;
      });
    },

    /** The next number of a document for a branch (the caller's own when none is given), not taken. */
    async preview(query: NumberingPreviewQuery, ctx: RequestContext, ownBranchId: number | null) {
      const branchId = query.branch_id ?? ownBranchId;
      const scope = ctx.branchScope;
      if (scope && query.branch_id !== undefined && query.branch_id !== scope.branchId) {
        throw new AppError('not_found');
      }
      return numberingService.preview(db, query.document, branchId, query.format);
    },
  };
}
