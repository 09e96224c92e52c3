import { PlusOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { Link } from 'react-router-dom';
import { ZAreaCreate, ZAreaUpdate } from '../../../../../shared/schemas/areas';
import type { ResourceConfig, ResourceRow } from '../../../components/resource/types';
import { localName } from '../names';

type AreaRow = ResourceRow & { parent_id: number | null; districts?: AreaRow[] };

/** `/settings/area`: areas and their districts, one tree (a district belongs to an area). */
export const areaConfig: ResourceConfig<AreaRow> = {
  name: 'area',
  apiPath: '/api/areas',
  routePath: '/settings/area',
  module: 'settings',
  titleKey: 'settings.area.title',
  searchable: true,
  exportable: true,
  auditEntity: 'area',
  referencedHintKey: 'settings.area.referencedHint',
  columns: [
    { key: 'name_en', titleKey: 'settings.fields.nameEn', sortable: true },
    { key: 'name_zh', titleKey: 'settings.fields.nameZh', sortable: true },
    { key: 'name_ko', titleKey: 'settings.fields.nameKo' },
    { key: 'sort_order', titleKey: 'settings.fields.sortOrder', sortable: true },
  ],
  childrenOf: (row) => row.districts,
  recordTitle: (row, language) => localName(row, language),
  rowActions: (row, { t }) =>
    row.parent_id === null ? (
      <Link to={`/settings/area/create?parent_id=${row.id}`}>
        <Button size="small" icon={<PlusOutlined />}>
          {t('settings.area.addDistrict')}
        </Button>
      </Link>
    ) : null,
  form: {
    create: ZAreaCreate,
    update: ZAreaUpdate,
    initialValues: (query) => (query.parent_id ? { parent_id: Number(query.parent_id) } : {}),
    fields: [
      {
        name: 'parent_id',
        labelKey: 'settings.area.parent',
        helpKey: 'settings.area.parentHelp',
        only: 'create',
        input: {
          type: 'select',
          allowClear: true,
          options: (data, language) =>
            ((data.areas as Record<string, unknown>[] | undefined) ?? []).map((a) => ({
              value: Number(a.id),
              label: localName(a, language),
            })),
        },
      },
      { name: 'name_en', labelKey: 'settings.fields.nameEn', input: { type: 'text' } },
      { name: 'name_zh', labelKey: 'settings.fields.nameZh', input: { type: 'text' } },
      { name: 'name_ko', labelKey: 'settings.fields.nameKo', input: { type: 'text' } },
      { name: 'sort_order', labelKey: 'settings.fields.sortOrder', input: { type: 'number', min: 0 } },
    ],
  },
};
