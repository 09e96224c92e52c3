import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { appActions } from '../../app/app-slice';
import { makeStore } from '../../app/store';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { SLOW, staffUser } from '../../test/fixtures';
import { fakeResponse, installFetch, type FetchCall } from '../../test/http-fakes';
import { renderScreens } from '../../test/render-screens';
import { fileItem, filePage, storageUsage } from './file-fixtures';
import MediaManagerPage from './media-manager-page';

jest.setTimeout(120_000);

type Routes = Parameters<typeof installFetch>[0];

function setup(path: string, routes: Routes) {
  const calls = installFetch({
    'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
    'GET /api/files/usage': fakeResponse(200, storageUsage(40)),
    ...routes,
  });
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(staffUser({ permissions: ['files.view', 'files.delete'] })));
  const { router, user } = renderScreens(store, [{ path: 'media', element: <MediaManagerPage /> }], path);
  return { calls, router, user };
}

const listCalls = (calls: FetchCall[]) =>
  calls
    .filter((c) => (c.init.method ?? 'GET') === 'GET' && c.url.split('?')[0] === '/api/files')
    .map((c) => Object.fromEntries(new URL(c.url, 'http://x').searchParams));

/** Opens an antd select by its label and picks the option with this text. */
async function pick(label: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  const choice = await screen.findByTitle(option, {}, SLOW);
  fireEvent.click(choice);
}

beforeEach(() => {
  resetCsrfToken();
  initI18n('en');
});

