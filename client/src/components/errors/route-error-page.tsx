import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router-dom';
import { isApiError } from '../../app/api';
import { useAppSelector } from '../../app/hooks';
import { homePath } from './home-path';
import { routeErrorKind } from './route-error-kind';

/**
 * The last resort, when a layout itself failed to open (a screen's failure shows inside its layout:
 * `ScreenErrorPage`). Plain markup, because it sits on the first load.
 */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  const home = homePath(useAppSelector((s) => s.shell.kind));
  // the client already sent the user elsewhere (§8): that screen is on its way
  if (isApiError(error) && error.handled) return null;
  const kind = routeErrorKind(error);
  return (
    <div role="alert" style={{ padding: 48, textAlign: 'center', color: '#334155' }}>
      <h1 style={{ fontSize: 24 }}>{t(`errorPages.${kind}.title`)}</h1>
      <p>{t(`errorPages.${kind}.text`)}</p>
      <a href={home}>{t('errorPages.home')}</a>
    </div>
  );
}
