import { useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router-dom';
import type { RouteEntry } from '../../app/routes/types';

/**
 * The title a screen on show gives itself (its heading, with what only it knows filled in: the option list
 * of `/settings/option/:key` is "Option list: Nationality"), over its route's title key.
 */
let screenTitle: string | null = null;
const listeners = new Set<() => void>();

function setScreenTitle(title: string | null): void {
  if (title === screenTitle) return;
  screenTitle = title;
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** A placeholder i18next left unfilled (`{{list}}`): such a text is never shown. */
const UNFILLED = /\{\{[^}]*\}\}/;

/**
 * A screen names the browser tab itself: its title as it shows it (translated, its values filled in). While the
 * screen is on show this wins over the route's title key.
 */
export function useScreenTitle(title: string | null | undefined): void {
  useEffect(() => {
    if (!title) return;
    setScreenTitle(title);
    return () => {
      if (screenTitle === title) setScreenTitle(null);
    };
  }, [title]);
}

/**
 * The browser tab shows the current screen's title and the application name: the title the screen gave itself
 * (`useScreenTitle`), else its route's title key (from the route table) when that needs no values, else the
 * application name alone. A title key with placeholders (`settings.option.title`: "Option list: {{list}}") has
 * its values only on its screen: the tab never shows a raw `{{list}}`.
 */
export function useDocumentTitle(appNameKey: string): void {
  const { t } = useTranslation();
  const matches = useMatches();
  const own = useSyncExternalStore(subscribe, () => screenTitle);
  const entry = [...matches]
    .reverse()
    .map((m) => (m.handle as { entry?: RouteEntry } | undefined)?.entry)
    .find(Boolean);
  const fromRoute = entry?.titleKey ? t(entry.titleKey) : null;
  const screen = own ?? (fromRoute && !UNFILLED.test(fromRoute) ? fromRoute : null);
  const title = screen ? `${screen} · ${t(appNameKey)}` : t(appNameKey);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
