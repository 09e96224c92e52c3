import type { InputHTMLAttributes, ReactNode } from 'react';

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'onChange'> {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}

/** A native checkbox with its label around it (antd's Checkbox look: 16 px box in the accent colour). */
export function Checkbox({ checked, onChange, children, className, ...input }: CheckboxProps) {
  return (
    <label className={`lite-checkbox${className ? ` ${className}` : ''}`}>
      <input {...input} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>{children}</span>
    </label>
  );
}
