import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useRouteError } from 'react-router-dom';
import { isApiError } from '../../app/api';
import { useAppSelector } from '../../app/hooks';
import { retryPath } from '../../app/navigation';
import { useScreenTitle } from '../layout/use-document-title';
import { homePath } from './home-path';
import { routeErrorKind } from './route-error-kind';

export type ErrorKind = '403' | '404' | '500' | 'no-connection';

const STATUS = { '403': '403', '404': '404', '500': '500', 'no-connection': 'warning' } as const;

/**
 * The error screens of spec §2 (permission denied, not found, server error, no connection). "Try again" (server
 * error, no connection) opens the screen whose load failed again, as the HTTP client's navigation here named it;
 * without one (the error screen opened by its address) it reloads the home page.
 */
export function ErrorScreen({ kind }: { kind: ErrorKind }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const home = homePath(useAppSelector((s) => s.shell.kind));
  const retry = retryPath(location.state) ?? home;
  // the tab says what is on screen, not the title of the screen that could not open
  useScreenTitle(t(`errorPages.${kind}.title`));
  return (
    <Result
      status={STATUS[kind]}
      // the screen's one h1, at the result's own size
      title={
        <h1 style={{ font: 'inherit', margin: 0, color: 'inherit' }}>{t(`errorPages.${kind}.title`)}</h1>
      }
      subTitle={t(`errorPages.${kind}.text`)}
      data-testid={`error-screen-${kind}`}
      extra={[
        <Button key="home" type="primary" onClick={() => navigate(home)}>
          {t('errorPages.home')}
        </Button>,
        ...(kind === 'no-connection' || kind === '500'
          ? [
              <Button key="retry" onClick={() => navigate(retry, { replace: true })}>
                {t('errorPages.retry')}
              </Button>,
            ]
          : []),
      ]}
    />
  );
}

export function Forbidden() {
  return <ErrorScreen kind="403" />;
}
export function NotFound() {
  return <ErrorScreen kind="404" />;
}
export function ServerError() {
  return <ErrorScreen kind="500" />;
}
export function NoConnection() {
  return <ErrorScreen kind="no-connection" />;
}

/**
 * A screen that failed to open in a way the HTTP client did not already handle (a data call refusing the address:
 * not found; a 403 `insufficient_rights` the client leaves to the screen): its error screen, in the layout's place
 * for the screen, so the shell (menu, header) stays. The route table loads it with the layouts (build-routes.tsx).
 */
export function ScreenErrorPage() {
  const error = useRouteError();
  // the client already sent the user elsewhere (§8): that screen is on its way
  if (isApiError(error) && error.handled) return null;
  return <ErrorScreen kind={routeErrorKind(error)} />;
}
