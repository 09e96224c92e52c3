import { Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  APPLICATION_STATUSES,
  DOCUMENT_CODES,
  DOCUMENT_STATUSES,
  type DocumentStatus,
} from '../../../../shared/resources/students';
import { valueLabelKey } from '../../components/resource/renderers';
import type { ResourceRow } from '../../components/resource/types';
import { useStudentCategoryColoursQuery } from './students-api';

/**
 * The students' small tags, shown in lists and on records: a category in its colour, an application's status, a
 * checklist row's one-letter code (P grey, U blue, S green, N orange, C red), a passport or visa warning (expired
 * red, expiring orange).
 */

/** An application named by its school, intake and subject (the rows' lookup names). */
export function applicationTitle(row: Record<string, unknown>): string {
  return [row.school_name, row.admission_name, row.subject_name]
    .filter((part) => typeof part === 'string' && part)
    .join(' · ');
}

/** A checklist state's colour: the code's tag and the legend's. */
export const DOCUMENT_COLOURS: Record<DocumentStatus, string> = {
  pending: 'default',
  uploaded: 'blue',
  submitted: 'green',
  unsubmitted: 'orange',
  cancelled: 'red',
};

export function isDocumentStatus(value: unknown): value is DocumentStatus {
  return typeof value === 'string' && (DOCUMENT_STATUSES as readonly string[]).includes(value);
}

/** The state of a code (`P` → pending), or null. */
function statusOfCode(code: string): DocumentStatus | null {
  return DOCUMENT_STATUSES.find((s) => DOCUMENT_CODES[s] === code) ?? null;
}

/** A checklist row's state as its one-letter code, coloured, its name on hover and to screen readers. */
export function DocumentCodeTag({ status }: { status: unknown }) {
  const { t } = useTranslation();
  if (!isDocumentStatus(status)) return null;
  const label = t(`resources.application_document.states.${status}`);
  return (
    <Tooltip title={label}>
      <Tag
        color={DOCUMENT_COLOURS[status]}
        data-testid="document-code"
        data-status={status}
        aria-label={label}
        style={{ fontFamily: 'monospace', fontWeight: 600, marginInlineEnd: 0 }}
      >
        {DOCUMENT_CODES[status]}
      </Tag>
    </Tooltip>
  );
}

const APPLICATION_COLOURS: Record<(typeof APPLICATION_STATUSES)[number], string> = {
  draft: 'default',
  submitted: 'blue',
  offered: 'cyan',
  rejected: 'red',
  accepted: 'green',
  enrolled: 'purple',
  withdrawn: 'default',
};

/** An application's status as a coloured tag. */
export function ApplicationStatusTag({ value }: { value: unknown }) {
  const { t } = useTranslation();
  if (typeof value !== 'string' || !value) return null;
  const colour = APPLICATION_COLOURS[value as keyof typeof APPLICATION_COLOURS] ?? 'default';
  return (
    <Tag color={colour} data-testid="application-status" data-status={value}>
      {t(valueLabelKey('student_application', 'status', value), { defaultValue: value })}
    </Tag>
  );
}

/**
 * An application's documents in short, as the server sums them up (`P 2 · U 1 · S 0 · N 0 · C 0`): the codes
 * with documents, with their counts, as coloured tags; any other wording as it is.
 */
export function DocumentsSummary({ value }: { value: unknown }) {
  const { t } = useTranslation();
  if (typeof value !== 'string' || !value.trim()) return null;
  const tokens = [...value.matchAll(/([PUSNC])\s*[:=×x]?\s*(\d+)/g)];
  const rest = value.replace(/([PUSNC])\s*[:=×x]?\s*(\d+)/g, '').replace(/[\s,;/|·]+/g, '');
  if (!tokens.length || rest) return <>{value}</>;
  return (
    <Space size={2} wrap={false} data-testid="documents-summary">
      {tokens.map(([whole, code, count]) => {
        const status = statusOfCode(code);
        // a state no document is in says nothing
        if (!status || Number(count) === 0) return null;
        const state = t(`resources.application_document.states.${status}`);
        return (
          <Tooltip key={whole} title={t('students.checklist.summary', { count: Number(count), state })}>
            <Tag color={DOCUMENT_COLOURS[status]} style={{ marginInlineEnd: 0 }}>
              {`${code} ${Number(count)}`}
            </Tag>
          </Tooltip>
        );
      })}
    </Space>
  );
}

/** A passport's or visa's warning (`expired` red, `expiring` orange), labelled as the declaration says. */
export function ExpiryTag({ field, value }: { field: 'passport_warning' | 'visa_warning'; value: unknown }) {
  const { t } = useTranslation();
  if (value !== 'expired' && value !== 'expiring') return null;
  return (
    <Tag color={value === 'expired' ? 'red' : 'orange'} data-testid={`${field}-${value}`}>
      {t(valueLabelKey('student', field, value))}
    </Tag>
  );
}

/** A student's category as a tag in the category's colour (the row's, else the categories'). */
export function CategoryTag({ row }: { row: ResourceRow }) {
  const name = row.category_name;
  const own = typeof row.category_color === 'string' ? row.category_color : null;
  const { data } = useStudentCategoryColoursQuery(undefined, { skip: Boolean(own) || !row.category_id });
  if (typeof name !== 'string' || !name) return null;
  const colour = own ?? data?.[Number(row.category_id)];
  return (
    <Tag color={colour} data-testid="student-category" data-color={colour ?? ''}>
      {name}
    </Tag>
  );
}

/** What P, U, S, N and C mean, in the codes' colours. */
export function ChecklistLegend() {
  const { t } = useTranslation();
  return (
    <Space wrap size={[16, 4]} data-testid="checklist-legend" style={{ marginBottom: 12 }}>
      <Typography.Text type="secondary">
        {t('common.labelColon', { label: t('students.checklist.legend') })}
      </Typography.Text>
      {DOCUMENT_STATUSES.map((status: DocumentStatus) => (
        <span key={status} data-testid={`legend-${DOCUMENT_CODES[status]}`}>
          <Tag color={DOCUMENT_COLOURS[status]} style={{ fontFamily: 'monospace', fontWeight: 600 }}>
            {DOCUMENT_CODES[status]}
          </Tag>
          <Typography.Text strong>{t(`resources.application_document.states.${status}`)}</Typography.Text>
          <Typography.Text type="secondary">
            {' '}
            — {t(`students.checklist.legendItems.${status}`)}
          </Typography.Text>
        </span>
      ))}
    </Space>
  );
}
