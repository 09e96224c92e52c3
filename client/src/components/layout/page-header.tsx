import { createContext, useContext, type ReactNode } from 'react';
import { Breadcrumb } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { selectedMenuKey } from '../../app/routes/menu';
import type { RouteTable } from '../../app/routes/types';

/** The route table of the frame around the screen (the back-office's): the page header's breadcrumbs read it. */
export const RouteTableContext = createContext<RouteTable | null>(null);

/** One step of a breadcrumb trail: a link when `to` is given. */
export interface Crumb {
  title: ReactNode;
  to?: string;
}

/** The start page every trail begins with. */
const HOME = '/home';

/**
 * The trail to a path from the route table: the start page, the menu group (unless named as the entry), the menu
 * entry holding the path (a link unless it is the path itself). Empty outside a frame with a route table.
 */
export function routeTrail(table: RouteTable | null, pathname: string, t: (key: string) => string): Crumb[] {
  if (!table) return [];
  const trail: Crumb[] = [];
  const home = table.routes.find((r) => r.path === HOME && r.menu);
  if (home) trail.push({ title: t(home.menu!.labelKey), to: pathname === HOME ? undefined : HOME });
  const key = selectedMenuKey(table, pathname);
  const entry = key && key !== HOME ? table.routes.find((r) => r.path === key) : undefined;
  if (entry?.menu) {
    const group = table.menuGroups.find((g) => g.id === entry.menu!.group);
    const entryTitle = t(entry.menu.labelKey);
    // a group named as its entry (Schools / Schools) is one step: the entry's, a link to its list
    if (group && t(group.labelKey) !== entryTitle) trail.push({ title: t(group.labelKey) });
    trail.push({ title: entryTitle, to: pathname === entry.path ? undefined : entry.path });
  }
  return trail;
}

/**
 * The head of every back-office screen (ant-design-pro's page header): the breadcrumbs (from the route table and
 * menu groups, then the screen's own `crumbs`), the screen's title — its one `h1` — and its actions on the right.
 */
export function PageHeader({
  title,
  extra,
  crumbs = [],
  children,
}: {
  title: ReactNode;
  /** the screen's own actions, beside the title */
  extra?: ReactNode;
  /** the trail below the menu entry (a list's record: the record's name) */
  crumbs?: Crumb[];
  /** more under the title (a subtitle, a status) */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const table = useContext(RouteTableContext);
  const trail = routeTrail(table, pathname, t);
  // a screen's crumb the route table already gives (the list the record belongs to) is not repeated
  const own = crumbs.filter(
    (c) => !c.to || !trail.some((step) => step.to === c.to || step.title === c.title),
  );
  // a screen without a menu entry of its own ends the trail with its title
  const entryPath = selectedMenuKey(table ?? { routes: [], menuGroups: [] }, pathname) ?? HOME;
  const steps = [...trail, ...own];
  if (table && !own.length && pathname !== entryPath) steps.push({ title });
  // never the same words twice in a row (a screen titled as its menu entry): the later step, the more precise
  const all = steps.filter(
    (c, i) => !(typeof c.title === 'string' && i + 1 < steps.length && steps[i + 1].title === c.title),
  );
  const items = all.map((c) => ({ title: c.to ? <Link to={c.to}>{c.title}</Link> : c.title }));
  return (
    <div className="page-header" data-testid="page-header">
      {items.length > 0 && (
        <Breadcrumb className="page-header__breadcrumb" items={items} aria-label={t('layout.breadcrumb')} />
      )}
      <div className="page-header__row">
        <h1 className="page-header__title">{title}</h1>
        {extra && <div className="page-header__extra">{extra}</div>}
      </div>
      {children}
    </div>
  );
}
