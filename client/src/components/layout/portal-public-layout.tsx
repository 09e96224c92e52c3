import { PublicLayout } from './public-layout';

/**
 * The portal's sign-in screens: the public frame; on a phone its controls are touch-size (lite.css, under
 * `.portal-public`; an antd screen inside gets the portal's touch theme with it, app/routes/antd-page.ts).
 */
export default function PortalPublicLayout() {
  return (
    <div className="portal-public">
      <PublicLayout appNameKey="app.portalName" />
    </div>
  );
}
