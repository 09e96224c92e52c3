import { useState } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { CRUD_ACTIONS, EXTRA_ACTIONS, MODULES, WITHOUT_DELETE } from '../../../../shared/permissions';
import { appActions } from '../../app/app-slice';
import { makeStore } from '../../app/store';
import type { User } from '../../app/types';
import { AntdProvider } from '../../components/antd-provider';
import { initI18n } from '../../i18n/i18n';
import { RoleGrid } from './role-grid';

const manager: User = {
  id: 5,
  name: 'Manager',
  email: 'manager@example.com',
  is_admin: false,
  language: 'en',
  branch_id: 1,
  role: { id: 2, name: 'Manager', data_scope: 'all' },
  permissions: ['students.view', 'students.create', 'roles.view', 'roles.create'],
  two_factor_enabled: false,
};

function Harness({ initial = [] as string[] }) {
  const [value, setValue] = useState<string[]>(initial);
  return (
    <>
      <RoleGrid value={value} onChange={setValue} />
      <output data-testid="value">{JSON.stringify(value)}</output>
    </>
  );
}

function setup(user: User, initial: string[] = []) {
  const store = makeStore('backoffice');
  store.dispatch(appActions.setUser(user));
  render(
    <Provider store={store}>
      <AntdProvider>
        <Harness initial={initial} />
      </AntdProvider>
    </Provider>,
  );
  return userEvent.setup();
}
const value = () => JSON.parse(screen.getByTestId('value').textContent ?? '[]') as string[];

jest.setTimeout(30_000);

describe('role editor: module × action grid', () => {
  beforeEach(() => initI18n('en'));

  it('shows every permission key of shared/permissions.ts as one checkbox, a row per module', () => {
    setup({ ...manager, is_admin: true });
    const grid = screen.getByTestId('role-grid');
    const boxes = within(grid)
      .getAllByRole('checkbox')
      .filter((b) => b.closest('[data-permission]'));
    const keys = boxes.map((b) => b.closest('[data-permission]')!.getAttribute('data-permission'));
    const expected = MODULES.flatMap((m) =>
      m === 'reports'
        ? // the reports are read, never written: one key per report group, and the export (decision 0019)
          ['students', 'schools', 'orders', 'calendar', 'export'].map((a) => `reports.${a}`)
        : [
            // money documents are never deleted: no delete to grant (decisions 0018, 0020)
            ...CRUD_ACTIONS.filter((a) => a !== 'delete' || !WITHOUT_DELETE.includes(m)),
            ...(EXTRA_ACTIONS[m] ?? []),
          ].map((a) => `${m}.${a}`),
    );
    expect(keys).toEqual(expected);
    expect(within(grid).getAllByRole('row')).toHaveLength(MODULES.length + 1);
    expect(screen.getByLabelText('Invoices – Void')).toBeInTheDocument();
    expect(screen.queryByLabelText('Invoices – Delete')).toBeNull();
    expect(screen.getByLabelText('Students – Delete')).toBeInTheDocument();
    expect(screen.getByLabelText("Files – View all branches' files")).toBeInTheDocument();
  });

  it('ticks and unticks keys, kept in the shared list order; a module row ticks all of it', async () => {
    const user = setup({ ...manager, is_admin: true });
    await user.click(screen.getByLabelText('Students – Update'));
    await user.click(screen.getByLabelText('Calendar – View'));
    expect(value()).toEqual(['calendar.view', 'students.update']);
    await user.click(screen.getByLabelText('All of Invoices'));
    expect(value()).toEqual([
      'calendar.view',
      'orders.view',
      'orders.create',
      'orders.update',
      'orders.void',
      'students.update',
    ]);
    await user.click(screen.getByLabelText('Students – Update'));
    await user.click(screen.getByLabelText('All of Invoices'));
    expect(value()).toEqual(['calendar.view']);
  });

  it('a non-admin can grant only the keys they hold themselves', async () => {
    const user = setup(manager);
    expect(screen.getByLabelText('Students – Create')).toBeEnabled();
    expect(screen.getByLabelText('Students – Delete')).toBeDisabled();
    expect(screen.getByLabelText('Invoices – Void')).toBeDisabled();
    await user.click(screen.getByLabelText('All of Students'));
    expect(value()).toEqual(['students.view', 'students.create']);
  });

  it('shows the keys a role already has as ticked', () => {
    setup({ ...manager, is_admin: true }, ['refunds.approve', 'reports.export']);
    expect(screen.getByLabelText('Refunds – Approve')).toBeChecked();
    expect(screen.getByLabelText('Reports – Export')).toBeChecked();
    expect(screen.getByLabelText('Reports – Students')).not.toBeChecked();
    // no view / create / update / delete of the reports: nothing to tick that would mean nothing
    expect(screen.queryByLabelText('Reports – View')).toBeNull();
    expect(screen.queryByLabelText('Reports – Create')).toBeNull();
  });
});
