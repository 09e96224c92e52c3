import { useMemo } from 'react';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * One select for an option list's value, whoever reads the list: the staff forms (`OptionSelect`, from the
 * settings' option lists) and the portal's (`PortalOptionSelect`, from the lists the student may read). Kept apart
 * from from-declaration.tsx so the portal does not load the staff forms' machinery.
 */

/** A control a form item hands its `id`, `value`, `onChange` and `disabled`. */
export interface ControlProps<V> {
  id?: string;
  value?: V | null;
  onChange?: (value: V | null) => void;
  disabled?: boolean;
  /** the control's name where no label names it (a collection row's cell: "Document type 2") */
  'aria-label'?: string;
}

/** One choice of an option list, in both languages. */
export interface Choice {
  value: string;
  label_en: string;
  label_zh: string;
}

/** A choice's label in a language (English when the Chinese one is empty; the value itself when the list lacks it). */
export function choiceLabel(
  choices: readonly Choice[] | undefined,
  value: unknown,
  language: string,
): string {
  if (value === null || value === undefined || value === '') return '';
  const item = choices?.find((o) => o.value === value);
  if (!item) return String(value);
  return (language === 'en' ? item.label_en : item.label_zh) || item.label_en;
}

/** A searchable select of the choices; a value no longer among them (since deactivated) still shows and stays. */
export function ChoiceSelect({
  choices,
  loading,
  allowClear = true,
  ...props
}: ControlProps<string> & {
  choices: readonly Choice[] | undefined;
  loading: boolean;
  allowClear?: boolean;
}) {
  const { i18n } = useTranslation();
  const options = useMemo(() => {
    const out = (choices ?? []).map((o) => ({
      value: o.value,
      label: choiceLabel(choices, o.value, i18n.language),
    }));
    if (props.value && !out.some((o) => o.value === props.value))
      out.push({ value: props.value, label: props.value });
    return out;
  }, [choices, i18n.language, props.value]);
  return (
    <Select
      id={props.id}
      aria-label={props['aria-label']}
      disabled={props.disabled}
      value={props.value ?? undefined}
      onChange={(v: string | undefined) => props.onChange?.(v ?? null)}
      options={options}
      loading={loading}
      allowClear={allowClear}
      showSearch={{ optionFilterProp: 'label' }}
      style={{ maxWidth: 400, width: '100%' }}
    />
  );
}
