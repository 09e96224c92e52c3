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
import DocumentChecklist from './document-checklist';

jest.setTimeout(120_000);

type Routes = Parameters<typeof installFetch>[0];

/** A checklist row as `GET /api/applications/12/documents` answers it. */
function doc(id: number, status: string, allowed: string[], extra: Record<string, unknown> = {}) {
  const codes: Record<string, string> = {
    pending: 'P',
    uploaded: 'U',
    submitted: 'S',
    unsubmitted: 'N',
    cancelled: 'C',
  };
  const withFile = status !== 'pending' && status !== 'cancelled';
  return {
    id,
    application_id: 12,
    name_en: `Document ${id}`,
    name_zh: `文件${id}`,
    status,
    code: codes[status],
    is_required: true,
    file_id: withFile ? 100 + id : null,
    file_name: withFile ? `scan-${id}.pdf` : null,
    allowed_actions: allowed,
    refusal: null,
    ...extra,
  };
}

/** One of each state, with the moves the server allows an updater on each (domain.md's table). */
const EVERY_STATE = [
  doc(1, 'pending', ['update', 'cancel']),
  doc(2, 'uploaded', ['update', 'submit', 'cancel']),
  doc(3, 'submitted', ['update', 'unsubmit']),
  doc(4, 'unsubmitted', ['update', 'submit', 'cancel']),
  doc(5, 'cancelled', ['update', 'restore']),
];

const page = (items: unknown[]) => ({ items, total: items.length, page: 1, per_page: 100 });

function setup(routes: Routes, permissions = ['students.view', 'students.update']) {
  const calls = installFetch({
    'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
    ...routes,
  });
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(staffUser({ permissions })));
  store.dispatch(appActions.configReceived({ maxUploadSize: 5, features: {} }));
  render(
    <Provider store={store}>
      <MemoryRouter>
        <AntdProvider>
          <DocumentChecklist application={{ id: 12 }} studentId={5} />
        </AntdProvider>
      </MemoryRouter>
    </Provider>,
  );
  return { calls, user: userEvent.setup({ applyAccept: false }) };
}

const rowOf = (id: number) => screen.getByTestId(`document-actions-${id}`).closest('tr') as HTMLElement;
const posts = (calls: FetchCall[]) => calls.filter((c) => c.init.method === 'POST');
const reads = (calls: FetchCall[]) =>
  calls.filter(
    (c) => (c.init.method ?? 'GET') === 'GET' && c.url.startsWith('/api/applications/12/documents'),
  );

beforeEach(() => {
  resetCsrfToken();
  initI18n('en');
});

