import { startApp } from '../app/bootstrap';
import { portalRoutes } from '../app/routes/portal-routes';

startApp('portal', portalRoutes, {
  app: () => import('../components/layout/portal-layout'),
  public: () => import('../components/layout/portal-public-layout'),
});
