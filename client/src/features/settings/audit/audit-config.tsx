import { HistoryOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import { Link } from 'react-router-dom';
import { auditLogs } from '../../../../../shared/resources/audit-logs';
import {
  AUDIT_ACTIONS,
  auditActionLabel,
  changesText,
  type AuditRow,
} from '../../../components/resource/audit-history';
import { configFromDeclaration } from '../../../components/resource/from-declaration';

dayjs.extend(utc);

/**
 * `/settings/audit-log` (admins): who did what when, from the declaration (read-only). The log's own: times
 * shown in UTC (as its column says and its export writes), actions by their labels (filtered from a list), the
 * changes as short text, a range of Hong Kong dates (`date_from` / `date_to`) and a link to a record's history.
 */
export const auditConfig = configFromDeclaration<AuditRow & Record<string, unknown>>(auditLogs, {
  routePath: '/settings/audit-log',
  exportable: true,
  columns: {
    created_at: {
      render: (row) => (row.created_at ? dayjs.utc(row.created_at).format('YYYY-MM-DD HH:mm:ss') : ''),
    },
    actor_type: false,
    action: { render: (row, { t }) => auditActionLabel(row.action, t) },
  },
  extraColumns: [
    {
      key: 'changes',
      titleKey: 'resources.audit_log.fields.changes',
      width: 360,
      render: (row) => (
        <span style={{ wordBreak: 'break-word' }}>{changesText(row.changes).slice(0, 300)}</span>
      ),
    },
  ],
  filters: (derived) => [
    ...derived.map((f) =>
      f.name === 'action'
        ? {
            ...f,
            type: 'select' as const,
            options: AUDIT_ACTIONS.map((a) => ({ value: a, labelKey: `resource.audit.actions.${a}` })),
          }
        : f,
    ),
    { name: 'date_from', labelKey: 'settings.audit.from', type: 'date' },
    { name: 'date_to', labelKey: 'settings.audit.to', type: 'date' },
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
});
