import { schoolAdmissions, schools, schoolSubjects } from '../../../../shared/resources/schools';
import type { FieldMessageKey } from '../../../../shared/messages';
import { AppError } from '../../lib/app-error';
import { resourceRepository } from '../../resources/resource.repository';
import { declaredRules, numberOrNull } from '../../resources/rows';
import type { Row } from '../../resources/resource';
import type { Trx } from '../../db/knex';

/** The value a write leaves in a column: the body's when it gives one, else the stored one. */
function merged(data: Row, existing: Row | null, column: string): unknown {
  return column in data ? data[column] : existing?.[column];
}

async function areaRow(db: Trx, id: number): Promise<Row | undefined> {
  const [row] = await resourceRepository.findWhere(db, 'areas', (qb) => qb.where('id', id), [
    'id',
    'parent_id',
  ]);
  return row;
}

/**
 * The rules of schools beyond their declaration (shared/resources/schools.ts): the area is an area (not a
 * district), and the district one of that area's districts.
 */
export const schoolRules = declaredRules(schools, {
  async beforeWrite(db, data, existing) {
    if (!('area_id' in data) && !('district_id' in data)) return;
    const areaId = numberOrNull(merged(data, existing, 'area_id'));
    const districtId = numberOrNull(merged(data, existing, 'district_id'));
    if (areaId !== null) {
      const area = await areaRow(db, areaId);
      if (!area || area.parent_id !== null)
        throw AppError.field('validation', 'area_id', 'chooseAreaNotDistrict');
    }
    if (districtId !== null) {
      if (areaId === null) throw AppError.field('validation', 'district_id', 'chooseAreaFirst');
      const district = await areaRow(db, districtId);
      if (!district || numberOrNull(district.parent_id) !== areaId)
        throw AppError.field('validation', 'district_id', 'districtNotInArea');
    }
  },
});

/** Subjects need no rules of their own: the code is unique within the school by the declaration. */
export const schoolSubjectRules = declaredRules(schoolSubjects, {});

/**
 * The order an intake's dates keep: each date (when given) on or after the ones before it that are given.
 * `[field, the earlier field, the message on field]`.
 */
const DATE_ORDER: readonly [string, string, FieldMessageKey][] = [
  ['application_deadline', 'application_start', 'deadlineBeforeStart'],
  ['interview_date', 'application_start', 'interviewBeforeStart'],
  ['result_date', 'interview_date', 'resultBeforeInterview'],
  ['result_date', 'application_start', 'resultBeforeStart'],
  ['semester_start', 'result_date', 'semesterBeforeResult'],
  ['semester_start', 'application_deadline', 'semesterBeforeDeadline'],
];

/**
 * The rules of intakes beyond their declaration: the dates in order (start ≤ deadline ≤ …, the spec's
 * "Start date must be on or before the deadline date"), and the subjects it opens are its school's.
 */
export const schoolAdmissionRules = declaredRules(schoolAdmissions, {
  async beforeWrite(db, data, existing) {
    const date = (column: string) => {
      const value = merged(data, existing, column);
      return typeof value === 'string' && value ? value : null;
    };
    const start = date('application_start');
    const deadline = date('application_deadline');
    if (start && deadline && start > deadline) {
      // the field the user changed carries the message (both when both changed)
      const field = 'application_start' in data ? 'application_start' : 'application_deadline';
      throw AppError.field(
        'validation',
        field,
        field === 'application_start' ? 'startAfterDeadline' : 'deadlineBeforeStart',
      );
    }
    for (const [field, earlier, message] of DATE_ORDER) {
      const later = date(field);
      const before = date(earlier);
      if (later && before && later < before) throw AppError.field('validation', field, message);
    }
    const subjectIds = data.subject_ids;
    if (Array.isArray(subjectIds) && subjectIds.length) {
      const schoolId = merged(data, existing, 'school_id');
      const found = await resourceRepository.findWhere(
        db,
        'school_subjects',
        (qb) => qb.whereIn('id', subjectIds as number[]).where('school_id', Number(schoolId)),
        ['id'],
      );
      if (found.length !== subjectIds.length)
        throw AppError.field('validation', 'subject_ids', 'subjectNotOfSchool');
    }
  },
});
