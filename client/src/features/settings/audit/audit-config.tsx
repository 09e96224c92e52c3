import { HistoryOutlined } from '@ant-design/icons';
import { Typography } from 'antd';
import { auditLogs } from '../../../../../shared/resources/audit-logs';
import i18next from 'i18next';
import { DECLARATIONS } from '../../../../../shared/resources';
import {
  AUDIT_ACTIONS,
  auditActionLabel,
  auditActorName,
  auditEntityLabel,
  AuditChanges,
  type AuditRow,
} from '../../../components/resource/audit-history';
import { configFromDeclaration, lookupFilter } from '../../../components/resource/from-declaration';
import { formatDateTime } from '../../../i18n/date-time';
import { ButtonLink } from '../../../components/layout/button-link';

/**
 * `/settings/audit-log` (admins): who did what when, from the declaration (read-only). The log's own: times
 * shown in Hong Kong time (the export too), actions, kinds of record and the system actor by their labels (actions
 * and kinds filtered from a list), the changes as short text, the user picked by name or email (never an id typed
 * in), a range of Hong Kong dates (`date_from` / `date_to`, picked as YYYY-MM-DD, a reversed range refused beside
 * the control) and a link to a record's history.
 */

/** The kinds of record the log names: every declared resource's, and the log's own (API tokens, files, settings). */
const LOG_OWN_ENTITIES = ['api_token', 'file', 'settings'];
const AUDIT_ENTITIES = [...DECLARATIONS.map((d) => d.name), ...LOG_OWN_ENTITIES].filter(
  (name) => name !== 'audit_log',
);

export const auditConfig = configFromDeclaration<AuditRow & Record<string, unknown>>(auditLogs, {
  routePath: '/settings/audit-log',
  exportable: true,
  columns: {
    created_at: {
      // shown in Hong Kong time like every time on screen (and in the export)
      titleKey: 'resource.audit.time',
      render: (row) => formatDateTime(row.created_at, { seconds: true }),
    },
    actor_type: false,
    // the name above the address: "Name <email>" on one line pushed the list past 1366 px (issue 31)
    actor_name: {
      render: (row, { t }) => {
        const actor = auditActorName(row, t);
        const at = actor.indexOf(' <');
        if (at <= 0) return actor;
        return (
          <>
            {actor.slice(0, at)}
            <br />
            <Typography.Text type="secondary">{actor.slice(at + 1)}</Typography.Text>
          </>
        );
      },
    },
    action: { render: (row, { t }) => auditActionLabel(row.action, t) },
    entity: { render: (row, { t }) => auditEntityLabel(row.entity, t) },
  },
  extraColumns: [
    {
      key: 'changes',
      titleKey: 'resources.audit_log.fields.changes',
      width: 320,
      // in the reader's language: the fields' labels, the values as the records show them (a long change clamped)
      render: (row) => (
        <span
          style={{
            wordBreak: 'break-word',
            display: '-webkit-box',
            WebkitLineClamp: 4,
            WebkitBoxOrient: 'vertical',
            overflow: 'hidden',
          }}
        >
          <AuditChanges entity={row.entity} changes={row.changes} />
        </span>
      ),
    },
  ],
  filters: (derived) => [
    ...derived.map((f) => {
      if (f.name === 'action')
        return {
          ...f,
          type: 'select' as const,
          options: AUDIT_ACTIONS.map((a) => ({ value: a, labelKey: `resource.audit.actions.${a}` })),
        };
      if (f.name === 'entity')
        return {
          ...f,
          type: 'select' as const,
          // labelled in the screen's language when shown (a declared resource's record name, or the log's own)
          options: AUDIT_ENTITIES.map((e) => ({
            value: e,
            labelKey: LOG_OWN_ENTITIES.includes(e) ? `resource.audit.entities.${e}` : `resources.${e}.record`,
          })),
        };
      // a user picked by name or email (the users lookup), not a number typed in
      if (f.name === 'actor_id') return lookupFilter('actor_id', f.labelKey, 'user');
      return f;
    }),
    { name: 'date_from', labelKey: 'settings.audit.from', type: 'date' },
    { name: 'date_to', labelKey: 'settings.audit.to', type: 'date' },
  ],
  recordTitle: (row, language) =>
    `${auditEntityLabel(String(row.entity), i18next.getFixedT(language))} #${String(row.entity_id ?? '')}`,
  rowActions: (row, { t }) =>
    row.entity_id ? (
      <ButtonLink
        to={`/settings/audit-log/${row.entity}/${row.entity_id}`}
        size="small"
        icon={<HistoryOutlined />}
      >
        {t('resource.history')}
      </ButtonLink>
    ) : null,
});
