import type { MessageKey } from '../../../../shared/messages';
import type { Trx } from '../../db/knex';
import { AppError } from '../../lib/app-error';
import type { Row } from '../../resources/resource';
import { usersRepository } from './users.repository';

/** What a write does to an account that could leave the organisation without an active admin. */
export type AdminRemoval = 'demote' | 'deactivate' | 'delete';

const REFUSAL: Record<AdminRemoval, { field: string; message: MessageKey }> = {
  demote: { field: 'is_admin', message: 'lastAdminDemote' },
  deactivate: { field: 'is_active', message: 'lastAdminDeactivate' },
  delete: { field: 'id', message: 'lastAdminDelete' },
};

/** Whether an update takes the admin flag or the active flag away (whatever the row held before). */
export function adminRemovalOf(data: Row): AdminRemoval | null {
  if (data.is_admin === false) return 'demote';
  if (data.is_active === false) return 'deactivate';
  return null;
}

/**
 * The last active admin stays: it cannot lose the admin flag, be deactivated or be deleted (422 on the
 * field). Called inside the write's transaction: the active admins' rows are locked and read fresh, so two
 * concurrent requests that each take one admin away cannot both pass on the same stale count.
 */
export async function assertNotLastAdmin(trx: Trx, userId: number, removal: AdminRemoval): Promise<void> {
  const { field, message } = REFUSAL[removal];
  let admins: number[];
  try {
    admins = await usersRepository.lockActiveAdminIds(trx);
  } catch (error) {
    // two admins removing each other at once: each write holds its target's row (the update locks it first) and
    // waits for the other's; MariaDB ends one transaction, whose change could have left no admin — refused so
    if ((error as { code?: unknown }).code === 'ER_LOCK_DEADLOCK')
      throw AppError.field('business_rule', field, message);
    throw error;
  }
  if (admins.includes(userId) && admins.length <= 1) throw AppError.field('business_rule', field, message);
}
