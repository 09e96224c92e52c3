import { useMemo, useState } from 'react';
import { Avatar, Button, Dropdown, Grid, Layout, Menu, Tooltip, type MenuProps } from 'antd';
import {
  ApiOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuOutlined,
  MenuUnfoldOutlined,
  ReloadOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { appActions } from '../../app/app-slice';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { backofficeRoutes } from '../../app/routes/backoffice-routes';
import { buildMenu, selectedMenuKey } from '../../app/routes/menu';
import { toMenuItems } from './menu-items';
import type { RouteTable } from '../../app/routes/types';
import { StorageBanner } from '../../features/files/storage-banner';
import { AntdProvider } from '../antd-provider';
import { LanguageSwitch } from './language-switch';
import { RouteTableContext } from './page-header';
import { MAIN_ID, SkipLink } from './skip-link';
import { StatusBanners } from '../lite/status-banners';
import { UnsavedChangesGuard } from './unsaved-changes-guard';
import { useDocumentTitle } from './use-document-title';
import { ViewOutlet } from './view-outlet';
import './layout.css';

type MenuItems = NonNullable<MenuProps['items']>;

/**
 * The back-office frame (spec §3 state): a collapsible left menu (`menuMode`, `showLeftPanelMenu`) built
 * from the route table, a top bar with the language switch and the user menu, the banners (the storage warning
 * among them), and the screen.
 */
export function AppLayout({ table = backofficeRoutes }: { table?: RouteTable }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const screens = Grid.useBreakpoint();
  const narrow = screens.lg === false;
  const user = useAppSelector((s) => s.app.user);
  const menuMode = useAppSelector((s) => s.app.menuMode);
  const showLeftPanelMenu = useAppSelector((s) => s.app.showLeftPanelMenu);
  const features = useAppSelector((s) => s.app.features);
  useDocumentTitle('app.name');

  const items = useMemo(() => toMenuItems(buildMenu(table, user, features), t), [table, user, features, t]);
  const selected = selectedMenuKey(table, location.pathname);
  const openGroups = useMemo(
    () =>
      items
        .filter((i) => i && 'children' in i && i.children?.some((c) => c?.key === selected))
        .map((i) => String(i!.key)),
    [items, selected],
  );

  // Wide screens: `showLeftPanelMenu` shows the panel and `menuMode` collapses it to icons. Phones: the
  // panel opens over the page from the menu button and closes after a choice.
  const [mobileOpen, setMobileOpen] = useState(false);
  const panelVisible = user !== null && (narrow ? mobileOpen : showLeftPanelMenu);
  const collapsed = !narrow && menuMode === 'collapsed';
  const expandLabel = narrow
    ? mobileOpen
      ? t('layout.collapseMenu')
      : t('layout.expandMenu')
    : collapsed
      ? t('layout.expandMenu')
      : t('layout.collapseMenu');

  const toggleMenu = () => {
    if (narrow) setMobileOpen((open) => !open);
    else if (!showLeftPanelMenu) dispatch(appActions.setShowLeftPanelMenu(true));
    else dispatch(appActions.toggleMenuMode());
  };

  const onMenuClick: MenuProps['onClick'] = ({ key }) => {
    navigate(key);
    setMobileOpen(false);
  };

  // the user menu (ant-design-pro's avatar menu): the account's pages, the language, sign-out
  const accountItems: MenuItems = user
    ? [
        { key: 'who', label: <span data-testid="user-email">{user.email}</span>, disabled: true },
        { type: 'divider' },
        { key: '/user/profile', icon: <UserOutlined />, label: t('menu.profile') },
        ...(features.hasApiFeatures === false
          ? []
          : [{ key: '/user/api-tokens', icon: <ApiOutlined />, label: t('menu.apiTokens') }]),
      ]
    : [];
  const [userMenuOpen, setUserMenuOpen] = useState(false);
  const onUserMenuClick: MenuProps['onClick'] = ({ key }) => {
    setUserMenuOpen(false);
    navigate(key);
  };
  const userMenuPanel = () => (
    <div className="user-menu" data-testid="user-menu-panel">
      <Menu mode="vertical" selectable={false} items={accountItems} onClick={onUserMenuClick} />
      <div className="user-menu__language">
        <span>{t('language.label')}</span>
        <LanguageSwitch />
      </div>
      <Menu
        mode="vertical"
        selectable={false}
        items={[{ key: '/logout', icon: <LogoutOutlined />, label: t('layout.signOut'), danger: true }]}
        onClick={onUserMenuClick}
      />
    </div>
  );

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <SkipLink />
      {panelVisible && (
        <Layout.Sider
          theme="light"
          width={232}
          collapsedWidth={64}
          collapsed={collapsed}
          style={
            narrow
              ? { position: 'fixed', zIndex: 1000, height: '100vh', boxShadow: '0 0 24px rgba(15,23,42,.2)' }
              : { borderRight: '1px solid #e2e8f0' }
          }
          data-testid="left-menu"
        >
          <div className="app-brand">{collapsed ? t('app.shortName') : t('app.name')}</div>
          <nav aria-label={t('layout.mainMenu')}>
            <Menu
              mode="inline"
              items={items}
              selectedKeys={selected ? [selected] : []}
              defaultOpenKeys={openGroups}
              onClick={onMenuClick}
              style={{ borderInlineEnd: 'none' }}
            />
          </nav>
        </Layout.Sider>
      )}
      <Layout>
        <Layout.Header className="app-header">
          {user && (
            <Tooltip title={expandLabel}>
              <Button
                type="text"
                aria-label={expandLabel}
                icon={narrow ? <MenuOutlined /> : collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
                onClick={toggleMenu}
                data-testid="menu-toggle"
              />
            </Tooltip>
          )}
          <span className="app-header__title">{!panelVisible || narrow ? t('app.name') : ''}</span>
          <span className="app-header__spacer" />
          {user && (
            <Tooltip title={t('layout.reloadView')}>
              <Button
                type="text"
                aria-label={t('layout.reloadView')}
                icon={<ReloadOutlined />}
                onClick={() =>
                  navigate(`/reload?to=${encodeURIComponent(location.pathname + location.search)}`)
                }
              />
            </Tooltip>
          )}
          <LanguageSwitch />
          {user ? (
            <Dropdown
              trigger={['click']}
              open={userMenuOpen}
              onOpenChange={setUserMenuOpen}
              // the language switch in it is the header's twin: only one of them is there when the menu is shut
              destroyOnHidden
              popupRender={userMenuPanel}
            >
              <Button
                type="text"
                data-testid="user-menu"
                // the name shown is the button's name; the avatar alone (a phone) is named
                aria-label={narrow ? t('layout.userMenu') : undefined}
                title={t('layout.userMenu')}
                aria-haspopup="menu"
                aria-expanded={userMenuOpen}
              >
                <Avatar
                  size="small"
                  icon={<UserOutlined />}
                  src={(features.managesProfilePhotos && user.profile_photo_url) || undefined}
                  style={{ backgroundColor: '#475569' }}
                />
                {!narrow && <span>{user.name}</span>}
              </Button>
            </Dropdown>
          ) : (
            <Button type="primary" onClick={() => navigate('/login')}>
              {t('auth.login.submit')}
            </Button>
          )}
        </Layout.Header>
        <Layout.Content id={MAIN_ID} tabIndex={-1} className="app-main">
          <StatusBanners />
          <StorageBanner />
          <RouteTableContext.Provider value={table}>
            <ViewOutlet />
          </RouteTableContext.Provider>
        </Layout.Content>
      </Layout>
      <UnsavedChangesGuard />
    </Layout>
  );
}

export default function BackofficeLayout() {
  return (
    <AntdProvider>
      <AppLayout />
    </AntdProvider>
  );
}
