import { declareResource } from './declaration';

/**
 * The audit log, read-only (`GET /api/audit-logs`, `/api/audit-logs/{id}`, export), admins only: newest first,
 * each row with its actor's name (`actor_name`: a user, a student or the system), filtered by actor, record,
 * action and a range of Hong Kong dates (`date_from` / `date_to`, the audit log rules' own).
 */
export const auditLogs = declareResource({
  name: 'audit_log',
  path: '/audit-logs',
  table: 'audit_logs',
  module: 'settings',
  readOnly: true,
  fields: {
    id: { type: 'integer', readOnly: true, sortable: true, list: false },
    created_at: { type: 'datetime', readOnly: true, sortable: true },
    actor_name: { type: 'text', max: 400, readOnly: true },
    actor_type: { type: 'text', max: 10, values: ['user', 'student', 'system'], filterable: true },
    actor_id: { type: 'integer', min: 1, filterable: true, list: false },
    action: { type: 'text', max: 40, searchable: 'identifier', sortable: true, filterable: true },
    entity: { type: 'text', max: 60, searchable: 'identifier', sortable: true, filterable: true },
    entity_id: { type: 'integer', min: 1, filterable: true },
    ip: { type: 'text', max: 64, searchable: 'identifier' },
    changes: { type: 'text', max: 65_535, multiline: true, searchable: 'name', export: true },
  },
  display: { en: ['action'], zh_HK: ['action'] },
  defaultSort: '-id',
});
