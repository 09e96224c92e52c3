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

/** A form field choosing a role, branch or company (the same choices on create and edit). */
export function LookupSelect({
  source,
  allowClear = true,
  ...control
}: {
  source: LookupSource;
  allowClear?: boolean;
  id?: string;
  value?: number | null;
  onChange?: (value: number | null) => void;
  disabled?: boolean;
}) {
  const { i18n } = useTranslation();
  const rows = useLookup(source);
  return (
    <Select
      {...control}
      allowClear={allowClear}
      showSearch={{ optionFilterProp: 'label' }}
      style={{ maxWidth: 400 }}
      options={rows.map((r) => ({ value: r.id, label: labelOf(r, i18n.language) }))}
      onChange={(v: number | undefined) => control.onChange?.(v ?? null)}
    />
  );
}
