import { LOCALES } from '../features';
import { declareResource } from './declaration';

/** An application's status (domain.md "Students"): draft until sent to the school, then the school's answer. */
export const APPLICATION_STATUSES = [
  'draft',
  'submitted',
  'offered',
  'rejected',
  'accepted',
  'enrolled',
  'withdrawn',
] as const;

/** The statuses the admission tab shows: the school has answered. */
export const ADMISSION_STATUSES = ['offered', 'rejected', 'accepted', 'enrolled'] as const;

/** A checklist row's status and its one-letter code (domain.md's table). */
export const DOCUMENT_STATUSES = ['pending', 'uploaded', 'submitted', 'unsubmitted', 'cancelled'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];
export const DOCUMENT_CODES: Record<DocumentStatus, string> = {
  pending: 'P',
  uploaded: 'U',
  submitted: 'S',
  unsubmitted: 'N',
  cancelled: 'C',
};

/** How a passport or visa stands against today: expired, or expiring within six months. */
export const EXPIRY_WARNINGS = ['expired', 'expiring'] as const;

/**
 * Students (domain.md "Students"; spec `/students`, `/students/create`, tabs basic, family, application,
 * admission, grade-report and attachment). A student belongs to a branch: branch-scoped staff see their own
 * branch's students and everything under them. The student number is generated per branch and year from the
 * numbering settings; the portal fields are set here by staff and used by the portal.
 */
export const students = declareResource({
  name: 'student',
  path: '/students',
  table: 'students',
  module: 'students',
  fields: {
    student_no: { type: 'text', max: 40, readOnly: true, searchable: 'identifier', sortable: true },
    surname_en: { type: 'text', max: 100, required: true, searchable: 'name', sortable: true },
    given_name_en: { type: 'text', max: 100, required: true, searchable: 'name', sortable: true },
    name_zh: { type: 'text', max: 100, searchable: 'name', sortable: true },
    name_ko: { type: 'text', max: 100, searchable: 'name', list: false, export: true },
    /** the student's photo (set by staff, or by the student in the portal): images only */
    photo_file_id: { type: 'file', accept: 'image', owner: 'student_photo', list: false, export: false },
    category_id: { type: 'lookup', resource: 'student_category', filterable: true },
    status: { type: 'option', key: 'student_status', filterable: true },
    branch_id: { type: 'lookup', resource: 'branch', filterable: true, help: true },
    consultant_user_id: {
      type: 'lookup',
      resource: 'user',
      filterable: true,
      help: true,
      narrowedBy: { field: 'branch_id', filter: 'branch_id' },
    },
    gender: { type: 'option', key: 'gender', list: false, export: true },
    birth_date: { type: 'date', list: false, export: true },
    nationality: { type: 'option', key: 'nationality', filterable: true, list: false, export: true },
    passport_no: {
      type: 'text',
      max: 40,
      unique: true,
      uppercase: true,
      pattern: 'letters_digits',
      searchable: 'identifier',
      list: false,
      export: true,
    },
    passport_expiry: { type: 'date', list: false, export: true },
    passport_warning: { type: 'text', max: 10, values: EXPIRY_WARNINGS, readOnly: true, export: false },
    phone: { type: 'text', max: 50, searchable: 'identifier' },
    email: { type: 'email', unique: true, searchable: 'identifier', list: false, export: true },
    application_email: { type: 'email', searchable: 'identifier', list: false, export: true, help: true },
    address: { type: 'text', max: 500, multiline: true },
    korean_level: { type: 'option', key: 'korean_level', list: false, export: true },
    topik_level: { type: 'option', key: 'topik_level', list: false, export: true },
    visa_type: { type: 'option', key: 'visa_type', list: false, export: true },
    visa_expiry: { type: 'date', list: false, export: true },
    visa_warning: { type: 'text', max: 10, values: EXPIRY_WARNINGS, readOnly: true, export: false },
    remark: { type: 'text', max: 5000, multiline: true },
    portal_enabled: { type: 'boolean', default: false, list: false, help: true },
    portal_email: { type: 'email', unique: true, searchable: 'identifier', list: false, help: true },
    language: { type: 'text', max: 10, values: LOCALES, default: 'zh_HK', list: false },
    portal_password_set: { type: 'boolean', readOnly: true, list: false },
    portal_must_change_password: { type: 'boolean', readOnly: true, list: false },
    portal_invited_at: { type: 'datetime', readOnly: true, list: false },
    info_submitted_at: { type: 'datetime', readOnly: true, sortable: true, list: false, export: true },
    created_at: { type: 'datetime', readOnly: true, sortable: true, list: false },
  },
  filters: {
    /** students with an application to this intake */
    admission_id: {
      type: 'lookup',
      resource: 'school_admission',
      via: { table: 'student_applications', column: 'student_id' },
    },
  },
  display: { en: ['student_no', 'surname_en', 'given_name_en'], zh_HK: ['student_no', 'name_zh'] },
  defaultSort: '-created_at',
  // 200,000 students and more: `q` is matched on the search-terms table, never by a scan
  searchTerms: true,
  branchColumn: 'branch_id',
  references: [
    { table: 'student_applications', column: 'student_id', key: 'applications' },
    { table: 'files', column: 'owner_id', where: { owner_type: 'student' }, key: 'attachments' },
    { table: 'student_grade_reports', column: 'student_id', key: 'grade_reports' },
    { table: 'special_event_registrations', column: 'student_id', key: 'event_registrations' },
    { table: 'quotations', column: 'student_id', key: 'quotations', whenTableExists: true },
    { table: 'orders', column: 'student_id', key: 'orders', whenTableExists: true },
  ],
  tabs: [
    'basic',
    'family',
    'application',
    'admission',
    'grade-report',
    'prepaid',
    'event',
    'quotation',
    'order',
    'attachment',
  ],
  // the family tab lists the family members and, under them, the education history
  tabChildren: { family: { member: 'student_family', education: 'student_education' } },
  page: { route: '/students', createRoute: '/students/create', menu: { group: 'students', order: 10 } },
});

