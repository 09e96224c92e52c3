import { AppError } from '../../lib/app-error';
import { orWhereContains } from '../../db/search';
import type { ResourceDefinition, Row } from '../../resources/resource';
import { resourceRepository } from '../../resources/resource.repository';
import { declaredRules } from '../../resources/rows';
import { areas } from '../../../../shared/resources/areas';

/**
 * The rules of areas beyond their declaration (shared/resources/areas.ts): a tree (its `parent_id` looks up an
 * area), so the list shows the areas (no parent), each with its districts, unless `?parent_id=` asks for one
 * area's districts, and an export writes both (the machinery's `tree`); a district's parent is an area, and an
 * area with districts cannot become a district.
 */
export const areaRules: Partial<ResourceDefinition> = declaredRules(areas, {
  // a district's name finds its area (the list and the area picker show areas, each with its districts)
  searchAlso(where, pattern) {
    where.orWhereExists((sub) =>
      sub
        .select(1)
        .from('areas as district')
        .whereRaw('?? = ??', ['district.parent_id', 'areas.id'])
        .where((names) =>
          orWhereContains(names, ['district.name_en', 'district.name_zh', 'district.name_ko'], pattern),
        ),
    );
  },
  async expand(db, rows) {
    const areaIds = rows.filter((r) => r.parent_id === null).map((r) => r.id);
    if (!areaIds.length) return rows;
    const districts = await resourceRepository.findWhere(db, 'areas', (qb) =>
      qb.whereIn('parent_id', areaIds).orderBy(['sort_order', 'id']),
    );
    const byArea = new Map<number, Row[]>();
    for (const d of districts) {
      const areaId = Number(d.parent_id);
      byArea.set(areaId, [...(byArea.get(areaId) ?? []), d]);
    }
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
      throw AppError.field('validation', 'parent_id', 'areaOwnDistrict');
    }
    const [parent] = await resourceRepository.findWhere(db, 'areas', (qb) => qb.where('id', data.parent_id));
    if (!parent || parent.parent_id !== null) {
      throw AppError.field('validation', 'parent_id', 'chooseArea');
    }
    if (existing) {
      const children = await resourceRepository.count(db, 'areas', 'parent_id', existing.id);
      if (children > 0) {
        throw AppError.field('validation', 'parent_id', 'areaWithDistricts');
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
});
