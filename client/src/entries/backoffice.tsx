import { startApp } from '../app/bootstrap';
import { backofficeRoutes } from '../app/routes/backoffice-routes';

startApp('backoffice', backofficeRoutes, {
  app: () => import('../components/layout/app-layout'),
  public: () => import('../components/layout/public-layout'),
});
