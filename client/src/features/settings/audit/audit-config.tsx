import { HistoryOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { Link } from 'react-router-dom';
import {
  AUDIT_ACTIONS,
  auditActionLabel,
  changesText,
  type AuditRow,
} from '../../../components/resource/audit-history';
import type { ResourceConfig } from '../../../components/resource/types';

/** `/settings/audit-log` (admins): who did what when, filtered by user, record type, action and dates. */
export const auditConfig: ResourceConfig<AuditRow & Record<string, unknown>> = {
  name: 'audit-log',
  apiPath: '/api/audit-logs',
  routePath: '/settings/audit-log',
  module: 'settings',
  readOnly: true,
  titleKey: 'settings.audit.title',
  searchable: true,
  exportable: true,
  filters: [
    { name: 'actor_id', labelKey: 'settings.audit.userId', type: 'number' },
    { name: 'entity', labelKey: 'settings.audit.entity', type: 'text' },
    {
      name: 'action',
      labelKey: 'settings.audit.action',
      type: 'select',
      options: AUDIT_ACTIONS.map((a) => ({ value: a, labelKey: `resource.audit.actions.${a}` })),
    },
    { name: 'date_from', labelKey: 'settings.audit.from', type: 'date' },
    { name: 'date_to', labelKey: 'settings.audit.to', type: 'date' },
  ],
  columns: [
    { key: 'created_at', titleKey: 'resource.audit.time', sortable: true },
    { key: 'actor_name', titleKey: 'resource.audit.actor' },
    {
      key: 'action',
      titleKey: 'resource.audit.action',
      sortable: true,
      render: (row, { t }) => auditActionLabel(row.action, t),
    },
    { key: 'entity', titleKey: 'settings.audit.entity', sortable: true },
    { key: 'entity_id', titleKey: 'settings.audit.entityId' },
    { key: 'ip', titleKey: 'settings.audit.ip' },
    {
      key: 'changes',
      titleKey: 'resource.audit.changes',
      width: 360,
      render: (row) => (
        <span style={{ wordBreak: 'break-word' }}>{changesText(row.changes).slice(0, 300)}</span>
      ),
    },
  ],
  recordTitle: (row) => `${String(row.entity)} #${String(row.entity_id ?? '')}`,
  rowActions: (row, { t }) =>
    row.entity_id ? (
      <Link to={`/settings/audit-log/${row.entity}/${row.entity_id}`}>
        <Button size="small" icon={<HistoryOutlined />}>
          {t('resource.history')}
        </Button>
      </Link>
    ) : null,
};
