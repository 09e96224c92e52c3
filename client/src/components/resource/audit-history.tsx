import { Fragment, useState, type ReactNode } from 'react';
import { Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { firstLoadLocale } from '../first-load';
import type { ListResponse } from '../../../../shared/list';
import { fieldLabelKey } from '../../../../shared/resources/declaration';
import { declarationByName } from '../../../../shared/resources';
import { renderDeclaredValue } from './renderers';
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

/** A change's fields, each with its value before and after; null when the change is not a before / after pair. */
export function changeItems(
  changes: unknown,
): { field: string; before: Record<string, unknown>; after: Record<string, unknown> }[] | null {
  if (changes === null || changes === undefined || typeof changes !== 'object') return null;
  const c = changes as { before?: Record<string, unknown> | null; after?: Record<string, unknown> | null };
  if (c.before === undefined && c.after === undefined) return null;
  const before = c.before ?? {};
  const after = c.after ?? {};
  const empty = (v: unknown) => v === null || v === undefined || v === '';
  return (
    [...new Set([...Object.keys(before), ...Object.keys(after)])]
      // the record's bookkeeping is the log row's own (its time, its user, its record), and a field empty before and
      // after (a create leaving it blank) changed nothing
      .filter((field) => !BOOKKEEPING.has(field) && !(empty(before[field]) && empty(after[field])))
      .map((field) => ({ field, before, after }))
  );
}

const BOOKKEEPING = new Set(['id', 'created_at', 'updated_at', 'created_by', 'updated_by']);

/**
 * A change as the reader reads it (issue 31 §4): each field by its label in the reader's language, each value as
 * the record's screens show it — a declared value or option by its label, yes / no, money with its currency, a
 * date in Hong Kong — never raw field names and codes (`language: "en" → "zh_HK"`). A field the declaration does
 * not name (a setting, a change of the log's own) shows its name; a value no label names shows as it is.
 */
export function AuditChanges({ entity, changes }: { entity: string | null | undefined; changes: unknown }) {
  const { t, i18n } = useTranslation();
  const items = changeItems(changes);
  if (!items) return <>{changesText(changes)}</>;
  const decl = entity ? declarationByName(entity) : undefined;
  const helpers = { t, language: i18n.language };
  const valueOf = (field: string, row: Record<string, unknown>): ReactNode => {
    const value = row[field];
    if (value === null || value === undefined || value === '') return '—';
    const declared = decl?.fields[field];
    if (
      decl &&
      declared &&
      declared.type !== 'lookup' &&
      declared.type !== 'file' &&
      typeof value !== 'object'
    ) {
      const shown = renderDeclaredValue(decl, field, declared, row, helpers);
      if (shown !== '' && shown !== null) return shown;
    }
    return typeof value === 'string' ? value : JSON.stringify(value);
  };
  const labelOf = (field: string) =>
    entity ? t(fieldLabelKey(entity, field), { defaultValue: field }) : field;
  return (
    <span data-testid="audit-changes">
      {items.map(({ field, before, after }, i) => (
        <Fragment key={field}>
          {i > 0 && t('resource.audit.changeSeparator')}
          <span data-testid={`audit-change-${field}`}>
            {t('resource.audit.changeLabel', { label: labelOf(field) })}
            {valueOf(field, before)} → {valueOf(field, after)}
          </span>
        </Fragment>
      ))}
    </span>
  );
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
          render: (_v, row) => (
            <span style={{ wordBreak: 'break-word' }}>
              <AuditChanges entity={entity} changes={row.changes} />
            </span>
          ),
        },
      ]}
    />
  );
}
