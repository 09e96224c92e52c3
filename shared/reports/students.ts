import { defineReport } from './definition';

/**
 * Students (issue 29, item 2): the students registered in a range of days, by category, status, nationality,
 * intake (those with an application to it) and consultant, in the caller's branch scope, each with the number of
 * its applications (to the intake, when one is chosen); or counted by category, status, nationality, consultant,
 * branch or month of registration.
 */
export const studentsReport = defineReport({
  name: 'student',
  group: 'students',
  api: '/reports/students/student',
  route: '/reports/students/student',
  criteria: {
    created: { type: 'dateRange', default: 'this_year' },
    branch_id: { type: 'lookup', resource: 'branch' },
    consultant_user_id: {
      type: 'lookup',
      resource: 'user',
      narrowedBy: { criterion: 'branch_id', filter: 'branch_id' },
    },
    category_id: { type: 'lookup', resource: 'student_category' },
    status: { type: 'option', key: 'student_status' },
    nationality: { type: 'option', key: 'nationality' },
    admission_id: { type: 'lookup', resource: 'school_admission' },
  },
  columns: {
    student_no: { type: 'text', link: 'url' },
    name_en: { type: 'text' },
    name_zh: { type: 'text' },
    category: { type: 'text' },
    status: { type: 'text' },
    nationality: { type: 'text' },
    branch: { type: 'text' },
    consultant: { type: 'text' },
    created: { type: 'date' },
    month: { type: 'text' },
    students: { type: 'integer', total: true },
    applications: { type: 'integer', total: true },
  },
  detail: [
    'student_no',
    'name_en',
    'name_zh',
    'category',
    'status',
    'nationality',
    'branch',
    'consultant',
    'created',
    'applications',
  ],
  groupings: {
    category: ['category', 'students', 'applications'],
    status: ['status', 'students', 'applications'],
    nationality: ['nationality', 'students', 'applications'],
    consultant: ['consultant', 'students', 'applications'],
    branch: ['branch', 'students', 'applications'],
    month: ['month', 'students', 'applications'],
  },
  defaultSort: '-created',
  sortable: ['created', 'student_no'],
  order: 60,
});
