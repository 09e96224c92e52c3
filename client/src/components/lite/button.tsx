import type { ButtonHTMLAttributes } from 'react';
import { SpinnerIcon } from './icons';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'default' | 'text';
  /** busy: disabled, `aria-busy`, antd's turning arc before the text */
  loading?: boolean;
  block?: boolean;
}

/** A button with antd's look (primary: the accent, white text; default: outlined; text: no frame). */
export function Button({
  variant = 'default',
  loading = false,
  block = false,
  disabled,
  className,
  children,
  type = 'button',
  ...button
}: ButtonProps) {
  const classes = ['lite-button', `lite-button--${variant}`];
  if (block) classes.push('lite-button--block');
  if (loading) classes.push('lite-button--loading');
  if (className) classes.push(className);
  return (
    <button
      {...button}
      type={type}
      className={classes.join(' ')}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
    >
      {loading && <SpinnerIcon className="lite-spin" />}
      {children}
    </button>
  );
}

/** The form's submit button: primary, full width, busy while the form is sent. */
export function SubmitButton({ loading, children, ...rest }: Omit<ButtonProps, 'type' | 'variant'>) {
  return (
    <Button {...rest} type="submit" variant="primary" block loading={loading}>
      {children}
    </Button>
  );
}
