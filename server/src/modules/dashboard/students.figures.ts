import { APPLICATION_STATUSES } from '../../../../shared/resources/students';
import { valueLabelKey } from '../../../../shared/resources/declaration';
import { addDays, presetRange } from '../../../../shared/reports/criteria';
import { declaredLabel } from '../../resources/declared';
import { nameIn } from '../calendar/calendar.sources';
import { applicationsRepository } from '../students/applications.repository';
import {
  OPEN_STATUSES,
  PENDING_DOCUMENTS_DAYS_AFTER,
  PENDING_DOCUMENTS_DAYS_BEFORE,
} from '../students/applications.source';
import { applicationName } from '../students/student-names';
import { lastMonths, monthStart, registerDashboardFigure } from './dashboard.figures';
import { studentFiguresRepository } from './students.figures.repository';

/** How many months the new students' series shows (this one included). */
export const NEW_STUDENTS_MONTHS = 12;
/** How many applications the pending documents' figure lists. */
export const PENDING_LISTED = 8;

/**
 * The dashboard's figures of students and their applications (issue 29, item 5), in the caller's branch scope:
 * this year's applications by status (the schools report explains them), the documents still to send before a
 * deadline near today — the calendar's window, 14 days ahead to 7 days past — (the calendar report lists them),
 * and the students registered in each of the last twelve months (the students report by month).
 */
export function registerStudentFigures(): void {
  registerDashboardFigure({
    key: 'applications_by_status',
    kind: 'counts',
    permission: 'students.view',
    order: 100,
    link: () => ({
      path: '/reports/schools/school-result?applied_preset=this_year',
      permission: 'reports.schools',
    }),
    async compute(db, ctx, scope) {
      const from = presetRange('this_year', scope.today).from;
      const rows = await studentFiguresRepository.applicationsByStatus(db, scope.branchIds, from, ctx.signal);
      const counts = new Map(rows.map((row) => [String(row.status), Number(row.n)]));
      return {
        items: APPLICATION_STATUSES.map((status) => {
          const label = declaredLabel(valueLabelKey('student_application', 'status', status));
          return {
            key: status,
            label: ctx.language === 'en' ? label.en : label.zh,
            value: counts.get(status) ?? 0,
          };
        }),
      };
    },
  });

  registerDashboardFigure({
    key: 'pending_documents',
    kind: 'list',
    permission: 'students.view',
    order: 200,
    link: (scope) => ({
      path:
        '/reports/calendar-result?source=student_pending_documents' +
        `&date_from=${addDays(scope.today, -PENDING_DOCUMENTS_DAYS_AFTER)}` +
        `&date_to=${addDays(scope.today, PENDING_DOCUMENTS_DAYS_BEFORE)}`,
      permission: 'reports.calendar',
    }),
    async compute(db, ctx, scope) {
      const from = addDays(scope.today, -PENDING_DOCUMENTS_DAYS_AFTER);
      const to = addDays(scope.today, PENDING_DOCUMENTS_DAYS_BEFORE + 1);
      const applications = await applicationsRepository.deadlinesBetween(
        db,
        from,
        to,
        scope.branchIds,
        ctx.signal,
      );
      const documents = await applicationsRepository.documentsIn(
        db,
        applications.map((row) => Number(row.id)),
        OPEN_STATUSES,
        ctx.signal,
      );
      const open = new Map<number, number>();
      for (const doc of documents)
        open.set(Number(doc.application_id), (open.get(Number(doc.application_id)) ?? 0) + 1);
      const pending = applications.filter((row) => open.has(Number(row.id)));
      return {
        total: documents.length,
        items: pending.slice(0, PENDING_LISTED).map((row) => ({
          id: Number(row.id),
          title: applicationName(row, ctx.language),
          detail: nameIn(ctx.language, row.intake_name_en, row.intake_name_zh) || null,
          date: String(row.application_deadline).slice(0, 10),
          value: open.get(Number(row.id)) ?? 0,
          url: `/students/application/${Number(row.student_id)}`,
        })),
      };
    },
  });

  registerDashboardFigure({
    key: 'new_students',
    kind: 'series',
    permission: 'students.view',
    order: 300,
    link: (scope) => ({
      path:
        '/reports/students/student-result?group_by=month' +
        `&created_from=${monthStart(scope.today, NEW_STUDENTS_MONTHS - 1)}` +
        `&created_to=${presetRange('this_month', scope.today).to}`,
      permission: 'reports.students',
    }),
    async compute(db, ctx, scope) {
      const from = monthStart(scope.today, NEW_STUDENTS_MONTHS - 1);
      const rows = await studentFiguresRepository.studentsPerMonth(db, scope.branchIds, from, ctx.signal);
      const counts = new Map(rows.map((row) => [String(row.month), Number(row.n)]));
      return {
        points: lastMonths(scope.today, NEW_STUDENTS_MONTHS).map((period) => ({
          period,
          value: counts.get(period) ?? 0,
        })),
      };
    },
  });
}
