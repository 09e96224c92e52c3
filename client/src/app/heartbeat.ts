import { http } from '../http/client';
import { appActions } from './app-slice';
import { navigateTo } from './navigation';
import { shellActions } from './shell-slice';
import type { AppStore } from './store';
import type { AppKind } from './types';

/** Spec §9: every 5 minutes. */
export const HEARTBEAT_INTERVAL_MS = 5 * 60 * 1000;

/**
 * One heartbeat (spec §4, §7): `GET /api/heartbeat` sets `isOnline` and `authValid`. A failure marks the
 * app offline (the layout shows a banner; no redirect). When the session is invalid while a user (or
 * student) is held, they are signed out and sent to /login.
 */
export async function beat(store: AppStore, kind: AppKind): Promise<void> {
  try {
    const body = await http<{ auth?: unknown; timeout?: unknown }>('/api/heartbeat', { handleErrors: false });
    const auth = Boolean(body?.auth);
    store.dispatch(appActions.heartbeatSucceeded({ auth }));
    const { app } = store.getState();
    const held = kind === 'portal' ? app.student : app.user;
    if (!auth && held) {
      store.dispatch(appActions.signedOut());
      // the server says why: an expired session shows the spec's message on the sign-in screen
      navigateTo(body?.timeout === true ? '/login?timeout=1' : '/login');
    }
  } catch {
    store.dispatch(appActions.heartbeatFailed());
  } finally {
    store.dispatch(shellActions.heartbeatChecked());
  }
}

/** Beat now and every interval; also when the browser says it is back online. Returns a stop function. */
export function startHeartbeat(
  store: AppStore,
  kind: AppKind,
  intervalMs = HEARTBEAT_INTERVAL_MS,
): () => void {
  void beat(store, kind);
  const timer = setInterval(() => void beat(store, kind), intervalMs);
  const onOnline = () => void beat(store, kind);
  window.addEventListener('online', onOnline);
  return () => {
    clearInterval(timer);
    window.removeEventListener('online', onOnline);
  };
}
