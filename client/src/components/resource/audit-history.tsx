import { useState } from 'react';
import { Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { firstLoadLocale } from '../first-load';
import type { ListResponse } from '../../../../shared/list';
import { formatDateTime } from '../../i18n/date-time';
import { useResourceReadQuery } from './resource-api';
import type { Translate } from './types';

export interface AuditRow {
  id: number;
  created_at: string;
  actor_name: string | null;
  actor_type: string;
  action: string;
  entity: string;
  entity_id: number | null;
  ip: string | null;
  changes: unknown;
}

/** The actions the audit log records, in the order its filter offers them. */
export const AUDIT_ACTIONS = [
  'create',
  'update',
  'delete',
  'import',
  'reorder',
  'login',
  'logout',
  'login_failed',
  'logout_other_sessions',
  'register',
  'email_verified',
  'password_changed',
  'password_confirmation_failed',
  'password_reset_requested',
  'password_reset',
  'permission_denied',
  'two_factor_enabling',
  'two_factor_enabled',
  'two_factor_disabled',
  'two_factor_recovery_code_used',
  'two_factor_recovery_codes_regenerated',
] as const;

/** An audit action in the interface language (an action without a label shows its code). */
export function auditActionLabel(action: string, t: Translate): string {
  return t(`resource.audit.actions.${action}`, { defaultValue: action });
}

/**
 * What kind of record an audit entry is about, in the interface language: a declared resource's record name
 * (`resources.<entity>.record`), else the log's own (`resource.audit.entities.*`: API tokens, files, settings);
 * an unknown kind shows its code.
 */
export function auditEntityLabel(entity: string | null | undefined, t: Translate): string {
  if (!entity) return '';
  return t([`resources.${entity}.record`, `resource.audit.entities.${entity}`] as never, {
    defaultValue: entity,
  });
}

/** Who did it: a user's or student's name, or the system (in the interface language). */
export function auditActorName(row: Pick<AuditRow, 'actor_type' | 'actor_name'>, t: Translate): string {
  return row.actor_type === 'system' ? t('resource.audit.system') : (row.actor_name ?? '');
}

/** A change's before/after as short text. */
export function changesText(changes: unknown): string {
  if (changes === null || changes === undefined) return '';
  if (typeof changes === 'string') return changes;
  const c = changes as { before?: Record<string, unknown> | null; after?: Record<string, unknown> | null };
  if (c.before !== undefined || c.after !== undefined) {
    const keys = new Set([...Object.keys(c.before ?? {}), ...Object.keys(c.after ?? {})]);
    return [...keys]
      .map((k) => `${k}: ${JSON.stringify(c.before?.[k] ?? null)} → ${JSON.stringify(c.after?.[k] ?? null)}`)
      .join('; ');
  }
  return JSON.stringify(changes);
}

/** One record's history from the audit log (`GET /api/audit-logs/{entity}/{id}`), admins only. */
export function AuditHistory({ entity, id }: { entity: string; id: number }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const { data, isLoading, isError } = useResourceReadQuery({
    url: `/api/audit-logs/${entity}/${id}`,
    params: { page, per_page: 20 },
    handleErrors: false,
  });
  const list = data as ListResponse<AuditRow> | undefined;
  if (isError) return <Typography.Text type="secondary">{t('errors.generic')}</Typography.Text>;
  return (
    <Table<AuditRow>
      rowKey="id"
      size="small"
      data-testid="audit-history"
      locale={firstLoadLocale(isLoading)}
      dataSource={list?.items ?? []}
      pagination={{
        current: page,
        pageSize: 20,
        total: list?.total ?? 0,
        onChange: setPage,
        showSizeChanger: false,
      }}
      columns={[
        {
          key: 'created_at',
          dataIndex: 'created_at',
          title: t('resource.audit.time'),
          render: (at: string) => formatDateTime(at, { seconds: true }),
        },
        {
          key: 'actor_name',
          title: t('resource.audit.actor'),
          render: (_v, row) => auditActorName(row, t),
        },
        {
          key: 'action',
          dataIndex: 'action',
          title: t('resource.audit.action'),
          render: (action: string) => auditActionLabel(action, t),
        },
        {
          key: 'changes',
          title: t('resource.audit.changes'),
          render: (_v, row) => <span style={{ wordBreak: 'break-word' }}>{changesText(row.changes)}</span>,
        },
      ]}
    />
  );
}
