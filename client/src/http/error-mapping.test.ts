import { mapHttpError } from './error-mapping';

describe('HTTP error mapping (spec §8)', () => {
  it.each([
    [null, null, { type: 'navigate', to: '/error-no-connection', replace: false, signOut: false }],
    [
      404,
      { message: 'Not Found', code: 'not_found' },
      { type: 'navigate', to: '/error-404', replace: false, signOut: false },
    ],
    [
      401,
      { message: 'Unauthenticated.', code: 'unauthenticated' },
      { type: 'navigate', to: '/login', replace: false, signOut: true },
    ],
    [
      401,
      { message: 'Your session has expired, please log in again.', code: 'session_timeout', timeout: true },
      { type: 'navigate', to: '/login?timeout=1', replace: false, signOut: true },
    ],
    [
      403,
      { message: 'This action is unauthorized.', code: 'forbidden' },
      { type: 'navigate', to: '/error-403', replace: true, signOut: false },
    ],
    [
      403,
      { message: 'Two-factor authentication must be set up first.', code: 'two_factor_required' },
      { type: 'navigate', to: '/user/profile', replace: true, signOut: false },
    ],
    [
      500,
      { message: 'Server Error' },
      { type: 'navigate', to: '/error-500', replace: false, signOut: false },
    ],
  ] as const)('status %p → %p', (status, body, expected) => {
    expect(mapHttpError(status, body as never)).toEqual(expected);
  });

  it.each([400, 409, 413, 422, 429, 502, 503])('status %p goes back to the caller', (status) => {
    expect(mapHttpError(status, { message: 'x' })).toEqual({ type: 'caller' });
  });

  it('a 403 insufficient_rights stays on the page: the screen explains the refusal', () => {
    const body = {
      message: 'You cannot change an account that has more rights than yours.',
      code: 'insufficient_rights',
    } as const;
    expect(mapHttpError(403, body)).toEqual({ type: 'caller' });
    // with field errors (a grant only an admin makes) too
    expect(mapHttpError(403, { ...body, errors: { is_admin: ['x'] } })).toEqual({ type: 'caller' });
    // any other 403 still replaces the page
    expect(mapHttpError(403, { message: 'x' })).toMatchObject({ to: '/error-403' });
  });

  it('a 403 https_required stays on the sign-in page, which says that HTTPS is needed', () => {
    expect(mapHttpError(403, { message: 'x', code: 'https_required' })).toEqual({ type: 'caller' });
  });

  it('a 401 without the timeout flag set to true is a plain sign-in redirect', () => {
    expect(mapHttpError(401, { message: 'x', timeout: 'yes' } as never)).toMatchObject({ to: '/login' });
    expect(mapHttpError(401, null)).toMatchObject({ to: '/login' });
  });
});
