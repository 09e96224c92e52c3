import { useMemo } from 'react';
import { Button, Layout, Menu } from 'antd';
import { LogoutOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { useAppSelector } from '../../app/hooks';
import { portalRoutes } from '../../app/routes/portal-routes';
import { buildMenu, selectedMenuKey } from '../../app/routes/menu';
import { toMenuItems } from './menu-items';
import { AntdProvider } from '../antd-provider';
import { LanguageSwitch } from './language-switch';
import { StatusBanners } from './status-banners';
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

/** The portal frame: a single top bar (wraps on a phone), the portal's menu, the banners and the screen. */
export function PortalFrame() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const student = useAppSelector((s) => s.app.student);
  useDocumentTitle('app.portalName');
  const items = useMemo(() => toMenuItems(buildMenu(portalRoutes, null), t), [t]);
  const selected = selectedMenuKey(portalRoutes, location.pathname);

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header className="app-header" style={{ flexWrap: 'wrap', height: 'auto', minHeight: 56 }}>
        <span className="app-header__title">{t('app.portalName')}</span>
        {student && items.length > 0 && (
          <Menu
            mode="horizontal"
            items={items}
            selectedKeys={selected ? [selected] : []}
            onClick={({ key }) => navigate(key)}
            style={{ flex: 1, minWidth: 0, borderBottom: 'none' }}
          />
        )}
        <span className="app-header__spacer" />
        <LanguageSwitch />
        {student ? (
          <>
            <span data-testid="student-name">{studentName(student, i18n.language)}</span>
            <Button type="text" icon={<LogoutOutlined />} onClick={() => navigate('/logout')}>
              {t('layout.signOut')}
            </Button>
          </>
        ) : (
          <Button type="primary" onClick={() => navigate('/login')}>
            {t('auth.login.submit')}
          </Button>
        )}
      </Layout.Header>
      <Layout.Content style={{ maxWidth: 1100, width: '100%', margin: '0 auto' }}>
        <StatusBanners />
        <ViewOutlet />
      </Layout.Content>
      <UnsavedChangesGuard />
    </Layout>
  );
}

export default function PortalLayout() {
  return (
    <AntdProvider>
      <PortalFrame />
    </AntdProvider>
  );
}
