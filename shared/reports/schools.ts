import { defineReport } from './definition';

/**
 * Schools (issue 29, item 2): the applications made in a range of days (Hong Kong), the offers among them (offered,
 * accepted or enrolled) and the enrolments, per school and intake or per school, of the students in the caller's
 * branch scope.
 */
export const schoolsReport = defineReport({
  name: 'school',
  group: 'schools',
  api: '/reports/schools/school',
  route: '/reports/schools/school',
  criteria: {
    applied: { type: 'dateRange', default: 'this_year' },
    school_id: { type: 'lookup', resource: 'school' },
    admission_id: {
      type: 'lookup',
      resource: 'school_admission',
      narrowedBy: { criterion: 'school_id', filter: 'school_id' },
    },
    branch_id: { type: 'lookup', resource: 'branch' },
    consultant_user_id: {
      type: 'lookup',
      resource: 'user',
      narrowedBy: { criterion: 'branch_id', filter: 'branch_id' },
    },
  },
  columns: {
    school: { type: 'text', link: 'url' },
    intake: { type: 'text' },
    // a year is read as it is written (2027, not 2,027)
    year: { type: 'text' },
    applications: { type: 'integer', total: true },
    offers: { type: 'integer', total: true },
    enrolments: { type: 'integer', total: true },
  },
  groupings: {
    intake: ['school', 'intake', 'year', 'applications', 'offers', 'enrolments'],
    school: ['school', 'applications', 'offers', 'enrolments'],
  },
  order: 70,
});

/** The applications that received an offer: offered, and those that went on to accept it or enrol. */
export const OFFERED_STATUSES = ['offered', 'accepted', 'enrolled'] as const;
