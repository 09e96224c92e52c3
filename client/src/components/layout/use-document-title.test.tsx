import { render, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router-dom';
import { initI18n } from '../../i18n/i18n';
import type { RouteEntry } from '../../app/routes/types';
import { useDocumentTitle, useScreenTitle } from './use-document-title';

function Frame() {
  useDocumentTitle('app.name');
  return <Outlet />;
}

/** The option list's screen: its title needs the list's name, which only the screen knows. */
function OptionList() {
  useScreenTitle('Option list: Nationality');
  return null;
}

const entry = (path: string, titleKey: string): { entry: RouteEntry } => ({
  entry: { path, access: 'signed-in', titleKey },
});

function open(path: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: <Frame />,
        children: [
          {
            path: 'settings/option/:key',
            element: <OptionList />,
            handle: entry('/settings/option/:key', 'settings.option.title'),
          },
          {
            path: 'settings/option/:key/raw',
            element: null,
            handle: entry('/settings/option/:key/raw', 'settings.option.title'),
          },
          { path: 'home', element: null, handle: entry('/home', 'home.title') },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => initI18n('en'));

describe('the browser tab title', () => {
  it('is the route’s title and the application name', async () => {
    open('/home');
    await waitFor(() => expect(document.title).toBe('Home · Study Abroad Admin'));
  });

  it('is the title a screen gives itself, its values filled in', async () => {
    open('/settings/option/nationality');
    await waitFor(() => expect(document.title).toBe('Option list: Nationality · Study Abroad Admin'));
  });

  it('never shows a placeholder left unfilled ({{list}})', async () => {
    expect(i18next.t('settings.option.title')).toContain('{{list}}');
    open('/settings/option/nationality/raw');
    await waitFor(() => expect(document.title).toBe('Study Abroad Admin'));
    expect(document.title).not.toContain('{{');
  });
});
