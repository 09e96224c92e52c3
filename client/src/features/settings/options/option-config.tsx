import { Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { OPTION_KEYS, ZOptionCreate, ZOptionUpdate } from '../../../../../shared/schemas/options';
import type { ResourceConfig, ResourceRow, Translate } from '../../../components/resource/types';
import { localName } from '../names';

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
 * `/settings/option/:key`: every option list of domain.md; drag rows to reorder; a value in use cannot be
 * deleted (the server refuses with the counts), it is deactivated instead.
 */
export const optionConfig: ResourceConfig<OptionRow> = {
  name: 'option',
  apiPath: (p) => `/api/options/${p.key}`,
  routePath: (p) => `/settings/option/${p.key}`,
  module: 'settings',
  titleKey: 'settings.option.title',
  titleValues: (p, t) => ({ list: optionKeyLabel(p.key, t) }),
  searchable: true,
  exportable: true,
  auditEntity: 'option',
  referencedHintKey: 'settings.option.referencedHint',
  reorder: { url: (p) => `/api/options/${p.key}/order` },
  toolbar: ({ params }) => <OptionKeySwitch current={params.key} />,
  filters: [
    {
      name: 'is_active',
      labelKey: 'settings.fields.active',
      type: 'select',
      options: [
        { value: 'true', labelKey: 'settings.fields.activeOnly' },
        { value: 'false', labelKey: 'settings.fields.inactiveOnly' },
      ],
    },
  ],
  columns: [
    { key: 'value', titleKey: 'settings.option.value', sortable: true },
    { key: 'label_en', titleKey: 'settings.fields.nameEn', sortable: true },
    { key: 'label_zh', titleKey: 'settings.fields.nameZh', sortable: true },
    {
      key: 'is_active',
      titleKey: 'settings.fields.active',
      render: (row, { t }) =>
        row.is_active ? (
          <Tag color="green">{t('settings.fields.yes')}</Tag>
        ) : (
          <Tag>{t('settings.fields.no')}</Tag>
        ),
    },
    { key: 'in_use', titleKey: 'settings.option.inUse' },
  ],
  recordTitle: (row, language) => localName(row, language, 'label'),
  form: {
    create: ZOptionCreate,
    update: ZOptionUpdate,
    fields: [
      {
        name: 'value',
        labelKey: 'settings.option.value',
        helpKey: 'settings.option.valueHelp',
        input: { type: 'text' },
      },
      { name: 'label_en', labelKey: 'settings.fields.nameEn', input: { type: 'text' } },
      { name: 'label_zh', labelKey: 'settings.fields.nameZh', input: { type: 'text' } },
      { name: 'is_active', labelKey: 'settings.fields.active', input: { type: 'switch' } },
    ],
  },
};
