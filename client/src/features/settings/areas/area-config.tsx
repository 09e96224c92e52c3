import { PlusOutlined } from '@ant-design/icons';
import { areas } from '../../../../../shared/resources/areas';
import { configFromDeclaration } from '../../../components/resource/from-declaration';
import type { ResourceRow } from '../../../components/resource/types';
import { localName } from '../names';
import { ButtonLink } from '../../../components/layout/button-link';

type AreaRow = ResourceRow & { parent_id: number | null; districts?: AreaRow[] };

/**
 * `/settings/area`: areas and their districts, one tree (a district belongs to an area). The areas' own: the
 * tree (each area's `districts`, no parent column), "add district" on an area, and the parent chosen among the
 * areas only (the create form's `areas`: a district cannot have districts), on create.
 */
export const areaConfig = configFromDeclaration<AreaRow>(areas, {
  routePath: '/settings/area',
  referencedHintKey: 'settings.area.referencedHint',
  columns: { parent_id: false },
  filters: [],
  childrenOf: (row) => row.districts,
  rowActions: (row, { t }) =>
    row.parent_id === null ? (
      <ButtonLink to={`/settings/area/create?parent_id=${row.id}`} size="small" icon={<PlusOutlined />}>
        {t('settings.area.addDistrict')}
      </ButtonLink>
    ) : null,
  fields: {
    parent_id: {
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
  },
  form: { initialValues: (query) => (query.parent_id ? { parent_id: Number(query.parent_id) } : {}) },
});
