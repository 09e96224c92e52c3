import type { TFunction } from 'i18next';
import { isApiError } from '../../app/api';
import { isMessageKey } from '../../../../shared/messages';
import { messageText } from '../forms/server-errors';
import type { ResourceRow } from './types';

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

/**
 * Why this user may not change this record, in words: the reason the server gives with the record (`locked`: its
 * own state keeps it as it is, a void invoice; `refusal`: the access rules — each the key of a catalogued
 * message), else a general one (the permission is missing).
 */
export function refusalNote(row: ResourceRow, t: TFunction): string {
  if (isMessageKey(row.locked)) return messageText({ key: row.locked }, t);
  return isMessageKey(row.refusal) ? messageText({ key: row.refusal }, t) : t('resource.notAllowed');
}
