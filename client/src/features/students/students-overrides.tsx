import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { can } from '../../../../shared/permissions';
import { useAppSelector } from '../../app/hooks';
import { recordAllows } from '../../components/resource/record-access';
import { lookupFilter, type DeclarationOverrides } from '../../components/resource/from-declaration';
import type { ResourceRow } from '../../components/resource/types';
import {
  applicationTitle,
  ApplicationStatusTag,
  CategoryTag,
  DocumentsSummary,
  ExpiryTag,
} from './student-tags';
import { ExpiryWarnings } from './student-warnings';
import { moneyCell } from '../sales/sales-common';

// what only a record's tab shows is loaded with it: the list screen does not carry it
const PortalAccessCard = lazy(() => import('./portal-access-card'));
const DocumentChecklist = lazy(() => import('./document-checklist'));
const AdmissionTab = lazy(() => import('./admission-tab'));
const StudentOutstanding = lazy(async () => ({
  default: (await import('../sales/student-invoices')).StudentOutstanding,
}));
const PrepaidBalances = lazy(() => import('../money/prepaid-balances'));
const FileAttachments = lazy(async () => ({
  default: (await import('../files/file-attachments')).FileAttachments,
}));

/** The attachment tab: the student's files (passport scans, photos), attached by whoever may change the student. */
function StudentAttachments({ student }: { student: ResourceRow }) {
  const user = useAppSelector((s) => s.app.user);
  return (
    <Suspense fallback={null}>
      <FileAttachments
        ownerType="student"
        ownerId={student.id}
        canAttach={can(user, 'students.update') && recordAllows(student, 'update')}
      />
    </Suspense>
  );
}

/** What the server computes for the portal card and the warnings: shown there, not among the form's fields. */
const SHOWN_ELSEWHERE = [
  'passport_warning',
  'visa_warning',
  'portal_password_set',
  'portal_must_change_password',
  'portal_invited_at',
  'info_submitted_at',
] as const;

/** An application: its status and documents as tags, named by its school, intake and subject. */
const applicationOverrides: DeclarationOverrides = {
  columns: {
    status: { render: (row) => <ApplicationStatusTag value={row.status} /> },
    documents_summary: { render: (row) => <DocumentsSummary value={row.documents_summary} /> },
  },
  fields: {
    documents_summary: {
      input: {
        type: 'custom',
        render: ({ record }) => <DocumentsSummary value={record?.documents_summary} />,
      },
    },
  },
  recordTitle: (row) => applicationTitle(row) || `#${String(row.id ?? '')}`,
};

/**
 * What the students' screens show beyond their declarations: the list's category as a tag in its colour and the
 * passport and visa warnings as red / orange tags; the basic tab's form under the warnings and over the portal
 * access card; the family tab's two lists (the declaration's `tabChildren`); the applications with their status tags and
 * documents summary, an application's record with its document checklist under the form; the admission tab's
 * answered applications with their files; the attachment tab's files. The grade reports are the generic child
 * list (their report file a declared file field).
 */
const overrides: DeclarationOverrides = {
  columns: {
    category_id: { render: (row) => <CategoryTag row={row} /> },
    passport_warning: {
      render: (row) => <ExpiryTag field="passport_warning" value={row.passport_warning} />,
    },
    visa_warning: { render: (row) => <ExpiryTag field="visa_warning" value={row.visa_warning} /> },
  },
  // a consultant is picked among all the staff one sees, without choosing a branch first (the form narrows it)
  filters: (derived) =>
    derived.map((filter) =>
      filter.name === 'consultant_user_id' ? lookupFilter(filter.name, filter.labelKey, 'user') : filter,
    ),
  fields: Object.fromEntries(SHOWN_ELSEWHERE.map((name) => [name, false])),
  recordTabs: {
    basic: {
      above: (student) => <ExpiryWarnings student={student} />,
      below: (student) => (
        <Suspense fallback={null}>
          <PortalAccessCard student={student} />
        </Suspense>
      ),
    },
    application: {
      child: applicationOverrides,
      childRecordBelow: (application, ctx) => (
        <Suspense fallback={null}>
          <DocumentChecklist application={application} studentId={ctx.id} />
        </Suspense>
      ),
    },
    admission: {
      render: (student, ctx) => (
        <Suspense fallback={null}>
          <AdmissionTab student={student} applicationsPath={`${ctx.routePath}/application/${ctx.id}`} />
        </Suspense>
      ),
    },
    attachment: { render: (student) => <StudentAttachments student={student} /> },
    // the invoices (spec `/students/invoice/:id`): outstanding per currency over them all, the page's totals
    order: {
      above: (student) => (
        <Suspense fallback={null}>
          <StudentOutstanding student={student} />
        </Suspense>
      ),
      child: {
        pageTotals: { fields: ['total', 'paid_amount', 'outstanding'] },
        columns: {
          order_no: { render: (row) => <Link to={`/orders/order/${row.id}`}>{String(row.order_no)}</Link> },
        },
      },
    },
    // the prepaid deposits (spec `/students/prepaid/:id`): the balance per currency over them, amounts in currency
    prepaid: {
      above: (student) => (
        <Suspense fallback={null}>
          <PrepaidBalances student={student} />
        </Suspense>
      ),
      child: {
        pageTotals: { fields: ['amount'] },
        columns: { amount: { render: moneyCell('amount') } },
      },
    },
    quotation: {
      child: {
        pageTotals: { fields: ['total'] },
        columns: {
          quotation_no: {
            render: (row) => <Link to={`/quotations/basic/${row.id}`}>{String(row.quotation_no)}</Link>,
          },
        },
      },
    },
  },
};

export default overrides;
