import { isRouteErrorResponse } from 'react-router-dom';
import { isApiError } from '../../app/api';
import type { ErrorKind } from './error-screen';

/** The error screen for what a route threw. */
export function routeErrorKind(error: unknown): ErrorKind {
  if (isRouteErrorResponse(error) && error.status === 404) return '404';
  if (isApiError(error) && error.status === 403) return '403';
  if (isApiError(error) && error.status === null) return 'no-connection';
  return '500';
}
