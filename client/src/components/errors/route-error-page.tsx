import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { isApiError } from '../../app/api';

/**
 * Last resort when a route fails in a way the HTTP client did not already handle (e.g. a data call
 * answered 422, or a 403 `insufficient_rights` the client leaves to the screen). Plain markup, because it sits
 * on the first load.
 */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const refused = isApiError(error) && error.status === 403;
  const kind = notFound ? '404' : refused ? '403' : '500';
  return (
    <div role="alert" style={{ padding: 48, textAlign: 'center', color: '#334155' }}>
      <h1 style={{ fontSize: 24 }}>{t(`errorPages.${kind}.title`)}</h1>
      <p>{t(`errorPages.${kind}.text`)}</p>
      <a href="/">{t('errorPages.home')}</a>
    </div>
  );
}
