import { z } from 'zod';
import { ZAreaCreate, ZAreaUpdate } from '../../../../shared/schemas/areas';
import { AppError } from '../../lib/app-error';
import type { ResourceDefinition, Row } from '../../resources/resource';
import { resourceRepository } from '../../resources/resource.repository';

/**
 * Areas and their districts, one tree two levels deep: the list shows the areas with their districts;
 * `?parent_id=` lists one area's districts.
 */
export const areasResource: ResourceDefinition = {
  name: 'area',
  path: '/areas',
  table: 'areas',
  module: 'settings',
  schemas: {
    create: ZAreaCreate,
    update: ZAreaUpdate,
    filters: z.object({ parent_id: z.coerce.number().int().positive().optional() }),
  },
  searchable: ['name_en', 'name_zh', 'name_ko'],
  sortable: ['sort_order', 'name_en', 'name_zh'],
  defaultSort: 'sort_order',
  unique: [['parent_id', 'name_en']],
  references: [{ table: 'areas', column: 'parent_id', key: 'districts' }],
  applyFilters(qb, filters) {
    if (filters.parent_id) qb.where('parent_id', filters.parent_id);
    else qb.whereNull('parent_id');
  },
  async expand(db, rows) {
    const areaIds = rows.filter((r) => r.parent_id === null).map((r) => r.id);
    if (!areaIds.length) return rows;
    const districts = await resourceRepository.findWhere(db, 'areas', (qb) =>
      qb.whereIn('parent_id', areaIds).orderBy(['sort_order', 'id']),
    );
    const byArea = new Map<number, Row[]>();
    for (const d of districts) byArea.set(d.parent_id, [...(byArea.get(d.parent_id) ?? []), d]);
    return rows.map((r) =>
      r.parent_id === null
        ? {
            ...r,
            districts: (byArea.get(r.id) ?? []).map(
              ({ id, parent_id, name_en, name_zh, name_ko, sort_order }) => ({
                id,
                parent_id,
                name_en,
                name_zh,
                name_ko,
                sort_order,
              }),
            ),
          }
        : r,
    );
  },
  async beforeWrite(db, data, existing) {
    if (data.parent_id === undefined || data.parent_id === null) return;
    if (existing && data.parent_id === existing.id) {
      throw AppError.field('validation', 'parent_id', 'An area cannot be its own district.');
    }
    const parent = await resourceRepository.findById(db, areasResource, data.parent_id);
    if (!parent || parent.parent_id !== null) {
      throw AppError.field('validation', 'parent_id', 'Choose an area for this district.');
    }
    if (existing) {
      const children = await resourceRepository.count(db, 'areas', 'parent_id', existing.id);
      if (children > 0) {
        throw AppError.field(
          'validation',
          'parent_id',
          'An area that has districts cannot become a district.',
        );
      }
    }
  },
  createForm: async (db) => ({
    areas: await resourceRepository.findWhere(
      db,
      'areas',
      (qb) => qb.whereNull('parent_id').orderBy(['sort_order', 'id']),
      ['id', 'name_en', 'name_zh'],
    ),
  }),
};
