import type { ReactNode } from 'react';
import { PrinterOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { can } from '../../../../shared/permissions';
import type { ResourceDeclaration } from '../../../../shared/resources/declaration';
import { buildUrl } from '../../http/client';
import { useAppSelector } from '../../app/hooks';
import { MoveButton } from './move-button';
import { recordAllows } from './record-access';
import type { RecordTabContext } from './resource-record-page';
import type { ResourceConfig, ResourceRow } from './types';

/** The PDF of a record (`GET {apiPath}/{id}?format=pdf`, `&tab=` a printable tab but the first). */
export function printUrl(
  decl: Pick<ResourceDeclaration, 'printable' | 'tabs'>,
  apiPath: string,
  id: string | number,
  tab: string | undefined,
): string {
  const tabs = decl.printable?.tabs ?? [];
  const printTab = tab && tabs.includes(tab) && tab !== decl.tabs?.[0] ? tab : undefined;
  return buildUrl(`${apiPath}/${id}`, {
    format: 'pdf',
    ...(printTab ? { tab: printTab } : {}),
  });
}

/**
 * A declared record's actions beside its title: the state moves its `allowed_actions` lists now (each asking
 * first, with its input: see `MoveButton`), Print for a printable record (its PDF downloaded: the shown tab's
 * document where that tab prints, a quotation's contract), and the screen's own (convert, e-mail).
 */
export function RecordActions({
  decl,
  config,
  record,
  ctx,
  extra,
}: {
  decl: ResourceDeclaration;
  config: ResourceConfig;
  record: ResourceRow;
  ctx: RecordTabContext;
  extra?: (record: ResourceRow, ctx: RecordTabContext) => ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const user = useAppSelector((s) => s.app.user);
  const name = config.recordTitle(record, i18n.language);
  const moves = Object.entries(decl.states?.actions ?? {}).filter(
    ([action, declared]) =>
      Array.isArray(record.allowed_actions) &&
      recordAllows(record, action) &&
      can(user, declared.permission ?? `${decl.module}.update`),
  );
  return (
    <Space wrap data-testid="record-actions">
      {moves.map(([action, declared]) => (
        <MoveButton
          key={action}
          resource={decl.name}
          apiPath={ctx.apiPath}
          id={record.id}
          action={action}
          declared={declared}
          recordName={name}
          size="middle"
          invalidates={[ctx.apiPath]}
          onMoved={ctx.reload}
        />
      ))}
      {decl.printable && (
        <Button
          icon={<PrinterOutlined />}
          href={printUrl(decl, ctx.apiPath, record.id, ctx.tab)}
          download
          data-testid="record-print"
        >
          {t('resource.print')}
        </Button>
      )}
      {extra?.(record, ctx)}
    </Space>
  );
}

/**
 * The actions beside a declared record's title (its page with tabs, or its form page): its state moves, Print
 * and the screen's own; none for a declaration with neither.
 */
export function recordActionsOf(
  decl: ResourceDeclaration,
  config: ResourceConfig,
  extra: ((record: ResourceRow, ctx: RecordTabContext) => ReactNode) | undefined,
): ((record: ResourceRow, ctx: RecordTabContext) => ReactNode) | undefined {
  if (!decl.states && !decl.printable && !extra) return undefined;
  return function actions(record, ctx) {
    return <RecordActions decl={decl} config={config} record={record} ctx={ctx} extra={extra} />;
  };
}