describe('the document checklist', () => {
  it('shows each row’s one-letter code in its colour with its state, and a legend of the codes', async () => {
    setup({ 'GET /api/applications/12/documents': fakeResponse(200, page(EVERY_STATE)) });
    await screen.findByText('Document 5', {}, SLOW);
    const codes = screen.getAllByTestId('document-code');
    expect(codes.map((c) => [c.textContent, c.getAttribute('data-status')])).toEqual([
      ['P', 'pending'],
      ['U', 'uploaded'],
      ['S', 'submitted'],
      ['N', 'unsubmitted'],
      ['C', 'cancelled'],
    ]);
    expect(screen.getAllByTestId('document-state').map((s) => s.textContent)).toEqual([
      'Pending',
      'Uploaded',
      'Submitted',
      'Unsubmitted',
      'Cancelled',
    ]);
    // grey, blue, green, orange, red
    expect(codes[0].className).not.toMatch(/ant-tag-(blue|green|orange|red)/);
    expect(codes[1].className).toMatch(/ant-tag-blue/);
    expect(codes[2].className).toMatch(/ant-tag-green/);
    expect(codes[3].className).toMatch(/ant-tag-orange/);
    expect(codes[4].className).toMatch(/ant-tag-red/);
    const legend = screen.getByTestId('checklist-legend');
    for (const [code, text] of [
      ['P', 'Pending — required, nothing uploaded yet'],
      ['U', 'Uploaded — a file is attached, not yet sent to the school'],
      ['S', 'Submitted — sent to the school'],
      ['N', 'Unsubmitted — was submitted, taken back'],
      ['C', 'Cancelled — no longer needed'],
    ])
      expect(within(legend).getByTestId(`legend-${code}`)).toHaveTextContent(`${code}${text}`);
    // the file opens in the browser, or downloads
    expect(screen.getAllByTestId('document-file')[0]).toHaveAttribute('href', '/api/files/102?inline=1');
    expect(screen.getByRole('link', { name: 'Download scan-2.pdf' })).toHaveAttribute(
      'href',
      '/api/files/102',
    );
  });

  it('shows only the buttons each row allows', async () => {
    setup({ 'GET /api/applications/12/documents': fakeResponse(200, page(EVERY_STATE)) });
    await screen.findByText('Document 5', {}, SLOW);
    const buttons = (id: number) =>
      within(rowOf(id))
        .getAllByRole('button')
        .map((b) => b.textContent?.trim());
    // each move named by what it does: never a dialog's "Cancel" (issue 31)
    expect(buttons(1)).toEqual(['Upload', 'Mark not needed']);
    expect(buttons(2)).toEqual(['Replace', 'Remove file', 'Mark submitted', 'Mark not needed']);
    expect(buttons(3)).toEqual(['Take back']);
    expect(buttons(4)).toEqual(['Replace', 'Mark submitted', 'Mark not needed']);
    expect(buttons(5)).toEqual(['Mark needed again']);
  });

  it('marks a document submitted through its own move once confirmed, and reads the checklist again', async () => {
    let rows = EVERY_STATE;
    const { calls } = setup({
      'GET /api/applications/12/documents': () => fakeResponse(200, page(rows)),
      'POST /api/application-documents/2/submit': () => {
        rows = rows.map((r) => (r.id === 2 ? doc(2, 'submitted', ['update', 'unsubmit']) : r));
        return fakeResponse(200, rows[1]);
      },
    });
    await screen.findByText('Document 5', {}, SLOW);
    expect(reads(calls)).toHaveLength(1);
    fireEvent.click(within(rowOf(2)).getByRole('button', { name: 'Mark submitted Document 2' }));
    // asked first, as taking back and the portal's reopening are: nothing is sent before the confirmation
    const confirm = await screen.findByText(/Mark Document 2 submitted to the school\?/, {}, SLOW);
    expect(posts(calls)).toHaveLength(0);
    fireEvent.click(
      within(confirm.closest('.ant-popover') as HTMLElement).getByRole('button', { name: 'Mark submitted' }),
    );
    await waitFor(() => expect(within(rowOf(2)).getByTestId('document-code')).toHaveTextContent('S'), SLOW);
    expect(posts(calls).map((c) => c.url)).toEqual(['/api/application-documents/2/submit']);
    expect(reads(calls).length).toBeGreaterThanOrEqual(2);
  });

  it('asks before taking a document back, and shows a refusal (409) in the user’s language', async () => {
    await act(async () => initI18n('zh_HK'));
    const { calls } = setup({
      'GET /api/applications/12/documents': fakeResponse(200, page(EVERY_STATE)),
      'POST /api/application-documents/3/unsubmit': fakeResponse(409, {
        message: 'Only a submitted document can be taken back.',
        code: 'conflict',
        message_key: 'documentCannotUnsubmit',
      }),
    });
    await screen.findByText('文件5', {}, SLOW);
    fireEvent.click(within(rowOf(3)).getByRole('button', { name: '取回 文件3' }));
    // nothing is sent until it is confirmed
    const confirm = await screen.findByText('要取回 文件3 嗎？它將變為「已取回」。', {}, SLOW);
    expect(posts(calls)).toHaveLength(0);
    const popover = confirm.closest('.ant-popover') as HTMLElement;
    fireEvent.click(within(popover).getByRole('button', { name: '取回' }));
    expect(await screen.findByTestId('checklist-error', {}, SLOW)).toHaveTextContent(
      '文件3：只有已遞交的文件才可取回。',
    );
    expect(posts(calls).map((c) => c.url)).toEqual(['/api/application-documents/3/unsubmit']);
  });

  it('uploads a file into a row (checked first) and removes one, at the row’s file route', async () => {
    const { calls, user } = setup({
      'GET /api/applications/12/documents': fakeResponse(200, page(EVERY_STATE)),
      'POST /api/application-documents/1/file': fakeResponse(200, doc(1, 'uploaded', ['update'])),
      'DELETE /api/application-documents/2/file': fakeResponse(200, doc(2, 'pending', ['update'])),
    });
    await screen.findByText('Document 5', {}, SLOW);
    // the control renews its input after each choice
    const input = () => rowOf(1).querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input(), new File(['MZ'], 'setup.exe', { type: 'application/x-msdownload' }));
    expect(await screen.findByTestId('checklist-error', {}, SLOW)).toHaveTextContent(
      'setup.exe: This type of file is not allowed.',
    );
    expect(posts(calls)).toHaveLength(0);

    await user.upload(input(), new File(['%PDF-1.4'], 'passport.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1), SLOW);
    const [post] = posts(calls);
    expect(post.url).toBe('/api/application-documents/1/file');
    expect(((post.init.body as FormData).get('file') as File).name).toBe('passport.pdf');

    fireEvent.click(within(rowOf(2)).getByRole('button', { name: 'Remove file Document 2' }));
    const confirm = await screen.findByText(/Remove the file of Document 2\?/, {}, SLOW);
    fireEvent.click(
      within(confirm.closest('.ant-popover') as HTMLElement).getByRole('button', { name: 'Remove file' }),
    );
    await waitFor(
      () =>
        expect(
          calls.some((c) => c.init.method === 'DELETE' && c.url === '/api/application-documents/2/file'),
        ).toBe(true),
      SLOW,
    );
  });

  it('shows a user without students.update the checklist and its files, without a button', async () => {
    const readOnly = EVERY_STATE.map((r) => ({ ...r, allowed_actions: [] }));
    setup({ 'GET /api/applications/12/documents': fakeResponse(200, page(readOnly)) }, ['students.view']);
    await screen.findByText('Document 5', {}, SLOW);
    expect(screen.getAllByTestId('document-code')).toHaveLength(5);
    expect(screen.getAllByTestId('document-file')).toHaveLength(3);
    expect(screen.queryByText('Actions')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    expect(document.querySelector('input[type="file"]')).toBeNull();
  });
});
