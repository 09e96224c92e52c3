import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { appActions } from '../../app/app-slice';
import { makeStore } from '../../app/store';
import type { User } from '../../app/types';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { fakeResponse, installFetch, type FetchCall } from '../../test/http-fakes';
import { renderInShell } from '../../test/render-screens';
import { ProfilePhotoSection } from './profile-photo-section';

const USER: User = {
  id: 7,
  name: 'Chan Tai Man',
  email: 'chan@example.com',
  is_admin: false,
  language: 'en',
  branch_id: 1,
  role: null,
  permissions: [],
  two_factor_enabled: false,
  profile_photo_url: null,
};

function setup(options: { photo?: string | null; maxMb?: number; enabled?: boolean } = {}) {
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser({ ...USER, profile_photo_url: options.photo ?? null }));
  store.dispatch(
    appActions.configReceived({
      maxUploadSize: options.maxMb ?? 5,
      features: { managesProfilePhotos: options.enabled ?? true },
    }),
  );
  renderInShell(store, <ProfilePhotoSection />);
  return store;
}

const png = (size = 70, name = 'me.png') => new File([new Uint8Array(size)], name, { type: 'image/png' });
const fileInput = () => document.querySelector('input[type="file"]') as HTMLInputElement;
const photoSrc = () => screen.getByTestId('profile-photo').querySelector('img')?.getAttribute('src') ?? null;

jest.setTimeout(30_000);

describe('profile photo section', () => {
  beforeEach(() => {
    resetCsrfToken();
    initI18n('en');
  });

  it('uploads the chosen image as multipart field "file" and shows it, then removes it', async () => {
    const calls: FetchCall[] = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'POST /api/user/profile-photo': fakeResponse(201, {
        file: { id: 12, original_name: 'me.png', mime_type: 'image/png', size_bytes: 70 },
        profile_photo_url: '/api/files/12',
      }),
      'DELETE /api/user/profile-photo': fakeResponse(204),
    });
    const store = setup();
    expect(screen.getByText('No photo yet.')).toBeInTheDocument();
    expect(screen.getByText('JPG, PNG, WebP or GIF, up to 5 MB.')).toBeInTheDocument();

    const user = userEvent.setup();
    await user.upload(fileInput(), png());
    await waitFor(() => expect(photoSrc()).toBe('/api/files/12'));
    expect(store.getState().app.user?.profile_photo_url).toBe('/api/files/12');

    const post = calls.find((c) => c.init.method === 'POST')!;
    expect(post.init.body).toBeInstanceOf(FormData);
    const sent = (post.init.body as FormData).get('file') as File;
    expect(sent.name).toBe('me.png');
    // the browser sets the multipart boundary: no JSON content type, the CSRF token as always
    const headers = post.init.headers as Record<string, string>;
    expect(headers['Content-Type']).toBeUndefined();
    expect(headers['X-CSRF-Token']).toBe('t');

    await user.click(screen.getByRole('button', { name: /Remove photo/ }));
    // nothing is removed until confirmed: cancelling keeps the photo
    expect(await screen.findByText('Remove your profile photo?')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.init.method === 'DELETE')).toBe(false);
    expect(photoSrc()).toBe('/api/files/12');
    await user.click(screen.getAllByRole('button', { name: /Remove photo/ })[0]);
    const confirm = await waitFor(() => {
      const open = document.querySelector<HTMLElement>('.ant-popconfirm:not(.ant-popover-hidden)');
      expect(open).not.toBeNull();
      return open!;
    });
    await user.click(within(confirm).getByRole('button', { name: 'Remove photo' }));
    await waitFor(() => expect(store.getState().app.user?.profile_photo_url).toBeNull());
    expect(photoSrc()).toBeNull();
    expect(calls.some((c) => c.init.method === 'DELETE')).toBe(true);
  });

  it('refuses a photo over the upload limit, or not an image, before sending anything', async () => {
    const calls = installFetch({});
    setup({ maxMb: 1 });
    const user = userEvent.setup({ applyAccept: false });
    await user.upload(fileInput(), png(1024 * 1024 + 1, 'big.png'));
    expect(await screen.findByRole('alert')).toHaveTextContent('The file is larger than 1 MB.');
    await user.upload(fileInput(), new File(['%PDF-1.4'], 'cv.pdf', { type: 'application/pdf' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('Choose a JPG, PNG, WebP or GIF image.'),
    );
    expect(calls).toHaveLength(0);
  });

  it("shows the server's refusals in the user's language", async () => {
    // the English `message` is not read (the client's own text comes from the keys)
    let answer = fakeResponse(422, {
      message: 'x',
      code: 'validation',
      message_key: 'fileContentMismatch',
      error_keys: { file: [{ key: 'fileContentMismatch' }] },
    });
    installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'POST /api/user/profile-photo': () => answer,
    });
    await act(async () => initI18n('zh_HK'));
    setup();
    const user = userEvent.setup();
    await user.upload(fileInput(), png());
    expect(await screen.findByRole('alert')).toHaveTextContent('檔案內容與副檔名不符。');

    answer = fakeResponse(422, {
      message: 'x',
      code: 'business_rule',
      message_key: 'storageFull',
      error_keys: { file: [{ key: 'storageFull' }] },
    });
    await user.upload(fileInput(), png());
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('儲存空間已滿。'));

    answer = fakeResponse(413, {
      message: 'x',
      code: 'payload_too_large',
      message_key: 'fileLargerThan',
      message_params: { max: 5 },
    });
    await user.upload(fileInput(), png());
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('檔案大於 5 MB。'));
  });

  it('is not there when managesProfilePhotos is off', () => {
    setup({ enabled: false });
    expect(screen.queryByTestId('profile-photo-section')).not.toBeInTheDocument();
  });
});
