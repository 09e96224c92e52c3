import type { OptionKey } from '../../../../shared/schemas/options';

/**
 * Where each option list's values are stored (domain.md): a value in use cannot be deleted (deactivate it
 * instead) nor have its code changed. Tables that a later issue creates are counted once they exist; the
 * option tests check that every table that exists has the declared column.
 */
export const OPTION_USAGE: Record<OptionKey, { table: string; column: string }[]> = {
  nationality: [
    { table: 'students', column: 'nationality' },
    { table: 'student_family_members', column: 'nationality' },
  ],
  gender: [{ table: 'students', column: 'gender' }],
  relationship: [{ table: 'student_family_members', column: 'relationship' }],
  education_level: [{ table: 'student_educations', column: 'level' }],
  korean_level: [{ table: 'students', column: 'korean_level' }],
  topik_level: [{ table: 'students', column: 'topik_level' }],
  visa_type: [{ table: 'students', column: 'visa_type' }],
  school_type: [{ table: 'schools', column: 'school_type' }],
  degree_level: [{ table: 'school_subjects', column: 'degree_level' }],
  term: [
    { table: 'school_admissions', column: 'term' },
    { table: 'student_grade_reports', column: 'term' },
  ],
  document_type: [{ table: 'admission_documents', column: 'document_type' }],
  payment_method: [
    { table: 'receipts', column: 'method' },
    { table: 'refunds', column: 'method' },
    { table: 'student_prepaids', column: 'method' },
  ],
  unit: [
    { table: 'products', column: 'unit' },
    { table: 'quotation_items', column: 'unit' },
    { table: 'quotation_lines', column: 'unit' },
    { table: 'order_items', column: 'unit' },
  ],
  event_type: [{ table: 'special_events', column: 'event_type' }],
  currency: [
    'school_subjects',
    'school_admissions',
    'products',
    'special_events',
    'quotation_items',
    'quotations',
    'orders',
    'receipts',
    'refunds',
    'student_prepaids',
  ].map((table) => ({ table, column: 'currency' })),
  student_status: [{ table: 'students', column: 'status' }],
};
