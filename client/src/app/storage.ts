/**
 * Browser storage for what survives a reload: the signed-in user or student (spec §3 "may be restored
 * from browser storage") and the locale. Every access is guarded: storage can be unavailable or hold junk.
 */
export const STORAGE_KEYS = { user: 'user', student: 'student', locale: 'locale' } as const;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function readJson<T>(key: string): T | null {
  const raw = storage()?.getItem(key);
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' ? (value as T) : null;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown): void {
  const s = storage();
  if (!s) return;
  if (value === null || value === undefined) s.removeItem(key);
  else s.setItem(key, JSON.stringify(value));
}

export function readString(key: string): string | null {
  return storage()?.getItem(key) ?? null;
}

export function writeString(key: string, value: string): void {
  storage()?.setItem(key, value);
}
