import { z } from 'zod';
import { ADMINS_ONLY } from '../../../../shared/permissions';
import { zDate } from '../../../../shared/schemas/common';
import { auditLogs } from '../../../../shared/resources/audit-logs';
import { deriveSchemas } from '../../../../shared/resources/derive';
import { AppError } from '../../lib/app-error';
import { toDbDateTime } from '../../lib/clock';
import type { ResourceDefinition } from '../../resources/resource';
import { declaredRules } from '../../resources/rows';
import { BUSINESS_UTC_OFFSET_MS } from '../numbering/business-time';
import { auditLogRepository } from './audit-log.repository';

/** Start of a Hong Kong date, as the database's UTC text. */
function hkStart(date: string, plusDays = 0): string {
  return toDbDateTime(Date.parse(`${date}T00:00:00Z`) + plusDays * 86_400_000 - BUSINESS_UTC_OFFSET_MS);
}

/** A date filter's value (`YYYY-MM-DD`, parsed by `zDate`), or null when not given. */
function dateFilter(value: unknown): string | null {
  return typeof value === 'string' && value ? value : null;
}

/** The name of the actor `id` among `names`, or null (unknown, or no id). */
function nameIn(names: Map<number, string>, id: number | null): string | null {
  return id === null ? null : (names.get(id) ?? null);
}

function parseChanges(text: unknown): unknown {
  if (typeof text !== 'string') return text ?? null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const derived = deriveSchemas(auditLogs);

/**
 * The rules of the audit log beyond its declaration (shared/resources/audit-logs.ts): admins only (and no lookup
 * route); `actor_id` alone means a user; Hong Kong dates (`date_from`, `date_to`) bound `created_at`; `changes`
 * is JSON; each row names its actor — a user, a student or the system — with one query per kind for a page.
 */
export const auditLogRules: Partial<ResourceDefinition> = declaredRules(auditLogs, {
  permissions: { view: ADMINS_ONLY },
  label: undefined,
  schemas: {
    ...derived,
    filters: derived.filters.extend({
      entity: z
        .string()
        .regex(/^[a-z_]{1,60}$/)
        .optional(),
      action: z
        .string()
        .regex(/^[a-z_]{1,40}$/)
        .optional(),
      date_from: zDate.optional(),
      date_to: zDate.optional(),
    }),
  },
  exportName: 'audit-log',
  applyFilters(qb, filters) {
    if (filters.actor_id && !filters.actor_type) qb.where('audit_logs.actor_type', 'user');
    const from = dateFilter(filters.date_from);
    const to = dateFilter(filters.date_to);
    // a range that ends before it starts finds nothing by mistake: refused on the end date's field
    if (from && to && from > to) throw AppError.field('validation', 'date_to', 'dateRangeOrder');
    if (from) qb.where('audit_logs.created_at', '>=', hkStart(from));
    if (to) qb.where('audit_logs.created_at', '<', hkStart(to, 1));
  },
  toResponse: (row) => ({ ...row, changes: parseChanges(row.changes) }),
  async expand(db, rows) {
    const ids = (type: string) => [
      ...new Set(
        rows
          .filter((r) => r.actor_type === type)
          .map((r) => r.actor_id)
          .filter((id) => id !== null),
      ),
    ];
    const users = await auditLogRepository.userNames(db, ids('user'));
    const students = await auditLogRepository.studentNames(db, ids('student'));
    return rows.map((r) => ({
      ...r,
      actor_name:
        r.actor_type === 'user'
          ? nameIn(users, r.actor_id)
          : r.actor_type === 'student'
            ? nameIn(students, r.actor_id)
            : 'system',
    }));
  },
});
