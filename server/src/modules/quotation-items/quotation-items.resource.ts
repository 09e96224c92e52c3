import { quotationItems } from '../../../../shared/resources/quotation-items';
import { AppError } from '../../lib/app-error';
import type { Row } from '../../resources/resource';
import { declaredRules, numberOrNull } from '../../resources/rows';
import { applicationsRepository } from '../students/applications.repository';

/** The value a write leaves in a column: the body's when it gives one, else the stored one. */
function merged(data: Row, existing: Row | null, column: string): unknown {
  return column in data ? data[column] : existing?.[column];
}

/**
 * The rules of quotation items beyond their declaration (shared/resources/quotation-items.ts): a package follows
 * the cascade school → intake → subject, as an application does — an intake only with its school
 * (`chooseSchoolFirst`, `intakeNotOfSchool`), a subject only with an intake that opens it (`chooseIntakeFirst`,
 * `subjectNotOfIntake`). A bundle of services names none of them.
 */
export const quotationItemRules = declaredRules(quotationItems, {
  async beforeWrite(db, data, existing) {
    if (!('school_id' in data) && !('admission_id' in data) && !('subject_id' in data)) return;
    const schoolId = numberOrNull(merged(data, existing, 'school_id'));
    const admissionId = numberOrNull(merged(data, existing, 'admission_id'));
    const subjectId = numberOrNull(merged(data, existing, 'subject_id'));
    if (admissionId !== null) {
      if (schoolId === null) throw AppError.field('validation', 'admission_id', 'chooseSchoolFirst');
      const intake = await applicationsRepository.intake(db, admissionId);
      if (!intake || numberOrNull(intake.school_id) !== schoolId)
        throw AppError.field('validation', 'admission_id', 'intakeNotOfSchool');
    }
    if (subjectId !== null) {
      if (admissionId === null) throw AppError.field('validation', 'subject_id', 'chooseIntakeFirst');
      if (!(await applicationsRepository.opensSubject(db, admissionId, subjectId)))
        throw AppError.field('validation', 'subject_id', 'subjectNotOfIntake');
    }
  },
});
