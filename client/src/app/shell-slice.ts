import { createSlice } from '@reduxjs/toolkit';
import type { AppKind } from './types';

/**
 * Start-up bookkeeping that is not part of the spec's application state (kept out of the app slice so
 * that one stays exactly the spec's): which front end this is, whether a heartbeat has answered yet
 * (before that, `isOnline` false means "not known", not "offline"), whether registration is open, and whether
 * "Reload view" waits for its navigation to finish before the screen is remounted (`viewKey`).
 */
export interface ShellState {
  kind: AppKind;
  heartbeatChecked: boolean;
  registrationEnabled: boolean;
  viewReloadPending: boolean;
}

export const initialShellState: ShellState = {
  kind: 'backoffice',
  heartbeatChecked: false,
  registrationEnabled: false,
  viewReloadPending: false,
};

export const shellSlice = createSlice({
  name: 'shell',
  initialState: initialShellState,
  reducers: {
    heartbeatChecked(state) {
      state.heartbeatChecked = true;
    },
    registrationEnabled(state, action: { payload: boolean }) {
      state.registrationEnabled = action.payload;
    },
    viewReloadPending(state, action: { payload: boolean }) {
      state.viewReloadPending = action.payload;
    },
  },
});

export const shellActions = shellSlice.actions;
