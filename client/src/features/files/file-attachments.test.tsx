import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { appActions } from '../../app/app-slice';
import { makeStore } from '../../app/store';
import { AntdProvider } from '../../components/antd-provider';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { SLOW, staffUser } from '../../test/fixtures';
import { fakeResponse, installFetch, type FetchCall } from '../../test/http-fakes';
import { FileAttachments } from './file-attachments';
import { fileItem, filePage, storageUsage } from './file-fixtures';
import { StorageBanner } from './storage-banner';

jest.setTimeout(120_000);

const MB = 1024 * 1024;

type Routes = Parameters<typeof installFetch>[0];

function setup(routes: Routes, canAttach = true) {
  // the storage banner beside it (files.view) shows that the usage is read again after an upload
  const calls = installFetch({
    'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
    'GET /api/files/usage': fakeResponse(200, storageUsage(10)),
    ...routes,
  });
  const store = makeStore('backoffice');
  store.dispatch(
    appActions.setUser(staffUser({ permissions: ['schools.view', 'schools.update', 'files.view'] })),
  );
  store.dispatch(appActions.configReceived({ maxUploadSize: 5, features: {} }));
  render(
    <Provider store={store}>
      <MemoryRouter>
        <AntdProvider>
          <StorageBanner />
          <FileAttachments ownerType="school" ownerId={5} canAttach={canAttach} />
        </AntdProvider>
      </MemoryRouter>
    </Provider>,
  );
  // the control's `accept` is not applied here: the component's own checks are under test
  return { calls, user: userEvent.setup({ applyAccept: false }) };
}

const posts = (calls: FetchCall[]) => calls.filter((c) => c.init.method === 'POST');
const fileInput = () => document.querySelector('input[type="file"]') as HTMLInputElement;

beforeEach(() => {
  resetCsrfToken();
  initI18n('en');
});

describe('file attachments', () => {
  it("lists the owner's files only, without the owner column", async () => {
    const { calls } = setup({ 'GET /api/files': fakeResponse(200, filePage([fileItem()])) });
    await screen.findByText('brochure.pdf', {}, SLOW);
    const query = new URL(calls.find((c) => c.url.startsWith('/api/files?'))!.url, 'http://x').searchParams;
    expect(query.get('owner_type')).toBe('school');
    expect(query.get('owner_id')).toBe('5');
    expect(screen.queryByText('Belongs to')).toBeNull();
    expect(screen.queryAllByText('Korea University')).toHaveLength(0);
  });

  it('refuses a 6 MB file and an .exe here, without a request, with the server’s messages', async () => {
    const { calls, user } = setup({ 'GET /api/files': fakeResponse(200, filePage([])) });
    await screen.findByTestId('files-empty', {}, SLOW);
    const big = new File([new Uint8Array(6 * MB)], 'transcript.pdf', { type: 'application/pdf' });
    await user.upload(fileInput(), big);
    expect(await screen.findByTestId('file-upload-refused', {}, SLOW)).toHaveTextContent(
      'transcript.pdf: The file is larger than 5 MB.',
    );
    const exe = new File(['MZ'], 'setup.exe', { type: 'application/x-msdownload' });
    await user.upload(fileInput(), exe);
    await waitFor(() =>
      expect(screen.getByTestId('file-upload-refused')).toHaveTextContent(
        'setup.exe: This type of file is not allowed.',
      ),
    );
    await act(async () => undefined);
    expect(posts(calls)).toHaveLength(0);
  });

  it('uploads through the HTTP layer, lists the new file and reads the usage again', async () => {
    let items = [] as ReturnType<typeof fileItem>[];
    const { calls, user } = setup({
      'GET /api/files': () => fakeResponse(200, filePage(items)),
      'POST /api/files': () => {
        items = [fileItem({ id: 9, original_name: 'offer.pdf' })];
        return fakeResponse(201, items[0]);
      },
    });
    await screen.findByTestId('files-empty', {}, SLOW);
    const usageReads = () => calls.filter((c) => c.url === '/api/files/usage').length;
    await waitFor(() => expect(usageReads()).toBe(1));
    await user.upload(fileInput(), new File(['%PDF-1.4'], 'offer.pdf', { type: 'application/pdf' }));
    await screen.findByText('offer.pdf', { selector: '.ant-table *' }, SLOW);
    const [post] = posts(calls);
    const body = post.init.body as FormData;
    expect(body.get('owner_type')).toBe('school');
    expect(body.get('owner_id')).toBe('5');
    expect((body.get('file') as File).name).toBe('offer.pdf');
    expect((post.init.headers as Record<string, string>)['X-CSRF-Token']).toBe('t');
    await waitFor(() => expect(usageReads()).toBe(2));
  });

  it("shows the server's refusal in the user's language", async () => {
    await act(async () => initI18n('zh_HK'));
    const { user } = setup({
      'GET /api/files': fakeResponse(200, filePage([])),
      'POST /api/files': fakeResponse(422, {
        message: 'Storage is full.',
        code: 'storage_full',
        message_key: 'storageFull',
      }),
    });
    await screen.findByTestId('files-empty', {}, SLOW);
    await user.upload(fileInput(), new File(['%PDF-1.4'], 'offer.pdf', { type: 'application/pdf' }));
    expect(await screen.findByTestId('file-upload-refused', {}, SLOW)).toHaveTextContent(
      'offer.pdf：儲存空間已滿。',
    );
  });

  it('has no upload for a user who may not attach', async () => {
    setup({ 'GET /api/files': fakeResponse(200, filePage([fileItem()])) }, false);
    await screen.findByText('brochure.pdf', {}, SLOW);
    expect(fileInput()).toBeNull();
    expect(screen.queryByRole('button', { name: /Upload/ })).toBeNull();
  });
});

describe('file preview', () => {
  it('shows an image in an img and a PDF in an iframe, from the inline URL', async () => {
    setup({
      'GET /api/files': fakeResponse(
        200,
        filePage([
          fileItem({ id: 1, original_name: 'brochure.pdf' }),
          fileItem({ id: 2, original_name: 'campus.jpg', mime_type: 'image/jpeg', kind: 'image' }),
          fileItem({
            id: 3,
            original_name: 'fees.xlsx',
            mime_type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            kind: 'spreadsheet',
            preview_url: null,
          }),
        ]),
      ),
    });
    await screen.findByText('campus.jpg', {}, SLOW);
    // no preview for a spreadsheet: it is downloaded
    expect(screen.getByRole('button', { name: 'Preview fees.xlsx' })).toBeDisabled();

    fireEvent.click(screen.getByRole('button', { name: 'Preview campus.jpg' }));
    const image = await screen.findByTestId('file-preview', {}, SLOW);
    expect(within(image).getByRole('img', { name: 'campus.jpg' })).toHaveAttribute(
      'src',
      '/api/files/2?inline=1',
    );
    expect(image.querySelector('iframe')).toBeNull();
    fireEvent.click(within(screen.getByRole('dialog')).getByText('Close'));
    await waitFor(() => expect(screen.queryByTestId('file-preview')).toBeNull(), SLOW);

    fireEvent.click(screen.getByRole('button', { name: 'Preview brochure.pdf' }));
    const pdf = await screen.findByTestId('file-preview', {}, SLOW);
    expect(within(pdf).getByTitle('brochure.pdf')).toHaveAttribute('src', '/api/files/1?inline=1');
    expect(pdf.querySelector('iframe')).not.toBeNull();
    expect(pdf.querySelector('img')).toBeNull();
  });
});
