import { declareResource } from './declaration';

/**
 * Schools, their subjects and their intakes (domain.md "Schools"; spec `/schools`, tabs basic, subject,
 * admission and attachment). A school is shared by every branch; its attachments and logo are files it owns.
 */
export const schools = declareResource({
  name: 'school',
  path: '/schools',
  table: 'schools',
  module: 'schools',
  fields: {
    code: {
      type: 'text',
      max: 40,
      required: true,
      unique: true,
      searchable: 'identifier',
      sortable: true,
      pattern: 'code',
      uppercase: true,
    },
    name_en: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    name_zh: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    name_ko: { type: 'text', max: 200, searchable: 'name' },
    school_type: { type: 'option', key: 'school_type', filterable: true },
    area_id: { type: 'lookup', resource: 'area', filterable: true },
    district_id: {
      type: 'lookup',
      resource: 'area',
      filterable: true,
      help: true,
      narrowedBy: { field: 'area_id', filter: 'parent_id' },
    },
    address: { type: 'text', max: 500, list: false, export: true },
    website: { type: 'text', max: 300, list: false, export: true },
    email: { type: 'email', list: false, export: true },
    phone: { type: 'text', max: 50, list: false, export: true },
    contact_person: { type: 'text', max: 200, list: false, export: true },
    description: { type: 'text', max: 5000, multiline: true },
    logo_file_id: { type: 'file', accept: 'image', owner: 'school_logo', help: true },
    is_partner: { type: 'boolean', default: false, filterable: true },
    is_active: { type: 'boolean', default: true, filterable: true },
    remark: { type: 'text', max: 2000, multiline: true },
  },
  display: { en: ['name_en'], zh_HK: ['name_zh'] },
  defaultSort: 'name_en',
  references: [
    { table: 'school_subjects', column: 'school_id', key: 'subjects' },
    { table: 'school_admissions', column: 'school_id', key: 'admissions' },
    { table: 'files', column: 'owner_id', where: { owner_type: 'school' }, key: 'attachments' },
    { table: 'student_applications', column: 'school_id', key: 'applications', whenTableExists: true },
    { table: 'special_events', column: 'school_id', key: 'special_events' },
    { table: 'quotation_items', column: 'school_id', key: 'quotation_items' },
  ],
  tabs: ['basic', 'subject', 'admission', 'attachment'],
  page: { route: '/schools', menu: { group: 'schools', order: 10 } },
});

/** A school's subjects (programmes): a code unique within the school, the tuition fee as money. */
export const schoolSubjects = declareResource({
  name: 'school_subject',
  path: '/school-subjects',
  table: 'school_subjects',
  module: 'schools',
  fields: {
    school_id: {
      type: 'lookup',
      resource: 'school',
      required: true,
      list: false,
      export: false,
      filterable: true,
    },
    code: {
      type: 'text',
      max: 40,
      required: true,
      searchable: 'identifier',
      sortable: true,
      pattern: 'code',
      uppercase: true,
    },
    name_en: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    name_zh: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    name_ko: { type: 'text', max: 200, searchable: 'name' },
    faculty: { type: 'text', max: 200, searchable: 'name' },
    degree_level: { type: 'option', key: 'degree_level', filterable: true },
    duration_months: { type: 'integer', min: 1, max: 240 },
    tuition_fee: { type: 'money', currency: 'currency', min: 0 },
    currency: { type: 'currency', list: false, export: true },
    language_of_instruction: { type: 'text', max: 100, list: false, export: true },
    is_active: { type: 'boolean', default: true, filterable: true },
    remark: { type: 'text', max: 2000, multiline: true },
  },
  display: { en: ['code', 'name_en'], zh_HK: ['code', 'name_zh'] },
  defaultSort: 'code',
  unique: [['code']],
  references: [
    { table: 'admission_subjects', column: 'subject_id', key: 'admissions' },
    { table: 'student_applications', column: 'subject_id', key: 'applications', whenTableExists: true },
    { table: 'quotation_items', column: 'subject_id', key: 'quotation_items' },
  ],
  filters: {
    /** the subjects an intake opens (an application's subject is one of them) */
    admission_id: {
      type: 'lookup',
      resource: 'school_admission',
      via: { table: 'admission_subjects', column: 'subject_id' },
    },
  },
  parent: { resource: 'school', column: 'school_id', segment: 'subjects' },
  importable: true,
});

/**
 * An intake ("admission time"): its dates in order, the subjects it opens (this school's only), its timetable
 * of milestones and the checklist of documents an applicant provides, saved whole with it.
 */
export const schoolAdmissions = declareResource({
  name: 'school_admission',
  path: '/school-admissions',
  table: 'school_admissions',
  module: 'schools',
  fields: {
    school_id: {
      type: 'lookup',
      resource: 'school',
      required: true,
      list: false,
      export: false,
      filterable: true,
    },
    name_en: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    name_zh: { type: 'text', max: 200, required: true, searchable: 'name', sortable: true },
    year: { type: 'integer', min: 2000, max: 2100, required: true, sortable: true, filterable: true },
    term: { type: 'option', key: 'term', filterable: true },
    application_start: { type: 'date', sortable: true },
    application_deadline: { type: 'date', sortable: true },
    interview_date: { type: 'date', list: false, export: true },
    result_date: { type: 'date', list: false, export: true },
    semester_start: { type: 'date' },
    application_fee: { type: 'money', currency: 'currency', min: 0, list: false, export: true },
    currency: { type: 'currency', list: false, export: true },
    remark: { type: 'text', max: 2000, multiline: true },
  },
  display: { en: ['name_en'], zh_HK: ['name_zh'] },
  defaultSort: '-year',
  collections: {
    subject_ids: {
      table: 'admission_subjects',
      column: 'admission_id',
      ids: { column: 'subject_id', resource: 'school_subject' },
      max: 500,
      help: true,
    },
    timetable: {
      table: 'admission_timetable',
      column: 'admission_id',
      orderColumn: 'sort_order',
      max: 50,
      fields: {
        date: { type: 'date', required: true },
        title_en: { type: 'text', max: 200, required: true },
        title_zh: { type: 'text', max: 200, required: true },
      },
    },
    documents: {
      table: 'admission_documents',
      column: 'admission_id',
      orderColumn: 'sort_order',
      max: 100,
      help: true,
      fields: {
        // choosing the type names the row after it, in both languages (issue 31 §13)
        document_type: {
          type: 'option',
          key: 'document_type',
          fillsNames: { en: 'name_en', zh: 'name_zh' },
        },
        name_en: { type: 'text', max: 200, required: true },
        name_zh: { type: 'text', max: 200, required: true },
        is_required: { type: 'boolean', default: true },
        remark: { type: 'text', max: 500 },
      },
    },
  },
  references: [
    { table: 'student_applications', column: 'admission_id', key: 'applications', whenTableExists: true },
    { table: 'quotation_items', column: 'admission_id', key: 'quotation_items' },
  ],
  parent: { resource: 'school', column: 'school_id', segment: 'admissions' },
});
