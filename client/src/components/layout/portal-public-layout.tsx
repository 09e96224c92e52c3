import { PublicLayout } from './public-layout';

export default function PortalPublicLayout() {
  return <PublicLayout appNameKey="app.portalName" />;
}
