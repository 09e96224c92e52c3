import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { schoolAdmissions } from '../../../../shared/resources/schools';
import { appActions } from '../../app/app-slice';
import { makeStore } from '../../app/store';
import { resetCsrfToken } from '../../http/client';
import { initI18n } from '../../i18n/i18n';
import { SLOW, staffUser } from '../../test/fixtures';
import { fakeResponse, installFetch } from '../../test/http-fakes';
import { renderScreens } from '../../test/render-screens';
import { configFromDeclaration } from './from-declaration';
import { ResourceForm } from './resource-form-page';

jest.setTimeout(120_000);

const admin = staffUser({ id: 7, name: 'Admin', email: 'a@example.com', is_admin: true, branch_id: 1 });
const noOptions = fakeResponse(200, { items: [], total: 0, page: 1, per_page: 100 });
const admissionConfig = configFromDeclaration(schoolAdmissions);

function renderForm(form: ReactElement) {
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(admin as never));
  return renderScreens(store, [{ path: 'form', element: form }], '/form');
}

function newIntakeForm(saved: jest.Mock) {
  const calls = installFetch({
    'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
    'GET /api/options/term': noOptions,
    'GET /api/options/currency': noOptions,
    'GET /api/options/document_type': noOptions,
    'GET /api/schools/5/subjects/lookup': fakeResponse(200, []),
    'POST /api/schools/5/admissions': () => fakeResponse(201, { id: 9, name_en: 'Autumn 2026' }),
  });
  renderForm(
    <ResourceForm
      config={admissionConfig}
      data={{ defaults: {} }}
      apiPath="/api/schools/5/admissions"
      routePath="/schools/admission/5"
      onSaved={saved}
      onDeleted={() => undefined}
      onRefused={() => undefined}
    />,
  );
  return calls;
}

const posts = (calls: { init: RequestInit }[]) => calls.filter((c) => c.init.method === 'POST').length;

beforeEach(() => {
  resetCsrfToken();
  initI18n('en');
});

/**
 * Issue 31 §1: Enter typed to confirm a date (or a choice, a collection row's cell) saved the whole intake and
 * left the page. Enter confirms the field; the form is saved by Save or Ctrl/⌘+S, its rules checked first.
 */
describe('a record form and the Enter key', () => {
  it('keeps the form open and sends nothing when Enter confirms a typed date or a text field', async () => {
    const user = userEvent.setup();
    const saved = jest.fn();
    const calls = newIntakeForm(saved);
    const start = await screen.findByRole('textbox', { name: 'Application start' }, SLOW);
    await user.type(screen.getByRole('textbox', { name: 'English name' }), 'Autumn 2026{Enter}');
    await user.type(screen.getByRole('textbox', { name: 'Chinese name' }), '2026 秋季');
    await user.type(screen.getByRole('spinbutton', { name: 'Year' }), '2026{Enter}');
    await user.click(start);
    await user.keyboard('2026-11-01{Enter}');
    // the picker took the date
    await waitFor(() => expect((start as HTMLInputElement).value).toBe('2026-11-01'), SLOW);
    // give a submission the time it would take: nothing is sent, nothing is saved
    await new Promise((resolve) => setTimeout(resolve, 300));
    console.log(
      `Enter in 3 fields of a new intake: ${posts(calls)} POST, saved ${saved.mock.calls.length} times`,
    );
    expect(posts(calls)).toBe(0);
    expect(saved).not.toHaveBeenCalled();

    // Ctrl+S saves it, with the date confirmed by Enter
    fireEvent.keyDown(document, { key: 's', ctrlKey: true });
    await waitFor(() => expect(saved).toHaveBeenCalled(), SLOW);
    const post = calls.find((c) => c.init.method === 'POST')!;
    expect(JSON.parse(String(post.init.body))).toMatchObject({
      name_en: 'Autumn 2026',
      name_zh: '2026 秋季',
      year: 2026,
      application_start: '2026-11-01',
    });
  });

  it('checks the rules on Ctrl/⌘+S: a record missing a required part is shown its errors, not saved', async () => {
    const saved = jest.fn();
    const calls = newIntakeForm(saved);
    await screen.findByRole('textbox', { name: 'Application start' }, SLOW);
    const shortcut = fireEvent.keyDown(document, { key: 's', metaKey: true });
    // the browser's "save page" is kept from opening
    expect(shortcut).toBe(false);
    expect(await screen.findAllByText(/required/i, {}, SLOW)).not.toHaveLength(0);
    expect(posts(calls)).toBe(0);
    expect(saved).not.toHaveBeenCalled();
  });
});
