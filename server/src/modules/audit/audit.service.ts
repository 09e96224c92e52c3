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

function scrub(row: Record<string, unknown> | null | undefined): Record<string, unknown> | undefined {
  if (!row) return undefined;
  return Object.fromEntries(Object.entries(row).filter(([key]) => !SECRET.test(key)));
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
    const changes =
      entry.before !== undefined || entry.after !== undefined
        ? diff(entry.before, entry.after)
        : entry.detail
          ? scrub(entry.detail)
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