/** A student's family members (the family tab; the portal's `/family`). */
export const studentFamily = declareResource({
  name: 'student_family',
  path: '/student-family-members',
  table: 'student_family_members',
  module: 'students',
  fields: {
    student_id: { type: 'lookup', resource: 'student', required: true, list: false, export: false },
    relationship: { type: 'option', key: 'relationship', required: true, filterable: true },
    name_en: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    name_zh: { type: 'text', max: 200, searchable: 'name', sortable: true },
    birth_date: { type: 'date', list: false, export: true },
    nationality: { type: 'option', key: 'nationality', list: false, export: true },
    occupation: { type: 'text', max: 200 },
    employer: { type: 'text', max: 200, list: false, export: true },
    phone: { type: 'text', max: 50 },
    email: { type: 'email' },
    address: { type: 'text', max: 500, multiline: true },
    is_emergency_contact: { type: 'boolean', default: false },
  },
  display: { en: ['name_en'], zh_HK: ['name_zh', 'name_en'] },
  defaultSort: 'name_en',
  parent: { resource: 'student', column: 'student_id', segment: 'family' },
});

/** A student's education history by level; submitting needs a primary and a secondary entry. */
export const studentEducations = declareResource({
  name: 'student_education',
  path: '/student-educations',
  table: 'student_educations',
  module: 'students',
  fields: {
    student_id: { type: 'lookup', resource: 'student', required: true, list: false, export: false },
    level: { type: 'option', key: 'education_level', required: true, filterable: true },
    school_name: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    start_date: { type: 'date', sortable: true },
    end_date: { type: 'date' },
    graduated: { type: 'boolean', default: false },
    remark: { type: 'text', max: 1000, multiline: true },
  },
  display: { en: ['school_name'], zh_HK: ['school_name'] },
  defaultSort: 'start_date',
  parent: { resource: 'student', column: 'student_id', segment: 'educations' },
});

/**
 * A student's application to one intake of a school, for one subject the intake opens; creating it creates its
 * document checklist from the intake's. The admission fields are the school's answer (the admission tab).
 */
