import { readJson, writeJson } from '../../app/storage';

/** Spec: the recent-records list shows 20 task or route records. */
export const RECENT_LIMIT = 20;

export interface RecentRecord {
  path: string;
  title: string;
  /** a record (a form page) or a screen (a list page) */
  kind: 'record' | 'route';
  /** ms since epoch */
  at: number;
}

/** Per user, in local storage. */
export function recentKey(userId: number): string {
  return `recent:${userId}`;
}

export function readRecent(userId: number): RecentRecord[] {
  const list = readJson<RecentRecord[]>(recentKey(userId));
  return Array.isArray(list)
    ? list.filter((r) => r && typeof r.path === 'string' && typeof r.title === 'string')
    : [];
}

/** Put a visit first; an earlier visit of the same path moves up instead of repeating; 20 kept. */
export function rememberVisit(
  userId: number,
  visit: Omit<RecentRecord, 'at'>,
  at = Date.now(),
): RecentRecord[] {
  const list = [{ ...visit, at }, ...readRecent(userId).filter((r) => r.path !== visit.path)].slice(
    0,
    RECENT_LIMIT,
  );
  writeJson(recentKey(userId), list);
  return list;
}
