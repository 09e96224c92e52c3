import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { createMemoryRouter, Outlet, RouterProvider, type RouteObject } from 'react-router-dom';
import type { AppStore } from '../app/store';
import { AntdProvider } from '../components/antd-provider';
import { UnsavedChangesGuard } from '../components/layout/unsaved-changes-guard';

/**
 * Renders screens as the app shell holds them (antd provider, unsaved-changes guard, the store) under a
 * memory router opened at `path`: the one set-up of the page tests.
 */
export function renderScreens(store: AppStore, screens: RouteObject[], path: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <AntdProvider>
            <UnsavedChangesGuard />
            <Outlet />
          </AntdProvider>
        ),
        children: screens,
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { router, user: userEvent.setup() };
}

/**
 * Renders one component as the app shell holds it: `renderScreens` with the component as the only screen,
 * at `/`. The set-up of the component tests.
 */
export function renderInShell(store: AppStore, ui: ReactNode) {
  return renderScreens(store, [{ index: true, element: ui }], '/');
}