export const studentApplications = declareResource({
  name: 'student_application',
  path: '/applications',
  table: 'student_applications',
  module: 'students',
  fields: {
    student_id: { type: 'lookup', resource: 'student', required: true, list: false, export: false },
    school_id: { type: 'lookup', resource: 'school', required: true, filterable: true },
    admission_id: {
      type: 'lookup',
      resource: 'school_admission',
      required: true,
      filterable: true,
      narrowedBy: { field: 'school_id', filter: 'school_id' },
    },
    subject_id: {
      type: 'lookup',
      resource: 'school_subject',
      required: true,
      filterable: true,
      help: true,
      narrowedBy: { field: 'admission_id', filter: 'admission_id' },
    },
    priority: { type: 'integer', min: 1, max: 99, default: 1, sortable: true },
    status: {
      type: 'text',
      max: 20,
      values: APPLICATION_STATUSES,
      default: 'draft',
      filterable: true,
    },
    application_deadline: { type: 'date', readOnly: true },
    documents_summary: { type: 'text', max: 100, readOnly: true, export: false },
    submitted_at: { type: 'date', list: false, export: true },
    result_date: { type: 'date', list: false, export: true },
    offer_date: { type: 'date', list: false, export: true },
    enrolment_date: { type: 'date', list: false, export: true },
    student_id_at_school: { type: 'text', max: 60, list: false, export: true },
    dormitory: { type: 'text', max: 200, list: false, export: true },
    coa_issued_at: { type: 'date', list: false, export: true },
    visa_issued_at: { type: 'date', list: false, export: true },
    remark: { type: 'text', max: 2000, multiline: true },
  },
  // an application is named by its school, intake and subject (the rows' lookup names); as a lookup, by priority
  display: { en: ['priority'], zh_HK: ['priority'] },
  defaultSort: 'priority',
  unique: [['admission_id', 'subject_id']],
  references: [{ table: 'files', column: 'owner_id', where: { owner_type: 'application' }, key: 'files' }],
  parent: { resource: 'student', column: 'student_id', segment: 'applications' },
});

/**
 * One row of an application's document checklist (an entry of the intake's checklist), with its status: a file
 * uploaded moves it P→U, removed U→P; staff submit, unsubmit, cancel and restore (domain.md's table). Served under
 * its application (`/api/applications/{id}/documents`) and at its own path for its moves and file.
 */
export const applicationDocuments = declareResource({
  name: 'application_document',
  path: '/application-documents',
  table: 'application_documents',
  module: 'students',
  fields: {
    application_id: {
      type: 'lookup',
      resource: 'student_application',
      required: true,
      list: false,
      export: false,
    },
    admission_document_id: { type: 'integer', readOnly: true, list: false, export: false },
    sort_order: { type: 'integer', readOnly: true, sortable: true, list: false, export: false },
    code: { type: 'text', max: 1, readOnly: true },
    name_en: { type: 'text', max: 200, readOnly: true },
    name_zh: { type: 'text', max: 200, readOnly: true },
    document_type: { type: 'option', key: 'document_type', readOnly: true },
    is_required: { type: 'boolean', readOnly: true },
    file_id: { type: 'integer', readOnly: true, list: false, export: false },
    file_name: { type: 'text', max: 255, readOnly: true },
    uploaded_at: { type: 'datetime', readOnly: true },
    submitted_at: { type: 'datetime', readOnly: true },
    remark: { type: 'text', max: 500 },
  },
  display: { en: ['name_en'], zh_HK: ['name_zh'] },
  defaultSort: 'sort_order',
  // its rows are made with their application, never on their own: only moves and a file change them
  readOnly: true,
  states: {
    column: 'status',
    values: DOCUMENT_STATUSES,
    initial: 'pending',
    actions: {
      submit: { from: ['uploaded', 'unsubmitted'], to: 'submitted', refused: 'documentCannotSubmit' },
      unsubmit: { from: ['submitted'], to: 'unsubmitted', refused: 'documentCannotUnsubmit' },
      cancel: {
        from: ['pending', 'uploaded', 'unsubmitted'],
        to: 'cancelled',
        refused: 'documentCannotCancel',
      },
      restore: { from: ['cancelled'], to: 'pending', refused: 'documentCannotRestore' },
    },
  },
  parent: { resource: 'student_application', column: 'application_id', segment: 'documents' },
});

/** Results after enrolment: a school's term report, with its file. */
export const studentGradeReports = declareResource({
  name: 'student_grade_report',
  path: '/grade-reports',
  table: 'student_grade_reports',
  module: 'students',
  fields: {
    student_id: { type: 'lookup', resource: 'student', required: true, list: false, export: false },
    school_id: { type: 'lookup', resource: 'school', required: true, filterable: true },
    year: { type: 'integer', min: 2000, max: 2100, required: true, sortable: true, filterable: true },
    term: { type: 'option', key: 'term', required: true },
    gpa: { type: 'text', max: 10, help: true },
    credits: { type: 'integer', min: 0, max: 1000 },
    attendance_rate: { type: 'rate', min: 0, max: 10000 },
    file_id: { type: 'file', accept: 'any', owner: 'grade_report' },
    remark: { type: 'text', max: 2000, multiline: true },
  },
  display: { en: ['year', 'term'], zh_HK: ['year', 'term'] },
  defaultSort: '-year',
  unique: [['school_id', 'year', 'term']],
  parent: { resource: 'student', column: 'student_id', segment: 'grade-reports' },
});
