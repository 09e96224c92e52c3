import { useId } from 'react';
import { GlobeIcon } from './icons';

export interface LanguageSelectProps<L extends string> {
  /** the language now in use */
  value: L;
  /** each language, by its own name (`English`, `繁體中文`) */
  options: readonly { value: L; label: string }[];
  onChange: (value: L) => void;
  /** the control's name for screen readers (and its tooltip), e.g. "Language" */
  label: string;
}

/**
 * The sign-in screens' language switch: a native select (keyboard and screen readers get the platform's own
 * list), shown as antd's text button with the globe (`data-testid="language-switch"`, as the header's switch).
 */
export function LanguageSelect<L extends string>({
  value,
  options,
  onChange,
  label,
}: LanguageSelectProps<L>) {
  const id = `language-${useId()}`;
  return (
    <span className="lite-language" title={label}>
      <GlobeIcon className="lite-language__icon" />
      <label htmlFor={id} className="lite-sr-only">
        {label}
      </label>
      <select
        id={id}
        className="lite-language__select"
        value={value}
        onChange={(e) => onChange(e.target.value as L)}
        data-testid="language-switch"
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </span>
  );
}
