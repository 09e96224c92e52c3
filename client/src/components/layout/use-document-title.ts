import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router-dom';
import type { RouteEntry } from '../../app/routes/types';

/** The browser tab shows the current route's title (from the route table) and the application name. */
export function useDocumentTitle(appNameKey: string): void {
  const { t } = useTranslation();
  const matches = useMatches();
  const entry = [...matches]
    .reverse()
    .map((m) => (m.handle as { entry?: RouteEntry } | undefined)?.entry)
    .find(Boolean);
  const title = entry?.titleKey ? `${t(entry.titleKey)} · ${t(appNameKey)}` : t(appNameKey);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
