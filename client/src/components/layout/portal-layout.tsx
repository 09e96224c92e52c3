import { useMemo, useState, type ReactNode } from 'react';
import { Button, ConfigProvider, Drawer, Layout, Menu, type MenuProps } from 'antd';
import {
  AppstoreAddOutlined,
  FileDoneOutlined,
  IdcardOutlined,
  KeyOutlined,
  LogoutOutlined,
  MenuOutlined,
  SolutionOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import type { Locale } from '../../../../shared/features';
import { appActions } from '../../app/app-slice';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { portalRoutes } from '../../app/routes/portal-routes';
import { buildMenu, selectedMenuKey } from '../../app/routes/menu';
import { usePortalWriteMutation } from '../../features/portal/portal-api';
import { toMenuItems } from './menu-items';
import { AntdProvider } from '../antd-provider';
import { LanguageSwitch } from './language-switch';
import { MAIN_ID, SkipLink } from './skip-link';
import { usePortalTheme } from './portal-theme';
import { StatusBanners } from '../lite/status-banners';
import { UnsavedChangesGuard } from './unsaved-changes-guard';
import { useDocumentTitle } from './use-document-title';
import { ViewOutlet } from './view-outlet';
import './layout.css';

/** Student display name in the interface language: Chinese name in zh_HK when there is one. */
export function studentName(
  student: {
    surname_en?: string | null;
    given_name_en?: string | null;
    name_zh?: string | null;
    student_no?: string;
  },
  language: string,
): string {
  const english = [student.surname_en, student.given_name_en].filter(Boolean).join(' ');
  if (language !== 'en' && student.name_zh) return student.name_zh;
  return english || student.name_zh || student.student_no || '';
}

/** The menu's icons, by path (kept out of the route table: the first load carries no icon). */
const MENU_ICONS: Record<string, ReactNode> = {
  '/index': <IdcardOutlined />,
  '/family': <TeamOutlined />,
  '/select-application': <AppstoreAddOutlined />,
  '/application': <SolutionOutlined />,
  '/document': <FileDoneOutlined />,
};

/**
 * The portal frame, phone first: the top bar (the portal's name, the menu — in a drawer behind a menu button on a
 * phone —, the language, kept in the student's profile too, the student's name, the password change and sign-out),
 * the banners and the screen.
 */
export function PortalFrame() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const dispatch = useAppDispatch();
  const student = useAppSelector((s) => s.app.student);
  const { phone, theme } = usePortalTheme();
  const [drawer, setDrawer] = useState(false);
  const [write] = usePortalWriteMutation();
  useDocumentTitle('app.portalName');
  const items = useMemo(
    (): NonNullable<MenuProps['items']> =>
      toMenuItems(buildMenu(portalRoutes, null), t).map((item) =>
        item && 'key' in item ? ({ ...item, icon: MENU_ICONS[String(item.key)] } as typeof item) : item,
      ),
    [t],
  );
  const selected = selectedMenuKey(portalRoutes, location.pathname);
  const name = student ? studentName(student, i18n.language) : '';

  const go = (path: string) => {
    setDrawer(false);
    navigate(path);
  };
  // the language is kept with the student too (mails, the next sign-in)
  const keepLanguage = (language: Locale) => {
    if (!student) return;
    dispatch(appActions.setStudent({ ...student, language }));
    void write({ url: '/api/student/language', method: 'PUT', body: { language }, handleErrors: false });
  };
  const menu = (mode: 'horizontal' | 'inline') => (
    <nav
      aria-label={t(mode === 'horizontal' ? 'portal.menu.label' : 'portal.menu.pages')}
      style={mode === 'horizontal' ? { flex: 1, minWidth: 0 } : undefined}
    >
      <Menu
        mode={mode}
        items={items}
        selectedKeys={selected ? [selected] : []}
        onClick={({ key }) => go(key)}
        style={
          mode === 'horizontal' ? { borderBottom: 'none', lineHeight: '54px' } : { borderInlineEnd: 'none' }
        }
      />
    </nav>
  );

  const frame = (
    <Layout style={{ minHeight: '100vh' }} className="portal-layout">
      <SkipLink />
      <Layout.Header className="app-header portal-header">
        {student && phone && (
          // on a phone the menu is behind this button (in a drawer): the navigation landmark holds the button
          <nav aria-label={t('portal.menu.label')}>
            <Button
              type="text"
              icon={<MenuOutlined />}
              aria-label={t('portal.menu.open')}
              aria-expanded={drawer}
              onClick={() => setDrawer(true)}
              data-testid="portal-menu-button"
            />
          </nav>
        )}
        <span className="app-header__title">{t('app.portalName')}</span>
        {student && !phone && items.length > 0 ? menu('horizontal') : <span className="app-header__spacer" />}
        <LanguageSwitch onChange={student ? keepLanguage : undefined} compact={phone} />
        {student && (
          <>
            <span data-testid="student-name" className="portal-header__name">
              {name}
            </span>
            {!phone && (
              <Button
                type="text"
                icon={<KeyOutlined />}
                aria-label={t('portal.password.changeTitle')}
                title={t('portal.password.changeTitle')}
                onClick={() => go('/password/change')}
              />
            )}
            <Button
              type="text"
              icon={<LogoutOutlined />}
              aria-label={phone ? t('layout.signOut') : undefined}
              onClick={() => go('/logout')}
            >
              {phone ? null : t('layout.signOut')}
            </Button>
          </>
        )}
        {!student && (
          <Button type="primary" onClick={() => navigate('/login')}>
            {t('auth.login.submit')}
          </Button>
        )}
      </Layout.Header>
      {student && phone && (
        <Drawer
          open={drawer}
          placement="left"
          size={300}
          onClose={() => setDrawer(false)}
          title={name}
          rootClassName="portal-drawer"
        >
          {menu('inline')}
          <Menu
            mode="inline"
            selectable={false}
            aria-label={t('portal.menu.account')}
            items={[
              { key: '/password/change', icon: <KeyOutlined />, label: t('portal.password.changeTitle') },
              { key: '/logout', icon: <LogoutOutlined />, label: t('layout.signOut') },
            ]}
            onClick={({ key }) => go(key)}
            style={{ borderInlineEnd: 'none', marginTop: 16 }}
          />
        </Drawer>
      )}
      <Layout.Content
        id={MAIN_ID}
        tabIndex={-1}
        className="app-main"
        style={{ maxWidth: 1100, width: '100%', margin: '0 auto' }}
      >
        <StatusBanners />
        <ViewOutlet />
      </Layout.Content>
      <UnsavedChangesGuard />
    </Layout>
  );
  // one tree either way: turning a phone keeps what is being typed
  return <ConfigProvider theme={theme}>{frame}</ConfigProvider>;
}

export default function PortalLayout() {
  return (
    <AntdProvider>
      <PortalFrame />
    </AntdProvider>
  );
}
