import type { ComponentType } from 'react';
import type { Params } from 'react-router-dom';
import type { FeatureFlag } from '../../../../shared/features';
import type { QueryParams } from '../../http/client';
import type { AppStore } from '../store';
import type { Student, User } from '../types';

/**
 * Who may open a route.
 * - `public`: anyone (e.g. /test).
 * - `guest`: sign-in screens; someone already signed in is sent to `/`.
 * - `signed-in`: needs a signed-in user (back-office) or student (portal), else `/login`.
 * - `any`: the error screens, reachable whoever you are (the HTTP client sends people there from
 *   public screens too).
 */
export type RouteAccess = 'public' | 'guest' | 'signed-in' | 'any';

export type LazyPage = () => Promise<{ default: ComponentType }>;

export interface RouteDataCall {
  /** The GET data call, e.g. `/api/schools` or `(p) => \`/api/schools/${p.id}\``. */
  url: string | ((params: Params) => string);
  /**
   * Query added to the call: fixed values (`{ tab: 'contract' }`) or defaults computed when the route
   * opens (`() => ({ year: thisYear })`). The route's own query string is appended on top.
   */
  query?: QueryParams | ((params: Params) => QueryParams);
}

export interface RouteMenuEntry {
  /** i18n key of the menu label. */
  labelKey: string;
  /** Menu group id (see MenuGroup); top level when absent. */
  group?: string;
  icon?: ComponentType;
  order?: number;
}

/** One row of the route table: the menu, the guards and the loaders all read this one structure. */
export interface RouteEntry {
  path: string;
  access: RouteAccess;
  /** The screen, loaded lazily so a route pays only for what it uses. */
  page?: LazyPage;
  /**
   * A redirect-only route (e.g. `/` → `/calendar`), or where to go computed as the route opens (the URL and the
   * store at hand: `/reload?to=…` asks for a fresh view of `to`).
   */
  redirectTo?: string | ((context: { url: URL; store: AppStore }) => string);
  data?: RouteDataCall;
  /** Permission key (shared/permissions.ts) the user must hold. */
  permission?: string;
  /** Where a user without the permission goes; `/error-403` when absent. */
  deniedRedirect?: string;
  /** Feature flag (shared/features.ts) the screen belongs to: off, it leaves the menu and answers not-found. */
  feature?: FeatureFlag;
  menu?: RouteMenuEntry;
  /** i18n key of the page title (browser tab). */
  titleKey?: string;
}

export interface MenuGroup {
  id: string;
  labelKey: string;
  icon?: ComponentType;
  order: number;
}

/**
 * A front end's own check before a signed-in route opens (the portal's: a password staff set is changed first):
 * the path to go to instead, or null.
 */
export type RouteGuard = (
  entry: RouteEntry,
  app: { user: User | null; student: Student | null },
) => string | null;

export interface RouteTable {
  routes: RouteEntry[];
  menuGroups: MenuGroup[];
  guard?: RouteGuard;
}
