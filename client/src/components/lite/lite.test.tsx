import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Alert, Checkbox, LanguageSelect, Panel, SubmitButton, TextField, useLiteForm } from '.';

describe('the lite kit', () => {
  it('ties a field’s label to its input, and its error to it: invalid, described by, announced', () => {
    const { rerender } = render(<TextField label="Email" type="email" value="" onChange={() => {}} />);
    const input = screen.getByLabelText('Email');
    expect(input).toHaveAttribute('type', 'email');
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(input).not.toHaveAttribute('aria-describedby');

    rerender(<TextField label="Email" type="email" value="" onChange={() => {}} error="Invalid email" />);
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Invalid email');
    // a live region: read out as it appears
    expect(screen.getByText('Invalid email')).toHaveAttribute('role', 'alert');
  });

  it('shows a password on demand, the toggle named apart from the field', async () => {
    const user = userEvent.setup();
    render(
      <TextField
        label="Password"
        type="password"
        value="secret"
        onChange={() => {}}
        revealLabel="Show password"
      />,
    );
    // the label names the input alone (the toggle's name is its text, not a label)
    const input = screen.getByLabelText('Password');
    expect(input).toHaveAttribute('type', 'password');
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await user.click(toggle);
    expect(input).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
  });

  it('disables the submit button while loading, and says it is busy', () => {
    const { rerender } = render(<SubmitButton>Sign in</SubmitButton>);
    const button = screen.getByRole('button', { name: 'Sign in' });
    expect(button).toHaveAttribute('type', 'submit');
    expect(button).toBeEnabled();
    rerender(<SubmitButton loading>Sign in</SubmitButton>);
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
  });

  it('announces an alert, of its type, closable by a named button', async () => {
    const onClose = jest.fn();
    render(
      <Alert
        type="error"
        title="Login or password is incorrect"
        onClose={onClose}
        closeLabel="Close"
        data-testid="x"
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Login or password is incorrect');
    expect(alert).toHaveClass('lite-alert--error');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('labels a checkbox by its text and a panel is a region when named', () => {
    const onChange = jest.fn();
    render(
      <Panel aria-label="Sign in">
        <Checkbox checked={false} onChange={onChange}>
          Remember me
        </Checkbox>
      </Panel>,
    );
    fireEvent.click(screen.getByLabelText('Remember me'));
    expect(onChange).toHaveBeenCalledWith(true);
    expect(screen.getByRole('region', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('chooses a language from a labelled native select', async () => {
    const onChange = jest.fn();
    render(
      <LanguageSelect
        label="Language"
        value="zh_HK"
        options={[
          { value: 'en', label: 'English' },
          { value: 'zh_HK', label: '繁體中文' },
        ]}
        onChange={onChange}
      />,
    );
    const select = screen.getByRole('combobox', { name: 'Language' });
    expect(select).toHaveValue('zh_HK');
    await userEvent.setup().selectOptions(select, 'English');
    expect(onChange).toHaveBeenCalledWith('en');
  });
});

function SignInForm({ onValid }: { onValid: (values: { email: string; password: string }) => void }) {
  const form = useLiteForm(
    { email: '', password: '' },
    {
      email: [(v) => (v ? null : 'Required'), (v) => (String(v).includes('@') ? null : 'Invalid email')],
      password: [(v) => (v ? null : 'Required')],
    },
    onValid,
  );
  return (
    <form onSubmit={form.submit} noValidate>
      <TextField
        label="Email"
        value={form.values.email}
        onChange={(v) => form.setValue('email', v)}
        error={form.errors.email}
        inputRef={form.inputRef('email')}
      />
      <TextField
        label="Password"
        type="password"
        value={form.values.password}
        onChange={(v) => form.setValue('password', v)}
        error={form.errors.password}
        inputRef={form.inputRef('password')}
      />
      <button type="button" onClick={() => form.setFields([{ name: 'email', errors: ['Taken'] }])}>
        server
      </button>
      <SubmitButton>Sign in</SubmitButton>
    </form>
  );
}

describe('useLiteForm', () => {
  it('checks on submit, focuses the first wrong field, checks again as it is typed in, then submits', async () => {
    const user = userEvent.setup();
    const onValid = jest.fn();
    render(<SignInForm onValid={onValid} />);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(onValid).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Required');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Required');
    expect(screen.getByLabelText('Email')).toHaveFocus();

    await user.type(screen.getByLabelText('Email'), 'a');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Invalid email');
    await user.type(screen.getByLabelText('Email'), '@b.c');
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('aria-invalid');
    await user.type(screen.getByLabelText('Password'), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(onValid).toHaveBeenCalledWith({ email: 'a@b.c', password: 'pw' });
  });

  it('shows a server’s field error on its field (antd’s setFields shape)', async () => {
    render(<SignInForm onValid={() => {}} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'server' }));
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Taken');
  });
});
