import type { ComponentType, ReactNode } from 'react';
import { Breadcrumb, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { lookupNameField, type ResourceDeclaration } from '../../../../shared/resources/declaration';
import { DECLARATIONS } from '../../../../shared/resources';
import { declaredScreen } from './declared-pages';
import { childOfTab, childrenOfTab } from './declared-routes';
import {
  configFromDeclaration,
  declaredFields,
  type DeclarationOverrides,
  type DeclaredTabOverride,
} from './from-declaration';
import { recordActionsOf } from './record-actions';
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

/** The page of one record of a declared resource (its first tab when it has tabs), or null without a page. */
export function declaredRecordRoute(decl: ResourceDeclaration, id: unknown): string | null {
  if (!decl.page || id === null || id === undefined) return null;
  return decl.tabs?.length ? `${decl.page.route}/${decl.tabs[0]}/${id}` : `${decl.page.route}/${id}`;
}

/**
 * A child's columns in a list under one record: the column that record fixes is left out (every row holds it), and
 * — in a list under another record it names (`listedUnder`) — its parent's column links to the parent's page.
 */
function childColumns(
  child: ResourceDeclaration,
  fixed: string,
  change: DeclarationOverrides | undefined,
  declarations: readonly ResourceDeclaration[],
): DeclarationOverrides {
  const own = change?.columns;
  const columns: NonNullable<DeclarationOverrides['columns']> =
    typeof own === 'function' ? {} : { ...own, [fixed]: false };
  const parent = child.parent ? declarations.find((d) => d.name === child.parent!.resource) : undefined;
  if (parent && child.parent!.column !== fixed && columns[child.parent!.column] === undefined) {
    const column = child.parent!.column;
    columns[column] = {
      render: (row) => {
        const name = String(row[lookupNameField(column)] ?? '');
        const to = declaredRecordRoute(parent, row[column]);
        return to ? <Link to={to}>{name}</Link> : name;
      },
    };
  }
  return { ...change, columns: typeof own === 'function' ? own : columns };
}

/**
 * A tab listing, read only, a child of another resource that names this record (`listedUnder`: a student's event
 * registrations): `GET {apiPath}/{id}/{segment}`, each row's parent linking to its page; its declared moves stay
 * (whoever may move one does it here too).
 */
function ListedTab({
  config,
  segment,
  ctx,
}: {
  config: ResourceConfig;
  segment: string;
  ctx: RecordTabContext;
}) {
  return <EmbeddedResourceTable config={config} apiPath={`${ctx.apiPath}/${ctx.id}/${segment}`} />;
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
  tabChildren: ResourceDeclaration['tabChildren'] = decl.tabChildren,
): RecordTab[] {
  return (decl.tabs ?? []).map((key, index) => {
    const change = overrides?.recordTabs?.[key];
    const labelKey = `resources.${decl.name}.tabs.${key}`;
    const permission = change?.permission;
    if (change?.render) return framed({ key, labelKey, permission, render: change.render }, change);
    if (index === 0) return framed({ ...formTab(config, { key, labelKey }), permission }, change);
    // a tab with fields of its own (a quotation's contract): their form, saved on its own
    if (Object.values(decl.fields).some((field) => field.tab === key) && config.form) {
      const tabConfig: ResourceConfig = {
        ...config,
        form: { ...config.form, fields: declaredFields(decl, key) },
      };
      return framed({ ...formTab(tabConfig, { key, labelKey }), permission }, change);
    }
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
    const listed = declarations.find(
      (d) => d.listedUnder?.resource === decl.name && d.listedUnder.tab === key,
    );
    if (listed?.listedUnder) {
      const { column, segment } = listed.listedUnder;
      const parentColumn = listed.parent?.column;
      const listedConfig = configFromDeclaration(listed, {
        // a row here is named by its parent (a registration by its event), unless the screen says otherwise
        ...(parentColumn
          ? { recordTitle: (row) => String(row[lookupNameField(parentColumn)] ?? row.id ?? '') }
          : {}),
        ...childColumns(listed, column, change?.child, declarations),
        readOnly: true,
      });
      return framed(
        {
          key,
          labelKey,
          permission: permission ?? viewOfOther(listed, decl),
          render: (_record: ResourceRow, ctx: RecordTabContext) => (
            <ListedTab config={listedConfig} segment={segment} ctx={ctx} />
          ),
        },
        change,
      );
    }
    const child = childOfTab(decl, key, declarations);
    if (child?.parent) {
      const childConfig = configFromDeclaration(
        child,
        childColumns(child, child.parent.column, change?.child, declarations),
      );
      const segment = child.parent.segment;
      return framed(
        {
          key,
          labelKey,
          permission: permission ?? viewOfOther(child, decl),
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

/** A tab listing a resource of another module needs that module's view key (an event's registrations: students'). */
function viewOfOther(listed: ResourceDeclaration, decl: ResourceDeclaration): string | undefined {
  return listed.module !== decl.module ? `${listed.module}.view` : undefined;
}

/** The record page of a declaration with `tabs` (`/schools/basic/5` …). */
export function declaredRecordScreen(
  decl: ResourceDeclaration,
  overrides?: DeclarationOverrides,
  tabChildren: ResourceDeclaration['tabChildren'] = decl.tabChildren,
  /** a tab's path segment when not its key (spec `/students/invoice/:id` for the tab `order`) */
  segments: Readonly<Record<string, string>> = {},
): ComponentType {
  return declaredScreen(decl, 'record', overrides, (config) => {
    const tabs = declaredRecordTabs(decl, config, overrides, DECLARATIONS, tabChildren).map((tab) =>
      segments[tab.key] ? { ...tab, segment: segments[tab.key] } : tab,
    );
    const base = decl.page?.route ?? (typeof config.routePath === 'string' ? config.routePath : '');
    // its state moves, its print and the screen's own actions, beside its title
    const actions = recordActionsOf(decl, config, overrides?.recordActions);
    return function DeclaredRecordScreen() {
      return <ResourceRecordPage config={config} base={base} tabs={tabs} actions={actions} />;
    };
  });
}
