import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { DEFAULT_FEATURES, FEATURE_FLAGS, type Features } from '../../../shared/features';
import type { Student, User } from './types';

export type MenuMode = 'normal' | 'collapsed';
export type NotificationType = 'success' | 'info' | 'warning' | 'error';
export type BannerStyle = 'success' | 'danger';

/** Exactly the spec's application state (product-spec §3), nothing more. */
export interface AppState {
  loaded: boolean;
  isOnline: boolean;
  authValid: boolean;
  viewKey: number;
  maxUploadSize: number;
  menuMode: MenuMode;
  showLeftPanelMenu: boolean;
  showEditButton: boolean;
  notification: { title: string | null; type: NotificationType | null };
  unsavedChanges: boolean;
  user: User | null;
  student: Student | null;
  selectedTab: number;
  features: Features;
  flash: { bannerStyle: BannerStyle; banner: string | null };
}

export function initialAppState(restored: { user?: User | null; student?: Student | null } = {}): AppState {
  return {
    loaded: true,
    isOnline: false,
    authValid: false,
    viewKey: 0,
    maxUploadSize: 5,
    menuMode: 'normal',
    showLeftPanelMenu: true,
    showEditButton: false,
    notification: { title: null, type: null },
    unsavedChanges: false,
    user: restored.user ?? null,
    student: restored.student ?? null,
    selectedTab: 0,
    features: { ...DEFAULT_FEATURES },
    flash: { bannerStyle: 'success', banner: null },
  };
}

export const appSlice = createSlice({
  name: 'app',
  initialState: initialAppState,
  reducers: {
    setLoaded(state, action: PayloadAction<boolean>) {
      state.loaded = action.payload;
    },
    heartbeatSucceeded(state, action: PayloadAction<{ auth: boolean }>) {
      state.isOnline = true;
      state.authValid = action.payload.auth;
    },
    heartbeatFailed(state) {
      state.isOnline = false;
    },
    bumpViewKey(state) {
      state.viewKey += 1;
    },
    configReceived(state, action: PayloadAction<{ maxUploadSize: number; features: Partial<Features> }>) {
      state.maxUploadSize = action.payload.maxUploadSize;
      for (const flag of FEATURE_FLAGS) {
        const value = action.payload.features[flag];
        if (typeof value === 'boolean') state.features[flag] = value;
      }
    },
    setMenuMode(state, action: PayloadAction<MenuMode>) {
      state.menuMode = action.payload;
    },
    toggleMenuMode(state) {
      state.menuMode = state.menuMode === 'normal' ? 'collapsed' : 'normal';
    },
    setShowLeftPanelMenu(state, action: PayloadAction<boolean>) {
      state.showLeftPanelMenu = action.payload;
    },
    setShowEditButton(state, action: PayloadAction<boolean>) {
      state.showEditButton = action.payload;
    },
    setNotification(state, action: PayloadAction<{ title: string | null; type?: NotificationType | null }>) {
      state.notification = { title: action.payload.title, type: action.payload.type ?? null };
    },
    setUnsavedChanges(state, action: PayloadAction<boolean>) {
      state.unsavedChanges = action.payload;
    },
    setUser(state, action: PayloadAction<User | null>) {
      state.user = action.payload;
      if (action.payload) state.authValid = true;
    },
    setStudent(state, action: PayloadAction<Student | null>) {
      state.student = action.payload;
      if (action.payload) state.authValid = true;
    },
    /** The session is gone (401, logout, heartbeat says invalid): forget who was signed in. */
    signedOut(state) {
      state.user = null;
      state.student = null;
      state.authValid = false;
      state.unsavedChanges = false;
    },
    setSelectedTab(state, action: PayloadAction<number>) {
      state.selectedTab = action.payload;
    },
    /** After a navigation that changed the path (spec §2 "Navigation behaviour"). */
    pathChanged(state) {
      state.selectedTab = 0;
      state.notification.title = null;
    },
    setFlash(state, action: PayloadAction<{ banner: string | null; bannerStyle?: BannerStyle }>) {
      state.flash = { banner: action.payload.banner, bannerStyle: action.payload.bannerStyle ?? 'success' };
    },
  },
});

export const appActions = appSlice.actions;
