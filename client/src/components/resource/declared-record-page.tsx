import type { ComponentType, ReactNode } from 'react';
import { Breadcrumb, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type { ResourceDeclaration } from '../../../../shared/resources/declaration';
import { DECLARATIONS } from '../../../../shared/resources';
import { declaredScreen } from './declared-pages';
import { childOfTab, childrenOfTab, type DeclaredPageOptions } from './declared-routes';
import {
  configFromDeclaration,
  type DeclarationOverrides,
  type DeclaredTabOverride,
} from './from-declaration';
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
  below,
}: {
  config: ResourceConfig;
  apiPath: string;
  listPath: string;
  sub: string;
  /** shown under the form of an existing record (an application's document checklist) */
  below?: (record: ResourceRow) => ReactNode;
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
      {!creating && data && below?.(data as ResourceRow)}
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
  below,
}: {
  config: ResourceConfig;
  segment: string;
  ctx: RecordTabContext;
  below?: DeclaredTabOverride['childRecordBelow'];
}) {
  const apiPath = `${ctx.apiPath}/${ctx.id}/${segment}`;
  if (ctx.sub)
    return (
      <ChildRecord
        key={ctx.sub}
        config={config}
        apiPath={apiPath}
        listPath={ctx.tabPath}
        sub={ctx.sub}
        below={below ? (row) => below(row, ctx) : undefined}
      />
    );
  return <EmbeddedResourceTable config={config} apiPath={apiPath} routePath={ctx.tabPath} />;
}

/** One of the children a tab lists (see `tabChildren`): its config, its API segment, its records' path part. */
interface TabChild {
  part: string;
  segment: string;
  config: ResourceConfig;
}

/**
 * A tab listing several child resources (a student's family members and educations): each one's list embedded,
 * under its title, its records opening under the tab and its part (`/students/family/5/member/12`,
 * `/students/family/5/education/create`): one record at a time, in place of the lists.
 */
function ChildrenTab({ items, ctx }: { items: TabChild[]; ctx: RecordTabContext }) {
  const { t } = useTranslation();
  const [part, sub, ...rest] = (ctx.sub ?? '').split('/');
  const open = sub && !rest.length ? items.find((item) => item.part === part) : undefined;
  if (open)
    return (
      <ChildRecord
        key={ctx.sub}
        config={open.config}
        apiPath={`${ctx.apiPath}/${ctx.id}/${open.segment}`}
        listPath={ctx.tabPath}
        sub={sub}
      />
    );
  return (
    <Space orientation="vertical" size="large" style={{ display: 'flex' }}>
      {items.map((item) => (
        <section key={item.part} data-testid={`tab-child-${item.config.name}`}>
          <Typography.Title level={4} style={{ marginTop: 0 }}>
            {t(item.config.titleKey)}
          </Typography.Title>
          <EmbeddedResourceTable
            config={item.config}
            apiPath={`${ctx.apiPath}/${ctx.id}/${item.segment}`}
            routePath={`${ctx.tabPath}/${item.part}`}
          />
        </section>
      ))}
    </Space>
  );
}

/** A tab with what the screen shows above and below its derived content. */
function framed(tab: RecordTab, change: DeclaredTabOverride | undefined): RecordTab {
  const above = change?.above;
  const below = change?.below;
  if (!above && !below) return tab;
  return {
    ...tab,
    render: (record, ctx) => (
      <>
        {above?.(record, ctx)}
        {tab.render(record, ctx)}
        {below?.(record, ctx)}
      </>
    ),
  };
}

/**
 * The tabs of a declaration's record page, from its `tabs`, labelled `resources.<name>.tabs.<tab>`: the first is
 * the record's form; a tab naming a child resource lists it (see `childOfTab`), a tab of `tabChildren` lists
 * several (see `ChildrenTab`); the screen's overrides (`recordTabs`) give a tab its own content, a permission,
 * the children's overrides, or more above and below.
 */
export function declaredRecordTabs(
  decl: ResourceDeclaration,
  config: ResourceConfig,
  overrides: DeclarationOverrides | undefined,
  declarations: readonly ResourceDeclaration[] = DECLARATIONS,
  tabChildren?: DeclaredPageOptions['tabChildren'],
): RecordTab[] {
  return (decl.tabs ?? []).map((key, index) => {
    const change = overrides?.recordTabs?.[key];
    const labelKey = `resources.${decl.name}.tabs.${key}`;
    const permission = change?.permission;
    if (change?.render) return framed({ key, labelKey, permission, render: change.render }, change);
    if (index === 0) return framed({ ...formTab(config, { key, labelKey }), permission }, change);
    const several = tabChildren?.[key];
    if (several) {
      const items: TabChild[] = childrenOfTab(decl, key, several, declarations).map(({ part, child }) => ({
        part,
        segment: child.parent!.segment,
        config: configFromDeclaration(child, change?.children?.[part]),
      }));
      return framed(
        {
          key,
          labelKey,
          permission,
          render: (_record: ResourceRow, ctx: RecordTabContext) => <ChildrenTab items={items} ctx={ctx} />,
        },
        change,
      );
    }
    const child = childOfTab(decl, key, declarations);
    if (child?.parent) {
      const childConfig = configFromDeclaration(child, change?.child);
      const segment = child.parent.segment;
      return framed(
        {
          key,
          labelKey,
          permission,
          render: (_record: ResourceRow, ctx: RecordTabContext) => (
            <ChildTab config={childConfig} segment={segment} ctx={ctx} below={change?.childRecordBelow} />
          ),
        },
        change,
      );
    }
    return framed({ key, labelKey, permission, render: () => null }, change);
  });
}

/** The record page of a declaration with `tabs` (`/schools/basic/5` …). */
export function declaredRecordScreen(
  decl: ResourceDeclaration,
  overrides?: DeclarationOverrides,
  tabChildren?: DeclaredPageOptions['tabChildren'],
): ComponentType {
  return declaredScreen(decl, 'record', overrides, (config) => {
    const tabs = declaredRecordTabs(decl, config, overrides, DECLARATIONS, tabChildren);
    const base = decl.page?.route ?? (typeof config.routePath === 'string' ? config.routePath : '');
    return function DeclaredRecordScreen() {
      return <ResourceRecordPage config={config} base={base} tabs={tabs} />;
    };
  });
}
