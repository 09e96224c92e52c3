import { isApiError } from '../../app/api';
import type { User } from '../../app/types';
import type { ResourceConfig, ResourceRow, Translate } from './types';

/**
 * Whether a record lets the signed-in user take `action` (`update`, `delete`) on it: every record the API
 * answers carries `allowed_actions`, the writes this caller may make on it now (the permission held, and the
 * access rules: no account or role stronger than the caller's). A record without the list (an older answer)
 * leaves it to the permission alone.
 */
export function recordAllows(row: Record<string, unknown> | null | undefined, action: string): boolean {
  const allowed = row?.allowed_actions;
  return Array.isArray(allowed) ? allowed.includes(action) : true;
}

/** A 403 `insufficient_rights`: the route was the caller's, this record (or grant) is not. */
export function isInsufficientRights(error: unknown): boolean {
  return isApiError(error) && error.status === 403 && error.data?.code === 'insufficient_rights';
}

/** Why this user may not change this record, in words (the resource's own reason, else a general one). */
export function refusalNote<T extends ResourceRow>(
  config: Pick<ResourceConfig<T>, 'refusalNote'>,
  row: T,
  t: Translate,
  user: User | null,
): string {
  return config.refusalNote?.(row, { t, user }) ?? t('resource.notAllowed');
}
