import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useResourceReadQuery } from '../../components/resource/resource-api';

interface LookupRow {
  id: number;
  name?: string;
  code?: string;
  name_en?: string;
  name_zh?: string;
}

/** Where a form's choices come from: the `GET …/create` answer of the resource, which lists them. */
export interface LookupSource {
  url: '/api/users/create' | '/api/branches/create';
  list: 'roles' | 'branches' | 'companies';
}

function labelOf(row: LookupRow, language: string): string {
  if (row.name) return row.name;
  const name = language === 'en' ? row.name_en : row.name_zh;
  return [row.code, name].filter(Boolean).join(' · ');
}

/** The choices, read once and shared by every cell and field that asks (no navigation on a refusal). */
function useLookup(source: LookupSource): LookupRow[] {
  const { data } = useResourceReadQuery({ url: source.url, handleErrors: false });
  return ((data as Record<string, LookupRow[]> | undefined)?.[source.list] ?? []) as LookupRow[];
}

/** A list cell: the name of a role, branch or company by its id. */
export function LookupName({ source, id }: { source: LookupSource; id: unknown }) {
  const { i18n } = useTranslation();
  const rows = useLookup(source);
  if (id === null || id === undefined) return <>—</>;
  const row = rows.find((r) => r.id === id);
  return <>{row ? labelOf(row, i18n.language) : `#${String(id)}`}</>;
}

/** The label of a role or branch as a record names it itself (`role_name`, `branch_code`, `branch_name_*`). */
export function recordLookupLabel(
  record: Record<string, unknown> | null | undefined,
  prefix: 'role' | 'branch',
  language: string,
): string | null {
  if (!record) return null;
  const row: LookupRow = {
    id: 0,
    name: (record[`${prefix}_name`] as string | null | undefined) ?? undefined,
    code: (record[`${prefix}_code`] as string | null | undefined) ?? undefined,
    name_en: (record[`${prefix}_name_en`] as string | null | undefined) ?? undefined,
    name_zh: (record[`${prefix}_name_zh`] as string | null | undefined) ?? undefined,
  };
  return labelOf(row, language) || null;
}

/**
 * A form field choosing a role, branch or company (the choices the server lets this user give). A value
 * outside them (a record out of the user's reach, shown read-only) keeps its own label, `currentLabel`.
 */
export function LookupSelect({
  source,
  allowClear = true,
  currentLabel,
  ...control
}: {
  source: LookupSource;
  allowClear?: boolean;
  currentLabel?: string | null;
  id?: string;
  value?: number | null;
  onChange?: (value: number | null) => void;
  disabled?: boolean;
}) {
  const { i18n } = useTranslation();
  const rows = useLookup(source);
  const options = rows.map((r) => ({ value: r.id, label: labelOf(r, i18n.language) }));
  const value = control.value;
  if (value !== null && value !== undefined && currentLabel && !options.some((o) => o.value === value))
    options.push({ value, label: currentLabel });
  return (
    <Select
      {...control}
      allowClear={allowClear}
      showSearch={{ optionFilterProp: 'label' }}
      style={{ maxWidth: 400 }}
      options={options}
      onChange={(v: number | undefined) => control.onChange?.(v ?? null)}
    />
  );
}
