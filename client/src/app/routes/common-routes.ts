import type { RouteEntry } from './types';

const errorScreens = () => import('../../components/errors/error-screen');

/** Screens both front ends share: the error screens the HTTP client sends people to. */
export const ERROR_ROUTES: Record<'403' | '404' | '500' | 'noConnection', RouteEntry> = {
  '403': {
    path: '/error-403',
    access: 'any',
    titleKey: 'errorPages.403.title',
    page: () => errorScreens().then((m) => ({ default: m.Forbidden })),
  },
  '404': {
    path: '/error-404',
    access: 'any',
    titleKey: 'errorPages.404.title',
    page: () => errorScreens().then((m) => ({ default: m.NotFound })),
  },
  '500': {
    path: '/error-500',
    access: 'any',
    titleKey: 'errorPages.500.title',
    page: () => errorScreens().then((m) => ({ default: m.ServerError })),
  },
  noConnection: {
    path: '/error-no-connection',
    access: 'any',
    titleKey: 'errorPages.no-connection.title',
    page: () => errorScreens().then((m) => ({ default: m.NoConnection })),
  },
};
