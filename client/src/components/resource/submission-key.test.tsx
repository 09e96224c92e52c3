import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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

/**
 * Issue 28 §4: the client sends one `Idempotency-Key` per submission. Save pressed again after a lost answer sends
 * the same key (the server answers its first result: one record, not two); other values are another submission.
 */
describe('a new record’s submission key', () => {
  beforeEach(() => {
    resetCsrfToken();
    initI18n('en');
  });

  it('is kept when Save is pressed again after a lost answer, and renewed when a value changes', async () => {
    const user = userEvent.setup();
    let posted = 0;
    const calls = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'GET /api/options/term': noOptions,
      'GET /api/options/currency': noOptions,
      'GET /api/options/document_type': noOptions,
      'GET /api/schools/5/subjects/lookup': fakeResponse(200, []),
      // the first two answers are lost on the way back (the network gone), the third arrives
      'POST /api/schools/5/admissions': () =>
        ++posted <= 2
          ? new TypeError('Failed to fetch')
          : fakeResponse(201, { id: 9, name_en: 'Autumn 2026' }),
    });
    const saved = jest.fn();
    const store = makeStore('backoffice');
    store.dispatch(appActions.setUser(admin as never));
    renderScreens(
      store,
      [
        {
          path: 'form',
          element: (
            <ResourceForm
              config={configFromDeclaration(schoolAdmissions)}
              data={{ defaults: {} }}
              apiPath="/api/schools/5/admissions"
              routePath="/schools/admission/5"
              onSaved={saved}
              onDeleted={() => undefined}
              onRefused={() => undefined}
            />
          ),
        },
      ],
      '/form',
    );
    const name = await screen.findByRole('textbox', { name: 'English name' }, SLOW);
    await user.type(name, 'Autumn 2026');
    await user.type(screen.getByRole('textbox', { name: 'Chinese name' }), '2026 秋季');
    await user.type(screen.getByRole('spinbutton', { name: 'Year' }), '2026');
    const keys = () =>
      calls
        .filter((c) => c.init.method === 'POST')
        .map((c) => new Headers(c.init.headers).get('Idempotency-Key'));
    const save = () => user.click(screen.getByRole('button', { name: /Save/ }));

    await save();
    await waitFor(() => expect(keys()).toHaveLength(1), SLOW);
    await save();
    await waitFor(() => expect(keys()).toHaveLength(2), SLOW);
    // another value: another submission
    await user.type(name, ' intake');
    await save();
    await waitFor(() => expect(saved).toHaveBeenCalled(), SLOW);
    const [first, again, changed] = keys();
    console.log(
      `submission keys: lost answer then Save again → same key ${first === again}; value changed → new key ${changed !== again}`,
    );
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(again).toBe(first);
    expect(changed).toMatch(/^[0-9a-f]{32}$/);
    expect(changed).not.toBe(first);
  });
});