describe('media manager', () => {
  it('builds its query from the URL, and the filters, search and sort write it back', async () => {
    const { calls, router } = setup(
      '/media?owner_type=school&created_from=2026-03-01&page=2&sort=-size_bytes',
      {
        'GET /api/files': fakeResponse(200, filePage([fileItem()], 45, 2)),
      },
    );
    await screen.findByText('brochure.pdf', {}, SLOW);
    expect(listCalls(calls)[0]).toEqual({
      owner_type: 'school',
      created_from: '2026-03-01',
      page: '2',
      sort: '-size_bytes',
      per_page: '20',
    });
    // the URL's filters show in the controls
    expect(screen.getByPlaceholderText('Uploaded from')).toHaveValue('2026-03-01');
    expect(screen.getByTitle('School attachment')).toBeInTheDocument();

    // a filter: back to page one, the rest kept
    await pick('Kind', 'PDF');
    await waitFor(() => expect(router.state.location.search).toContain('kind=pdf'));
    expect(router.state.location.search).not.toContain('page=2');
    await waitFor(() =>
      expect(listCalls(calls).at(-1)).toEqual({
        owner_type: 'school',
        created_from: '2026-03-01',
        kind: 'pdf',
        sort: '-size_bytes',
        per_page: '20',
      }),
    );

    // the search box
    const search = screen.getByRole('searchbox', { name: 'Search file names' });
    fireEvent.change(search, { target: { value: 'offer' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(listCalls(calls).at(-1)?.q).toBe('offer'));

    // sorting by name from its column header
    fireEvent.click(screen.getAllByText('File name')[0]);
    await waitFor(() => expect(listCalls(calls).at(-1)?.sort).toBe('original_name'));
    expect(router.state.location.search).toContain('sort=original_name');
  });

  it('shows the rows: owner linked to its screen, kind, size, uploader and the time in Hong Kong', async () => {
    setup('/media', {
      'GET /api/files': fakeResponse(
        200,
        filePage([
          fileItem({ id: 1, size_bytes: 5_242_880 - 1 }),
          fileItem({
            id: 2,
            original_name: 'logo.png',
            mime_type: 'image/png',
            kind: 'image',
            size_bytes: 800,
            owner_type: 'school_logo',
            branch_name: null,
          }),
        ]),
      ),
    });
    const row = (await screen.findByText('brochure.pdf', {}, SLOW)).closest('tr')!;
    expect(within(row).getByRole('link', { name: 'Korea University' })).toHaveAttribute(
      'href',
      '/schools/attachment/5',
    );
    expect(row).toHaveTextContent('School attachment');
    expect(row).toHaveTextContent('5 MB');
    expect(row).toHaveTextContent('Chan Tai Man');
    // 10:30 UTC is 18:30 in Hong Kong
    expect(row).toHaveTextContent('2026-03-01 18:30');
    const logo = screen.getByText('logo.png').closest('tr')!;
    expect(logo).toHaveTextContent('School logo');
    expect(logo).toHaveTextContent('800 B');
    expect(logo).toHaveTextContent('Image');
    expect(within(logo).getByTestId('file-icon-image')).toBeInTheDocument();
  });

  it('disables delete with the reason for a file in use, and deletes one that is not', async () => {
    let items = [
      fileItem({
        id: 1,
        original_name: 'logo.png',
        mime_type: 'image/png',
        kind: 'image',
        owner_type: 'school_logo',
        in_use: { kind: 'school_logo', label: 'Korea University' },
        can_delete: false,
      }),
      fileItem({ id: 2, original_name: 'old.pdf' }),
    ];
    const { calls, user } = setup('/media', {
      'GET /api/files': () => fakeResponse(200, filePage(items)),
      'DELETE /api/files/2': () => {
        items = items.filter((f) => f.id !== 2);
        return fakeResponse(204);
      },
    });
    const inUse = (await screen.findByText('logo.png', {}, SLOW)).closest('tr')!;
    const refused = within(inUse).getByTestId('file-delete-refused');
    expect(within(refused).getByRole('button', { name: 'Delete logo.png' })).toBeDisabled();
    expect(refused).toHaveAttribute(
      'data-reason',
      'In use as the logo of Korea University: it is deleted or replaced there.',
    );
    await user.hover(refused);
    expect(
      await screen.findByText(
        'In use as the logo of Korea University: it is deleted or replaced there.',
        {},
        SLOW,
      ),
    ).toBeInTheDocument();

    const usageReads = () => calls.filter((c) => c.url === '/api/files/usage').length;
    const readsBefore = usageReads();
    fireEvent.click(screen.getByRole('button', { name: 'Delete old.pdf' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }, SLOW));
    await waitFor(() => expect(screen.queryByText('old.pdf')).toBeNull(), SLOW);
    expect(calls.some((c) => c.init.method === 'DELETE' && c.url === '/api/files/2')).toBe(true);
    // the storage usage is read again after a delete
    await waitFor(() => expect(usageReads()).toBeGreaterThan(readsBefore));
  });

  it('says a refused delete (the file came into use) in the user language', async () => {
    setup('/media', {
      'GET /api/files': fakeResponse(200, filePage([fileItem({ id: 3, original_name: 'photo.png' })])),
      'DELETE /api/files/3': fakeResponse(409, {
        message: 'This file is in use.',
        code: 'conflict',
        message_key: 'storageFull',
      }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete photo.png' }, SLOW));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }, SLOW));
    // the catalogued message of the answer, by its key (any catalogued key does for the test)
    expect(await screen.findByTestId('file-notice', {}, SLOW)).toHaveTextContent('Storage is full.');
  });

  it('shows a refused filter (422) beside the filters, and the page stays', async () => {
    setup('/media?created_from=2026-13-45', {
      'GET /api/files': fakeResponse(422, {
        message: 'The given data was invalid.',
        code: 'validation',
        errors: { created_from: ['Must be a date (YYYY-MM-DD).'] },
        error_keys: { created_from: [{ key: 'invalidDate' }] },
      }),
    });
    expect(await screen.findByTestId('files-filter-error', {}, SLOW)).toHaveTextContent(
      'Uploaded from: Must be a date (YYYY-MM-DD).',
    );
    expect(screen.getByRole('heading', { name: 'Media manager' })).toBeInTheDocument();
    // an impossible date is not shown as another one (dayjs would roll it over to 2027-02-14)
    expect(screen.getByPlaceholderText('Uploaded from')).toHaveValue('');
    expect(screen.getByTestId('files-empty')).toHaveTextContent('No files match these filters.');
  });

  it('shows the storage used with the warning from 90 %, and an empty state', async () => {
    setup('/media', {
      'GET /api/files/usage': fakeResponse(200, storageUsage(92, 'almost_full')),
      'GET /api/files': fakeResponse(200, filePage([])),
    });
    const bar = await screen.findByTestId('storage-usage', {}, SLOW);
    expect(bar).toHaveAttribute('data-status', 'almost_full');
    expect(bar).toHaveTextContent('Storage used: 942 MB of 1,024 MB (92 %)');
    expect(within(bar).getByTestId('storage-usage-status')).toHaveTextContent(
      'Storage is almost full: 942 MB of 1,024 MB used (92 %).',
    );
    expect(await screen.findByTestId('files-empty', {}, SLOW)).toHaveTextContent(
      'No files have been uploaded yet.',
    );
  });

  it('is in Chinese for a zh_HK user', async () => {
    await act(async () => initI18n('zh_HK'));
    setup('/media', {
      'GET /api/files': fakeResponse(
        200,
        filePage([fileItem({ in_use: { kind: 'school_logo', label: '高麗大學' }, can_delete: false })]),
      ),
    });
    await screen.findByText('brochure.pdf', {}, SLOW);
    expect(screen.getByRole('heading', { name: '媒體管理' })).toBeInTheDocument();
    expect(screen.getByTestId('file-delete-refused')).toHaveAttribute(
      'data-reason',
      '此檔案正用作高麗大學的標誌，請在該處刪除或更換。',
    );
    expect(screen.getByRole('link', { name: '下載 brochure.pdf' })).toHaveAttribute('href', '/api/files/1');
  });
});
