import type { LazyPage } from './types';

/**
 * A public screen built with antd (the password, two-factor and registration screens): loaded together with
 * antd's configuration for it (theme, locale; the portal's theme on the portal), because the sign-in frame they
 * open in is antd-free so that the sign-in pages' first load stays small. Neither is on the first load.
 */
export function withAntd(page: LazyPage, theme: 'backoffice' | 'portal' = 'backoffice'): LazyPage {
  return async () => {
    const [{ withAntdProvider }, screen] = await Promise.all([
      import('../../components/layout/antd-public-page'),
      page(),
    ]);
    return { default: withAntdProvider(screen.default, theme) };
  };
}
