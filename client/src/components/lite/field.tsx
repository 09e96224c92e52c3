import { useId, useState, type InputHTMLAttributes, type Ref } from 'react';
import { EyeIcon, EyeInvisibleIcon } from './icons';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'onChange'> {
  /** the visible label, tied to the input (`<label for>`) */
  label: string;
  type?: 'text' | 'email' | 'password';
  value: string;
  onChange: (value: string) => void;
  /** the field's error under it: the input is then `aria-invalid` and described by it, and it is announced */
  error?: string | null;
  /** for a password field: the toggle's text for screen readers (e.g. "Show password"); no toggle without it */
  revealLabel?: string;
  inputRef?: Ref<HTMLInputElement>;
}

/**
 * A labelled text, email or password field with its error, looking like antd's vertical form item (label above,
 * 32 px input, the error in red under it). A password field has antd's eye to show what was typed.
 */
export function TextField({
  label,
  type = 'text',
  value,
  onChange,
  error,
  revealLabel,
  inputRef,
  id: givenId,
  ...input
}: TextFieldProps) {
  const generated = useId();
  const id = givenId ?? `field-${generated}`;
  const errorId = `${id}-error`;
  const [revealed, setRevealed] = useState(false);
  const password = type === 'password';
  const invalid = !!error;
  const control = (
    <input
      {...input}
      ref={inputRef}
      id={id}
      className="lite-input__control"
      type={password && revealed ? 'text' : type}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      aria-invalid={invalid || undefined}
      aria-describedby={invalid ? errorId : undefined}
    />
  );
  return (
    <div className={`lite-field${invalid ? ' lite-field--invalid' : ''}`}>
      <label className="lite-field__label" htmlFor={id}>
        {label}
      </label>
      <span className="lite-input">
        {control}
        {password && revealLabel && (
          <button
            type="button"
            className="lite-input__reveal"
            aria-pressed={revealed}
            aria-controls={id}
            onClick={() => setRevealed((r) => !r)}
          >
            {revealed ? <EyeIcon /> : <EyeInvisibleIcon />}
            <span className="lite-sr-only">{revealLabel}</span>
          </button>
        )}
      </span>
      <div className="lite-field__error" id={errorId} role="alert">
        {error}
      </div>
    </div>
  );
}
