import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StorageStatus, StorageUsage } from '../../../../shared/files';
import { appActions } from '../../app/app-slice';
import { makeStore } from '../../app/store';
import type { User } from '../../app/types';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { fakeResponse, installFetch } from '../../test/http-fakes';
import { renderInShell } from '../../test/render-screens';
import { ProfilePhotoSection } from '../profile/profile-photo-section';
import { usageFigures } from './files-api';
import { StorageBanner } from './storage-banner';

const MB = 1024 * 1024;

const USER: User = {
  id: 7,
  name: 'Chan Tai Man',
  email: 'chan@example.com',
  is_admin: false,
  language: 'en',
  branch_id: 1,
  role: null,
  permissions: ['files.view'],
  two_factor_enabled: false,
  profile_photo_url: null,
};

/** The usage the server would answer for `used` MB of a 1,024 MB quota. */
function usage(usedMb: number, status: StorageStatus): StorageUsage {
  const used = Math.round(usedMb * MB);
  return {
    used_bytes: used,
    quota_bytes: 1024 * MB,
    percent: Math.round((used / (1024 * MB)) * 1000) / 10,
    suspended: status === 'suspended',
    status,
  };
}

function setup(user: Partial<User> = {}, withPhotoSection = false) {
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser({ ...USER, ...user }));
  store.dispatch(appActions.configReceived({ maxUploadSize: 5, features: { managesProfilePhotos: true } }));
  renderInShell(
    store,
    <>
      <StorageBanner />
      {withPhotoSection && <ProfilePhotoSection />}
    </>,
  );
  return store;
}

const banner = () => screen.queryByTestId('storage-banner');
const usageCalls = (calls: { url: string }[]) => calls.filter((c) => c.url.includes('/api/files/usage'));

jest.setTimeout(30_000);

describe('storage banner', () => {
  beforeEach(() => {
    resetCsrfToken();
    initI18n('en');
  });

  it('shows nothing while storage is fine', async () => {
    const calls = installFetch({ 'GET /api/files/usage': fakeResponse(200, usage(512, 'ok')) });
    setup();
    await waitFor(() => expect(usageCalls(calls)).toHaveLength(1));
    // the answer has been rendered (nothing) once the query settled
    await act(async () => undefined);
    expect(banner()).toBeNull();
  });

  it('warns from 90 %, with the figures', async () => {
    installFetch({ 'GET /api/files/usage': fakeResponse(200, usage(942.5, 'almost_full')) });
    setup();
    const shown = await screen.findByTestId('storage-banner');
    expect(shown).toHaveAttribute('data-status', 'almost_full');
    expect(shown).toHaveClass('ant-alert-warning');
    expect(shown).toHaveTextContent('Storage is almost full: 943 MB of 1,024 MB used (92 %).');
  });

  it('rounds used and quota alike and takes the percentage from them: never "1 MB of 1 MB (95 %)"', () => {
    const of = (usedBytes: number, quotaBytes: number) =>
      usageFigures({
        used_bytes: usedBytes,
        quota_bytes: quotaBytes,
        percent: Math.round((usedBytes / quotaBytes) * 1000) / 10,
        suspended: false,
        status: usedBytes >= quotaBytes ? 'full' : 'almost_full',
      });
    expect(of(0.95 * MB, MB)).toEqual({ used: '0.95', quota: '1.00', percent: '95' });
    // not full never reads as full, however close
    expect(of(MB - 10, MB)).toEqual({ used: '0.99', quota: '1.00', percent: '99' });
    expect(of(MB, MB)).toEqual({ used: '1.00', quota: '1.00', percent: '100' });
    expect(of(47.5 * MB, 50 * MB)).toEqual({ used: '47.5', quota: '50.0', percent: '95' });
    expect(of(1023.8 * MB, 1024 * MB)).toEqual({ used: '1,023', quota: '1,024', percent: '99' });
  });

  it('is an error when storage is full', async () => {
    installFetch({ 'GET /api/files/usage': fakeResponse(200, usage(1024, 'full')) });
    setup();
    const shown = await screen.findByTestId('storage-banner');
    expect(shown).toHaveClass('ant-alert-error');
    expect(shown).toHaveTextContent('Storage is full: 1,024 MB of 1,024 MB used (100 %).');
    expect(shown).toHaveTextContent('Uploads are refused until files are deleted or the quota is raised.');
  });

  it('is an error when storage is suspended, in zh_HK too', async () => {
    installFetch({ 'GET /api/files/usage': fakeResponse(200, usage(12.3, 'suspended')) });
    await act(async () => initI18n('zh_HK'));
    setup();
    const shown = await screen.findByTestId('storage-banner');
    expect(shown).toHaveClass('ant-alert-error');
    expect(shown).toHaveTextContent('檔案儲存已暫停，暫時不接受上載（已使用 12 MB，上限 1,024 MB）。');
  });

  it('is for users who may see files: without files.view no request and no banner', async () => {
    const calls = installFetch({ 'GET /api/files/usage': fakeResponse(200, usage(1024, 'full')) });
    setup({ permissions: ['users.view'] });
    await act(async () => undefined);
    expect(usageCalls(calls)).toHaveLength(0);
    expect(banner()).toBeNull();
  });

  it('an admin without the permission key sees it', async () => {
    installFetch({ 'GET /api/files/usage': fakeResponse(200, usage(1024, 'full')) });
    setup({ permissions: [], is_admin: true });
    expect(await screen.findByTestId('storage-banner')).toHaveAttribute('data-status', 'full');
  });

  it('reads the usage again after an upload: the upload that filled the storage brings the banner', async () => {
    let answer = usage(900, 'ok');
    const calls = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'GET /api/files/usage': () => fakeResponse(200, answer),
      'POST /api/user/profile-photo': () => {
        answer = usage(1024, 'full');
        return fakeResponse(201, {
          file: { id: 3, original_name: 'me.png', mime_type: 'image/png', size_bytes: 70 },
          profile_photo_url: '/api/files/3',
        });
      },
    });
    setup({}, true);
    await waitFor(() => expect(usageCalls(calls)).toHaveLength(1));
    expect(banner()).toBeNull();
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    await userEvent.setup().upload(input, new File([new Uint8Array(70)], 'me.png', { type: 'image/png' }));
    expect(await screen.findByTestId('storage-banner')).toHaveAttribute('data-status', 'full');
    expect(usageCalls(calls)).toHaveLength(2);
  });
});
