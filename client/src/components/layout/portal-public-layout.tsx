import { ConfigProvider } from 'antd';
import { PublicLayout } from './public-layout';
import { usePortalTheme } from './portal-theme';

/** The portal's sign-in screens: the public frame, with touch-size controls on a phone. */
export default function PortalPublicLayout() {
  const { theme } = usePortalTheme();
  return (
    <ConfigProvider theme={theme}>
      <div className="portal-public">
        <PublicLayout appNameKey="app.portalName" />
      </div>
    </ConfigProvider>
  );
}
