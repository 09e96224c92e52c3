import { act, screen } from '@testing-library/react';
import { appActions } from '../../app/app-slice';
import { makeStore } from '../../app/store';
import type { User } from '../../app/types';
import { signedOut } from '../../features/auth/session';
import { initI18n } from '../../i18n/i18n';
import { renderScreens } from '../../test/render-screens';
import { RecentRecordsButton, useRememberVisit } from './recent-records-button';
import { readRecent, recentKey, rememberVisit } from './recent-records';

jest.setTimeout(30_000);

const USER: User = {
  id: 7,
  name: 'Chan Tai Man',
  email: 'chan@example.com',
  is_admin: false,
  language: 'en',
  branch_id: 1,
  role: null,
  permissions: [],
  two_factor_enabled: false,
  profile_photo_url: null,
};

/** A record screen whose title depends on the language (like a list title and a record's bilingual name). */
function RecordScreen() {
  useRememberVisit(
    '/students/3',
    (t, lng) => `${t('language.label')} · ${lng === 'en' ? 'Chan Tai Man' : '陳大文'}`,
    'record',
  );
  return (
    <>
      <p>Record</p>
      <RecentRecordsButton />
    </>
  );
}

function setup(user: User = USER) {
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(user));
  const { user: ui } = renderScreens(
    store,
    [{ path: 'students/3', element: <RecordScreen /> }],
    '/students/3',
  );
  return { store, ui };
}

describe('recent records', () => {
  beforeEach(() => {
    window.localStorage.clear();
    initI18n('en');
  });

  it('keeps a visit’s title in both languages and lists it in the language shown', async () => {
    const { ui } = setup();
    expect(readRecent(7)).toEqual([
      expect.objectContaining({
        path: '/students/3',
        titles: { en: 'Language · Chan Tai Man', zh_HK: '語言 · 陳大文' },
      }),
    ]);
    // visited in English, read in Chinese: no English left in the list
    act(() => void initI18n('zh_HK'));
    await ui.click(screen.getByRole('button', { name: /最近/ }));
    expect(await screen.findByRole('link', { name: '語言 · 陳大文' })).toBeInTheDocument();
    expect(screen.queryByText(/Chan Tai Man/)).toBeNull();
  });

  it('is per user: another user’s visits are not listed', async () => {
    rememberVisit(8, { path: '/students/9', titles: { en: 'Other', zh_HK: '其他' }, kind: 'record' });
    const { ui } = setup();
    await ui.click(screen.getByRole('button', { name: /Recent/ }));
    expect(await screen.findByRole('link', { name: /Chan Tai Man/ })).toBeInTheDocument();
    expect(screen.queryByText('Other')).toBeNull();
  });

  it('is forgotten at sign-out, every user’s', () => {
    rememberVisit(7, { path: '/a', titles: { en: 'A' }, kind: 'route' });
    rememberVisit(8, { path: '/b', titles: { en: 'B' }, kind: 'route' });
    window.localStorage.setItem('locale', 'en');
    const store = makeStore('backoffice');
    signedOut(store.dispatch);
    expect(window.localStorage.getItem(recentKey(7))).toBeNull();
    expect(window.localStorage.getItem(recentKey(8))).toBeNull();
    // the language is a preference of the browser, not of the session
    expect(window.localStorage.getItem('locale')).toBe('en');
  });

  it('drops entries kept with one title in one language (before titles were kept per language)', () => {
    window.localStorage.setItem(
      recentKey(7),
      JSON.stringify([{ path: '/x', title: 'Students · Chan', kind: 'record', at: 1 }]),
    );
    expect(readRecent(7)).toEqual([]);
  });
});
