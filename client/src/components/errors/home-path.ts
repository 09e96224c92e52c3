import type { AppKind } from '../../app/types';

/**
 * Where "Back to home" goes: the staff's start page (`/home`, open to every signed-in user, never redirecting
 * back to an error screen), the portal's `/` (its personal details). Its own module: the plain error screen on
 * the first load needs it without the antd one.
 */
export function homePath(kind: AppKind): string {
  return kind === 'portal' ? '/' : '/home';
}
