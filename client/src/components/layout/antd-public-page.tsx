import type { ComponentType } from 'react';
import { ConfigProvider } from 'antd';
import { AntdProvider } from '../antd-provider';
import { usePortalTheme } from './portal-theme';

export type PublicTheme = 'backoffice' | 'portal';

/** antd's configuration (theme, locale, App) of a front end, around one screen. */
function Themed({ theme, Page }: { theme: PublicTheme; Page: ComponentType }) {
  return <AntdProvider>{theme === 'portal' ? <PortalTheme Page={Page} /> : <Page />}</AntdProvider>;
}

/** The portal's theme: legible colours, touch-size controls on a phone (as its signed-in layout). */
function PortalTheme({ Page }: { Page: ComponentType }) {
  const { theme } = usePortalTheme();
  return (
    <ConfigProvider theme={theme}>
      <Page />
    </ConfigProvider>
  );
}

const made = {
  backoffice: new WeakMap<ComponentType, ComponentType>(),
  portal: new WeakMap<ComponentType, ComponentType>(),
};

/**
 * A public screen built with antd, with the antd configuration around it: the sign-in frame (public layout) has
 * no antd (it is on the first load), so such a screen brings its own, loaded with it (app/routes/antd-page.ts).
 */
export function withAntdProvider(Page: ComponentType, theme: PublicTheme): ComponentType {
  let wrapped = made[theme].get(Page);
  if (!wrapped) {
    const Screen = () => <Themed theme={theme} Page={Page} />;
    Screen.displayName = `WithAntd(${Page.displayName ?? Page.name})`;
    wrapped = Screen;
    made[theme].set(Page, wrapped);
  }
  return wrapped;
}
