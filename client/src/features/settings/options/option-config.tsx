import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { OPTION_KEYS, options } from '../../../../../shared/resources/options';
import { configFromDeclaration } from '../../../components/resource/from-declaration';
import type { ResourceRow, Translate } from '../../../components/resource/types';

type OptionRow = ResourceRow & { value: string; is_active: boolean; in_use: number };

/** The option list's name in the interface language. */
export const optionKeyLabel = (key: string | undefined, t: Translate) =>
  t(`settings.option.keys.${key ?? ''}`);

function OptionKeySwitch({ current }: { current: string | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Select
      aria-label={t('settings.option.list')}
      data-testid="option-key"
      value={current}
      showSearch
      optionFilterProp="label"
      style={{ minWidth: 200 }}
      onChange={(key: string) => navigate(`/settings/option/${key}`)}
      options={OPTION_KEYS.map((key) => ({ value: key, label: optionKeyLabel(key, t) }))}
    />
  );
}

/**
 * `/settings/option/:key`: every option list of domain.md, one declaration for all of them (`/api/options/{key}`).
 * The lists' own: the switch between lists, drag rows to reorder (so no order column or field: a new value goes
 * to the end); a value in use cannot be deleted (the server refuses with the counts and says to deactivate it).
 */
export const optionConfig = configFromDeclaration<OptionRow>(options, {
  apiPath: (p) => `/api/options/${p.key}`,
  routePath: (p) => `/settings/option/${p.key}`,
  titleKey: 'settings.option.title',
  titleValues: (p, t) => ({ list: optionKeyLabel(p.key, t) }),
  reorder: { url: (p) => `/api/options/${p.key}/order` },
  toolbar: ({ params }) => <OptionKeySwitch current={params.key} />,
  columns: { sort_order: false },
  fields: { sort_order: false },
});
