import type { Locale } from '../../../../shared/features';
import { readJson, writeJson } from '../../app/storage';

/** Spec: the recent-records list shows 20 task or route records. */
export const RECENT_LIMIT = 20;

/** A visit's title in each interface language, so the list is read in the language shown, whichever it was visited in. */
export type RecentTitles = Partial<Record<Locale, string>>;

export interface RecentRecord {
  path: string;
  titles: RecentTitles;
  /** a record (a form page) or a screen (a list page) */
  kind: 'record' | 'route';
  /** ms since epoch */
  at: number;
}

const PREFIX = 'recent:';

/** Per user (keyed by the user's id), in local storage; cleared at sign-out. */
export function recentKey(userId: number): string {
  return `${PREFIX}${userId}`;
}

function titlesOf(entry: { titles?: unknown; title?: unknown }): RecentTitles | null {
  if (entry.titles && typeof entry.titles === 'object') {
    const titles: RecentTitles = {};
    for (const locale of ['en', 'zh_HK'] as const) {
      const title = (entry.titles as Record<string, unknown>)[locale];
      if (typeof title === 'string' && title) titles[locale] = title;
    }
    return Object.keys(titles).length ? titles : null;
  }
  return null;
}

export function readRecent(userId: number): RecentRecord[] {
  const list = readJson<unknown[]>(recentKey(userId));
  if (!Array.isArray(list)) return [];
  const out: RecentRecord[] = [];
  for (const raw of list) {
    const entry = raw as Partial<RecentRecord> | null;
    // entries from before titles were kept per language (one title, one language) are dropped
    const titles = entry && typeof entry.path === 'string' ? titlesOf(entry) : null;
    if (entry && titles) {
      out.push({
        path: entry.path!,
        titles,
        kind: entry.kind === 'route' ? 'route' : 'record',
        at: Number(entry.at) || 0,
      });
    }
  }
  return out;
}

/** A visit's title in the language shown (the other language's when it has none in it). */
export function recentTitle(record: RecentRecord, locale: Locale): string {
  return record.titles[locale] ?? record.titles[locale === 'en' ? 'zh_HK' : 'en'] ?? record.path;
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

/** Forget every user's recent list in this browser (sign-out). */
export function clearAllRecent(): void {
  try {
    const storage = window.localStorage;
    const keys: string[] = [];
    for (let i = 0; i < storage.length; i += 1) {
      const key = storage.key(i);
      if (key?.startsWith(PREFIX)) keys.push(key);
    }
    for (const key of keys) storage.removeItem(key);
  } catch {
    // storage unavailable: nothing kept
  }
}
