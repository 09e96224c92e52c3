import { DEFAULT_FEATURES } from '../../../../shared/features';
import { appActions } from '../../app/app-slice';
import { backofficeRoutes } from '../../app/routes/backoffice-routes';
import { makeLoader } from '../../app/routes/build-routes';
import { buildMenu, type MenuNode } from '../../app/routes/menu';
import type { RouteEntry } from '../../app/routes/types';
import { makeStore } from '../../app/store';
import type { User } from '../../app/types';

const clerk: User = {
  id: 7,
  name: 'Clerk',
  email: 'clerk@example.com',
  is_admin: false,
  language: 'en',
  branch_id: 1,
  role: { id: 3, name: 'Clerk', data_scope: 'branch' },
  permissions: ['users.view', 'roles.view'],
  two_factor_enabled: false,
};

const paths = (nodes: MenuNode[]): string[] =>
  nodes.flatMap((n) => ('children' in n ? paths(n.children) : [n.path]));
const entry = (path: string): RouteEntry => backofficeRoutes.routes.find((r) => r.path === path)!;

async function open(path: string, user: User | null, features = DEFAULT_FEATURES) {
  const store = makeStore('backoffice');
  if (user) store.dispatch(appActions.setUser(user));
  store.dispatch(appActions.configReceived({ maxUploadSize: 5, features }));
  const loader = makeLoader({ ...entry(path), data: undefined }, { kind: 'backoffice', store });
  try {
    await loader({
      request: new Request(`http://localhost${path}`),
      params: {},
      context: undefined,
    } as never);
    return 'opened';
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get('Location');
    throw thrown;
  }
}

describe('access in the client: menu and routes follow permissions and feature flags', () => {
  it('the menu shows the settings screens the role may view and no others', () => {
    const visible = paths(buildMenu(backofficeRoutes, clerk, DEFAULT_FEATURES));
    for (const path of ['/home', '/user/profile', '/user/api-tokens']) expect(visible).toContain(path);
    for (const path of visible.filter((p) => p.startsWith('/settings/')))
      expect(['/settings/users', '/settings/roles']).toContain(path);
    const none = paths(buildMenu(backofficeRoutes, { ...clerk, permissions: [] }, DEFAULT_FEATURES));
    expect(none.filter((p) => p.startsWith('/settings/'))).toEqual([]);
  });

  it('a disabled feature flag takes its screen out of the menu and answers not-found', async () => {
    const off = { ...DEFAULT_FEATURES, hasApiFeatures: false };
    expect(paths(buildMenu(backofficeRoutes, clerk, off))).not.toContain('/user/api-tokens');
    expect(paths(buildMenu(backofficeRoutes, clerk, DEFAULT_FEATURES))).toContain('/user/api-tokens');
    expect(await open('/user/api-tokens', clerk, off)).toBe('/error-404');
    expect(await open('/user/api-tokens', clerk)).toBe('opened');
  });

  it('signed-out visitors of the account screens go to /login, keeping the page asked for', async () => {
    expect(await open('/user/profile', null)).toBe('/login?from=%2Fuser%2Fprofile');
    expect(await open('/user/api-tokens', null)).toBe('/login?from=%2Fuser%2Fapi-tokens');
  });
});
