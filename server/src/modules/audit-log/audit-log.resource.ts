import { z } from 'zod';
import { ADMINS_ONLY } from '../../../../shared/permissions';
import { zDate } from '../../../../shared/schemas/common';
import { toDbDateTime } from '../../lib/clock';
import type { ResourceDefinition, Row } from '../../resources/resource';
import { BUSINESS_UTC_OFFSET_MS } from '../numbering/business-time';
import { auditLogRepository } from './audit-log.repository';

/** Start of a Hong Kong date, as the database's UTC text. */
function hkStart(date: string, plusDays = 0): string {
  return toDbDateTime(Date.parse(`${date}T00:00:00Z`) + plusDays * 86_400_000 - BUSINESS_UTC_OFFSET_MS);
}

function parseChanges(text: unknown): unknown {
  if (typeof text !== 'string') return text ?? null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The audit log, read-only (`GET /api/audit-logs`, `/api/audit-logs/{id}`, export): filtered by actor,
 * entity, record, action and a date range (Hong Kong dates), newest first, each row with its actor's name.
 */
export const auditLogResource: ResourceDefinition = {
  name: 'audit_log',
  path: '/audit-logs',
  table: 'audit_logs',
  module: 'settings',
  readOnly: true,
  permissions: { view: ADMINS_ONLY },
  schemas: {
    create: z.strictObject({}),
    update: z.strictObject({}),
    filters: z.object({
      actor_type: z.enum(['user', 'student', 'system']).optional(),
      actor_id: z.coerce.number().int().positive().optional(),
      entity: z
        .string()
        .regex(/^[a-z_]{1,60}$/)
        .optional(),
      entity_id: z.coerce.number().int().positive().optional(),
      action: z
        .string()
        .regex(/^[a-z_]{1,40}$/)
        .optional(),
      date_from: zDate.optional(),
      date_to: zDate.optional(),
    }),
  },
  searchable: ['action', 'entity', 'ip', 'changes'],
  sortable: ['id', 'created_at', 'action', 'entity'],
  defaultSort: '-id',
  exportName: 'audit-log',
  exportColumns: [
    { key: 'created_at', en: 'Time (UTC)', zh: '時間（UTC）' },
    { key: 'actor_name', en: 'Actor', zh: '操作者' },
    { key: 'actor_type', en: 'Actor type', zh: '操作者類型' },
    { key: 'action', en: 'Action', zh: '動作' },
    { key: 'entity', en: 'Record type', zh: '記錄類型' },
    { key: 'entity_id', en: 'Record ID', zh: '記錄編號' },
    { key: 'ip', en: 'IP address', zh: 'IP 位址' },
    { key: 'changes', en: 'Changes', zh: '變更內容' },
  ],
  applyFilters(qb, filters) {
    if (filters.actor_type) qb.where('actor_type', filters.actor_type);
    if (filters.actor_id) {
      qb.where('actor_id', filters.actor_id);
      if (!filters.actor_type) qb.where('actor_type', 'user');
    }
    if (filters.entity) qb.where('entity', filters.entity);
    if (filters.entity_id) qb.where('entity_id', filters.entity_id);
    if (filters.action) qb.where('action', filters.action);
    if (filters.date_from) qb.where('created_at', '>=', hkStart(filters.date_from));
    if (filters.date_to) qb.where('created_at', '<', hkStart(filters.date_to, 1));
  },
  toResponse: (row: Row) => ({ ...row, changes: parseChanges(row.changes) }),
  async expand(db, rows) {
    const ids = (type: string) => [
      ...new Set(rows.filter((r) => r.actor_type === type).map((r) => r.actor_id)),
    ];
    const users = await auditLogRepository.userNames(db, ids('user'));
    const students = await auditLogRepository.studentNames(db, ids('student'));
    return rows.map((r) => ({
      ...r,
      actor_name:
        r.actor_type === 'user'
          ? (users.get(r.actor_id) ?? null)
          : r.actor_type === 'student'
            ? (students.get(r.actor_id) ?? null)
            : 'system',
    }));
  },
};
