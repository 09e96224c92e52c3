import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { appSlice, initialAppState, type AppState } from './app-slice';
import { api } from './api';
import { initialShellState, shellSlice } from './shell-slice';
import { readJson, STORAGE_KEYS, writeJson } from './storage';
import type { AppKind, Student, User } from './types';

const rootReducer = combineReducers({
  app: appSlice.reducer,
  shell: shellSlice.reducer,
  [api.reducerPath]: api.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

/** The app slice's state with the signed-in principal restored from browser storage. */
export function restoredAppState(kind: AppKind): AppState {
  return kind === 'portal'
    ? initialAppState({ student: readJson<Student>(STORAGE_KEYS.student) })
    : initialAppState({ user: readJson<User>(STORAGE_KEYS.user) });
}

export function makeStore(kind: AppKind, app: AppState = restoredAppState(kind)) {
  const store = configureStore({
    reducer: rootReducer,
    preloadedState: { app, shell: { ...initialShellState, kind } } as Partial<RootState>,
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  // Keep the signed-in user / student in storage so a reload restores them.
  let user = store.getState().app.user;
  let student = store.getState().app.student;
  store.subscribe(() => {
    const state = store.getState().app;
    if (state.user !== user) {
      user = state.user;
      writeJson(STORAGE_KEYS.user, user);
    }
    if (state.student !== student) {
      student = state.student;
      writeJson(STORAGE_KEYS.student, student);
    }
  });
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
