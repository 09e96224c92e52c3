import { appActions, appSlice, initialAppState } from './app-slice';
import { makeStore } from './store';
import { STORAGE_KEYS } from './storage';
import type { User } from './types';

const user: User = {
  id: 1,
  name: 'Admin',
  email: 'admin@example.com',
  is_admin: true,
  language: 'zh_HK',
  branch_id: null,
  role: null,
  permissions: [],
  two_factor_enabled: false,
};

describe('app slice', () => {
  it('starts with exactly the application state of spec §3', () => {
    // Written out from the spec, field by field: a missing, extra or different value fails.
    expect(appSlice.reducer(undefined, { type: '@@init' })).toStrictEqual({
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
      user: null,
      student: null,
      selectedTab: 0,
      features: {
        canCreateTeams: true,
        canManageTwoFactorAuthentication: true,
        canUpdatePassword: true,
        canUpdateProfileInformation: true,
        hasEmailVerification: true,
        hasAccountDeletionFeatures: true,
        hasApiFeatures: true,
        hasTeamFeatures: true,
        hasTermsAndPrivacyPolicyFeature: true,
        managesProfilePhotos: true,
      },
      flash: { bannerStyle: 'success', banner: null },
    });
  });

  it('restores the signed-in user from browser storage, and keeps it there', () => {
    window.localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
    const store = makeStore('backoffice');
    expect(store.getState().app.user).toEqual(user);

    store.dispatch(appActions.signedOut());
    expect(window.localStorage.getItem(STORAGE_KEYS.user)).toBeNull();

    store.dispatch(appActions.setUser({ ...user, name: 'Renamed' }));
    expect(JSON.parse(window.localStorage.getItem(STORAGE_KEYS.user)!)).toMatchObject({ name: 'Renamed' });
  });

  it('restores the student on the portal, and ignores junk in storage', () => {
    window.localStorage.setItem(
      STORAGE_KEYS.student,
      JSON.stringify({ id: 7, student_no: 'S7', language: 'en' }),
    );
    expect(makeStore('portal').getState().app.student).toMatchObject({ id: 7 });
    window.localStorage.setItem(STORAGE_KEYS.user, '{not json');
    expect(makeStore('backoffice').getState().app.user).toBeNull();
  });

  it('after a path change resets the selected tab and clears the notification title', () => {
    let state = initialAppState();
    state = appSlice.reducer(state, appActions.setSelectedTab(3));
    state = appSlice.reducer(state, appActions.setNotification({ title: 'Saved', type: 'success' }));
    state = appSlice.reducer(state, appActions.pathChanged());
    expect(state.selectedTab).toBe(0);
    expect(state.notification.title).toBeNull();
  });

  it('takes the upload limit and only known boolean feature flags from app-config', () => {
    const state = appSlice.reducer(
      initialAppState(),
      appActions.configReceived({
        maxUploadSize: 5,
        features: { canCreateTeams: false, bogus: false } as never,
      }),
    );
    expect(state.features.canCreateTeams).toBe(false);
    expect(state.features.hasApiFeatures).toBe(true);
    expect(state.features).not.toHaveProperty('bogus');
  });

  it('signing out forgets user, student, session validity and unsaved changes', () => {
    let state = initialAppState({ user });
    state = appSlice.reducer(state, appActions.setUnsavedChanges(true));
    state = appSlice.reducer(state, appActions.signedOut());
    expect(state).toMatchObject({ user: null, student: null, authValid: false, unsavedChanges: false });
  });
});
