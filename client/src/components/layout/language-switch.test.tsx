import { screen, waitFor } from '@testing-library/react';
import { appActions } from '../../app/app-slice';
import { makeStore } from '../../app/store';
import type { User } from '../../app/types';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { fakeResponse, installFetch } from '../../test/http-fakes';
import { renderInShell } from '../../test/render-screens';
import { LanguageSwitch } from './language-switch';

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

function setup(user: User | null) {
  const store = makeStore('backoffice');
  if (user) store.dispatch(appActions.setUser(user));
  const { user: ui } = renderInShell(store, <LanguageSwitch />);
  return { store, ui };
}

describe('the header’s language switch', () => {
  beforeEach(() => {
    resetCsrfToken();
    window.localStorage.clear();
    initI18n('en');
  });

  it('saves the choice to the signed-in user’s profile', async () => {
    const calls = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'PUT /api/user/profile': fakeResponse(200, {
        user: { ...USER, language: 'zh_HK' },
        verification: null,
      }),
    });
    const { store, ui } = setup(USER);
    await ui.click(screen.getByTestId('language-switch'));
    await ui.click(await screen.findByText('繁體中文', { selector: '.ant-dropdown-menu-title-content' }));
    expect(store.getState().app.user?.language).toBe('zh_HK');
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/api/user/profile'))).toBe(true));
    const put = calls.find((c) => c.url.endsWith('/api/user/profile'))!;
    expect(put.init.method).toBe('PUT');
    expect(JSON.parse(put.init.body as string)).toEqual({ language: 'zh_HK' });
    // not a choice waiting for a sign-in
    expect(window.localStorage.getItem('locale_chosen')).toBeNull();
  });

  it('signed out, keeps the choice for the next sign-in and sends nothing', async () => {
    const calls = installFetch({});
    const { ui } = setup(null);
    await ui.click(screen.getByTestId('language-switch'));
    await ui.click(await screen.findByText('繁體中文', { selector: '.ant-dropdown-menu-title-content' }));
    expect(window.localStorage.getItem('locale_chosen')).toBe('zh_HK');
    expect(calls).toHaveLength(0);
  });
});
