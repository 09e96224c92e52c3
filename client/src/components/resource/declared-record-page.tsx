import type { ComponentType } from 'react';
import { Breadcrumb } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type { ResourceDeclaration } from '../../../../shared/resources/declaration';
import { DECLARATIONS } from '../../../../shared/resources';
import { declaredScreen } from './declared-pages';
import { childOfTab } from './declared-routes';
import { configFromDeclaration, type DeclarationOverrides } from './from-declaration';
import { useResourceReadQuery, useResourceRecordQuery } from './resource-api';
import { ResourceForm } from './resource-form-page';
import {
  EmbeddedResourceTable,
  formTab,
  ResourceRecordPage,
  type RecordTab,
  type RecordTabContext,
} from './resource-record-page';
import type { ResourceConfig, ResourceRow } from './types';

/**
 * A record of a child resource opened in its parent's tab (`/schools/admission/5/create`,
 * `/schools/admission/5/12`): the generic form over `GET {apiPath}/create` or `GET {apiPath}/{id}` (through RTK
 * Query: a save anywhere that touches it shows here); a save or delete goes back to the tab's list. The
 * unsaved-changes guard asks before leaving it, as on any form.
 */
function ChildRecord({
  config,
  apiPath,
  listPath,
  sub,
}: {
  config: ResourceConfig;
  apiPath: string;
  listPath: string;
  sub: string;
}) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const creating = sub === 'create';
  const record = useResourceRecordQuery(
    { path: apiPath, id: sub },
    { skip: creating, refetchOnMountOrArgChange: true },
  );
  const blank = useResourceReadQuery(
    { url: `${apiPath}/create` },
    { skip: !creating, refetchOnMountOrArgChange: true },
  );
  const data = (creating ? blank.currentData : record.currentData) as Record<string, unknown> | undefined;
  const back = () => navigate(listPath);
  const name = !creating && data ? config.recordTitle(data, i18n.language) : null;
  return (
    <div data-testid={`child-record-${config.name}`}>
      <Breadcrumb
        style={{ marginBottom: 16 }}
        items={[
          { title: <Link to={listPath}>{t(config.titleKey)}</Link> },
          {
            title: creating
              ? t('resource.createTitle', { name: t(`resources.${config.name}.record`) })
              : (name ?? ''),
          },
        ]}
      />
      {data && (
        <ResourceForm
          config={config}
          data={data}
          id={creating ? undefined : sub}
          apiPath={apiPath}
          routePath={listPath}
          onSaved={back}
          onDeleted={back}
          onRefused={() => void record.refetch()}
        />
      )}
    </div>
  );
}

/**
 * A tab listing a child resource (a school's subjects, its intakes): the child's list embedded
 * (`GET /api/schools/5/subjects`, with its search, filters, import and export), its records opening under the
 * tab (`/schools/subject/5/12`, `/schools/subject/5/create`).
 */
function ChildTab({
  config,
  segment,
  ctx,
}: {
  config: ResourceConfig;
  segment: string;
  ctx: RecordTabContext;
}) {
  const apiPath = `${ctx.apiPath}/${ctx.id}/${segment}`;
  if (ctx.sub)
    return (
      <ChildRecord key={ctx.sub} config={config} apiPath={apiPath} listPath={ctx.tabPath} sub={ctx.sub} />
    );
  return <EmbeddedResourceTable config={config} apiPath={apiPath} routePath={ctx.tabPath} />;
}

/**
 * The tabs of a declaration's record page, from its `tabs`, labelled `resources.<name>.tabs.<tab>`: the first is
 * the record's form; a tab naming a child resource lists it (see `childOfTab`); the screen's overrides
 * (`recordTabs`) give a tab its own content, a permission, or the child's overrides.
 */
export function declaredRecordTabs(
  decl: ResourceDeclaration,
  config: ResourceConfig,
  overrides: DeclarationOverrides | undefined,
  declarations: readonly ResourceDeclaration[] = DECLARATIONS,
): RecordTab[] {
  return (decl.tabs ?? []).map((key, index) => {
    const change = overrides?.recordTabs?.[key];
    const labelKey = `resources.${decl.name}.tabs.${key}`;
    const permission = change?.permission;
    if (change?.render) return { key, labelKey, permission, render: change.render };
    if (index === 0) return { ...formTab(config, { key, labelKey }), permission };
    const child = childOfTab(decl, key, declarations);
    if (child?.parent) {
      const childConfig = configFromDeclaration(child, change?.child);
      const segment = child.parent.segment;
      return {
        key,
        labelKey,
        permission,
        render: (_record: ResourceRow, ctx: RecordTabContext) => (
          <ChildTab config={childConfig} segment={segment} ctx={ctx} />
        ),
      };
    }
    return { key, labelKey, permission, render: () => null };
  });
}

/** The record page of a declaration with `tabs` (`/schools/basic/5` …). */
export function declaredRecordScreen(
  decl: ResourceDeclaration,
  overrides?: DeclarationOverrides,
): ComponentType {
  return declaredScreen(decl, 'record', overrides, (config) => {
    const tabs = declaredRecordTabs(decl, config, overrides);
    const base = decl.page?.route ?? (typeof config.routePath === 'string' ? config.routePath : '');
    return function DeclaredRecordScreen() {
      return <ResourceRecordPage config={config} base={base} tabs={tabs} />;
    };
  });
}
