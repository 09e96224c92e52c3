import type { ComponentType } from 'react';
import type { Features } from '../../../../shared/features';
import { can } from '../../../../shared/permissions';
import type { User } from '../types';
import type { RouteEntry, RouteTable } from './types';

export interface MenuLeaf {
  key: string;
  path: string;
  labelKey: string;
  icon?: ComponentType;
}
export interface MenuBranch {
  key: string;
  labelKey: string;
  icon?: ComponentType;
  children: MenuLeaf[];
}
export type MenuNode = MenuLeaf | MenuBranch;

/**
 * The menu, from the route table: every entry with a `menu` the user may open (its permission), grouped,
 * in order, leaving out screens of a disabled feature. Groups with nothing left in them disappear.
 */
export function buildMenu(table: RouteTable, user: User | null, features?: Partial<Features>): MenuNode[] {
  const visible = table.routes
    .filter((r) => r.menu && (!r.permission || can(user, r.permission)))
    .filter((r) => !r.feature || features?.[r.feature] !== false)
    .sort((a, b) => (a.menu!.order ?? 0) - (b.menu!.order ?? 0));
  const leaf = (r: RouteEntry): MenuLeaf => ({
    key: r.path,
    path: r.path,
    labelKey: r.menu!.labelKey,
    icon: r.menu!.icon,
  });

  const nodes: { order: number; node: MenuNode }[] = [];
  for (const r of visible.filter((v) => !v.menu!.group))
    nodes.push({ order: r.menu!.order ?? 0, node: leaf(r) });
  for (const group of table.menuGroups) {
    const children = visible.filter((v) => v.menu!.group === group.id).map(leaf);
    if (children.length > 0) {
      nodes.push({
        order: group.order,
        node: { key: `group:${group.id}`, labelKey: group.labelKey, icon: group.icon, children },
      });
    }
  }
  return nodes.sort((a, b) => a.order - b.order).map((n) => n.node);
}

/** The menu key to highlight for a path: the longest menu path that prefixes it. */
export function selectedMenuKey(table: RouteTable, pathname: string): string | undefined {
  return table.routes
    .filter((r) => r.menu && (pathname === r.path || pathname.startsWith(`${r.path}/`)))
    .sort((a, b) => b.path.length - a.path.length)[0]?.path;
}
