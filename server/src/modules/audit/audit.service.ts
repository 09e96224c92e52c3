import type { Trx } from '../../db/knex';
import { toDbDateTime } from '../../lib/clock';
import type { RequestContext } from '../../http/context';
import { auditRepository } from './audit.repository';

/** Never written to the audit log, whatever the entity. */
const SECRET = /password|secret|token|recovery|code_hash|session/i;

export interface AuditEntry {
  action: string;
  entity?: string;
  entityId?: number | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /** for actions that are not a record change (login_failed …): what to keep, secrets removed */
  detail?: Record<string, unknown>;
}

/** A value longer than this is kept as its first characters and a marker of how many were left out. */
export const AUDIT_VALUE_MAX = 2000;

function cut(value: unknown): unknown {
  if (typeof value !== 'string' || value.length <= AUDIT_VALUE_MAX) return value;
  return `${value.slice(0, AUDIT_VALUE_MAX)}…[+${value.length - AUDIT_VALUE_MAX}]`;
}

function scrub(row: Record<string, unknown> | null | undefined): Record<string, unknown> | undefined {
  if (!row) return undefined;
  return Object.fromEntries(Object.entries(row).filter(([key]) => !SECRET.test(key)));
}

function cutAll(row: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!row) return null;
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, cut(value)]));
}

/** Before/after of the fields that changed (all fields on create and delete), secrets left out. */
export function diff(before?: Record<string, unknown> | null, after?: Record<string, unknown> | null) {
  const b = scrub(before);
  const a = scrub(after);
  if (!b || !a) return { before: b ?? null, after: a ?? null };
  const changedBefore: Record<string, unknown> = {};
  const changedAfter: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) {
    if (key === 'updated_at') continue;
    if (JSON.stringify(b[key]) !== JSON.stringify(a[key])) {
      changedBefore[key] = b[key];
      changedAfter[key] = a[key];
    }
  }
  return { before: changedBefore, after: changedAfter };
}

export const auditService = {
  /** Appends one audit row, in the caller's transaction when it passes one. */
  async record(db: Trx, ctx: RequestContext, entry: AuditEntry): Promise<void> {
    // compared whole, stored cut: a long text (terms) keeps the audit row within its column
    const changed =
      entry.before !== undefined || entry.after !== undefined ? diff(entry.before, entry.after) : null;
    const changes = changed
      ? { before: cutAll(changed.before), after: cutAll(changed.after) }
      : entry.detail
        ? cutAll(scrub(entry.detail))
        : null;
    await auditRepository.insert(db, {
      actor_type: ctx.actor.type,
      actor_id: ctx.actor.id,
      action: entry.action,
      entity: entry.entity ?? null,
      entity_id: entry.entityId ?? null,
      changes: changes ? JSON.stringify(changes) : null,
      ip: ctx.ip,
      request_id: ctx.requestId,
      created_at: toDbDateTime(),
    });
  },
};
