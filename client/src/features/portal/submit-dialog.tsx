import { useState } from 'react';
import { Alert, App, Button, Checkbox, Modal, Space, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { DOCUMENT_CODES, DOCUMENT_STATUSES, students } from '../../../../shared/resources/students';
import { PORTAL_DETAIL_FIELDS } from '../../../../shared/schemas/portal';
import { messageText } from '../../components/forms/server-errors';
import { fieldLabelKey } from '../../../../shared/resources/declaration';
import { isApiError } from '../../app/api';
import { appActions } from '../../app/app-slice';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import type { Student } from '../../app/types';
import { getStoredLocale } from '../../i18n/locale';
import { formatDate } from '../../components/resource/renderers';
import { DOCUMENT_COLOURS, isDocumentStatus } from '../students/student-tags';
import {
  isLockedError,
  portalErrorText,
  applicationName,
  documentRows,
  refreshStudent,
  REQUIRED_LEVELS,
  rowsOf,
  studentOf,
  usePortalReadQuery,
  usePortalWriteMutation,
} from './portal-api';
import { PortalDetails } from './portal-form';

type Row = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));

/** What a refused submission still needs (422, a message per field): each with the field's name when it is one. */
export function submitRefusals(error: unknown, t: TFunction): string[] {
  if (!isApiError(error) || error.status !== 422) return [];
  return Object.entries(error.data?.error_keys ?? {}).flatMap(([field, refs]) =>
    refs.map((ref) => {
      const text = messageText(ref, t);
      return field in students.fields
        ? t('common.labelled', { label: t(fieldLabelKey('student', field)), value: text })
        : text;
    }),
  );
}

/**
 * "Confirm my information": what will be submitted (the details, the family, the schooling, the applications, the
 * documents' states), that it cannot be changed afterwards, a tick that it is right, and only then
 * `POST /api/student/submit`. The store then holds the submission: every form is read-only.
 */
export default function SubmitDialog({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useAppDispatch();
  const stored = useAppSelector((s) => s.app.student);
  const english = i18n.language === 'en';
  const student = usePortalReadQuery({ url: '/api/student' });
  const family = usePortalReadQuery({ url: '/api/family' });
  const education = usePortalReadQuery({ url: '/api/education' });
  const applications = usePortalReadQuery({ url: '/api/application' });
  const documents = usePortalReadQuery({ url: '/api/document', params: { locale: getStoredLocale() } });
  const [write, { isLoading: sending }] = usePortalWriteMutation();
  const [agreed, setAgreed] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [missingNow, setMissingNow] = useState<string[]>([]);

  const reads = [student, family, education, applications, documents];
  const loading = reads.some((r) => r.isLoading);
  const failed = reads.some((r) => r.isError);
  const details = student.data ? studentOf(student.data as Row) : {};
  const members = rowsOf(family.data, 'family', 'members');
  const schooling = rowsOf(education.data, 'educations', 'education');
  const apps = rowsOf(applications.data, 'applications');
  const docs = documentRows(documents.data).flatMap((group) => group.rows);
  const language = i18n.language;
  const levels = new Set(schooling.map((row) => row.level));
  const missing = REQUIRED_LEVELS.filter((level) => !levels.has(level));
  const counts = DOCUMENT_STATUSES.map((status) => ({
    status,
    count: docs.filter((d) => d.status === status).length,
  })).filter((c) => c.count > 0);

  const submit = async () => {
    setError(null);
    const result = await write({ url: '/api/student/submit', method: 'POST' });
    if (!result.error) {
      const answer = result.data && typeof result.data === 'object' ? studentOf(result.data as Row) : {};
      const at = str(answer.info_submitted_at) || new Date().toISOString();
      if (stored) dispatch(appActions.setStudent({ ...stored, info_submitted_at: at } as Student));
      void refreshStudent(dispatch, { ...(stored as Student), info_submitted_at: at });
      void message.success(t('portal.submit.done'));
      onClose();
      return;
    }
    if (isApiError(result.error) && result.error.handled) return;
    const refusals = submitRefusals(result.error, t);
    setMissingNow(refusals);
    setError(refusals.length ? t('portal.submit.incomplete') : portalErrorText(result.error, t));
    if (isLockedError(result.error)) {
      void refreshStudent(dispatch, stored);
      onClose();
    }
  };

  const name = (row: Row) =>
    english ? str(row.name_en) || str(row.name_zh) : str(row.name_zh) || str(row.name_en);

  return (
    <Modal
      open
      title={t('portal.submit.title')}
      onCancel={onClose}
      width={720}
      destroyOnHidden
      rootClassName="portal-overlay"
      footer={
        <Space wrap style={{ justifyContent: 'flex-end', width: '100%' }}>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button
            type="primary"
            danger
            disabled={!agreed || loading || failed}
            loading={sending}
            onClick={() => void submit()}
            data-testid="portal-submit-confirm"
          >
            {t('portal.submit.confirm')}
          </Button>
        </Space>
      }
    >
      {loading ? (
        <div style={{ textAlign: 'center', padding: 24 }}>
          <Spin aria-label={t('app.loading')} />
        </div>
      ) : (
        <div data-testid="portal-submit-summary">
          {failed && (
            <Alert
              type="error"
              showIcon
              role="alert"
              title={t('portal.loadFailed')}
              style={{ marginBottom: 12 }}
            />
          )}
          <Typography.Paragraph>{t('portal.submit.intro')}</Typography.Paragraph>
          <Typography.Title level={3} style={{ fontSize: 16 }}>
            {t('portal.personal.details')}
          </Typography.Title>
          {/* every detail the submission locks (the list PUT /api/student accepts), as the details page shows it */}
          <div style={{ marginBottom: 16 }}>
            <PortalDetails
              decl={students}
              names={PORTAL_DETAIL_FIELDS}
              record={details}
              bordered
              testId="summary-details"
            />
          </div>
          <Typography.Title level={3} style={{ fontSize: 16 }}>
            {t('portal.family.title')}
          </Typography.Title>
          <Typography.Paragraph data-testid="summary-family">
            {members.length ? members.map(name).join(t('portal.listSeparator')) : t('portal.family.empty')}
          </Typography.Paragraph>
          <Typography.Title level={3} style={{ fontSize: 16 }}>
            {t('portal.education.title')}
          </Typography.Title>
          <Typography.Paragraph data-testid="summary-education">
            {schooling.length
              ? schooling.map((row) => str(row.school_name)).join(t('portal.listSeparator'))
              : t('portal.education.empty')}
          </Typography.Paragraph>
          {missing.length > 0 && (
            <Alert
              type="warning"
              showIcon
              title={t('portal.education.missing', {
                levels: missing
                  .map((level) => t(`portal.education.levels.${level}`))
                  .join(t('portal.listSeparator')),
              })}
              style={{ marginBottom: 12 }}
            />
          )}
          <Typography.Title level={3} style={{ fontSize: 16 }}>
            {t('portal.applications.title')}
          </Typography.Title>
          <ul data-testid="summary-applications" style={{ paddingInlineStart: 20 }}>
            {apps.length === 0 && <li>{t('portal.applications.empty')}</li>}
            {apps.map((row) => (
              <li key={str(row.id)}>
                {applicationName(row, language)}
                {row.application_deadline
                  ? ` (${t('portal.select.deadline', { date: formatDate(str(row.application_deadline)) })})`
                  : ''}
              </li>
            ))}
          </ul>
          <Typography.Title level={3} style={{ fontSize: 16 }}>
            {t('portal.documents.title')}
          </Typography.Title>
          <Space wrap data-testid="summary-documents" style={{ marginBottom: 16 }}>
            {counts.length === 0 && <span>{t('portal.documents.empty')}</span>}
            {counts.map(({ status, count }) => (
              <Tag key={status} color={DOCUMENT_COLOURS[status]}>
                {t('common.labelled', {
                  label: `${DOCUMENT_CODES[status]} ${t(`resources.application_document.states.${status}`)}`,
                  value: count,
                })}
              </Tag>
            ))}
            {docs.some((d) => isDocumentStatus(d.status) && d.status === 'pending') && (
              <Typography.Text>{t('portal.submit.pendingDocuments')}</Typography.Text>
            )}
          </Space>
          <Alert
            type="warning"
            showIcon
            title={t('portal.submit.warning')}
            description={t('portal.submit.warningHelp')}
            style={{ marginBottom: 12 }}
          />
          {error && (
            <Alert
              type="error"
              showIcon
              role="alert"
              data-testid="portal-submit-error"
              title={error}
              description={
                missingNow.length ? (
                  <ul style={{ margin: 0, paddingInlineStart: 20 }}>
                    {missingNow.map((text) => (
                      <li key={text}>{text}</li>
                    ))}
                  </ul>
                ) : undefined
              }
              style={{ marginBottom: 12 }}
            />
          )}
          <Checkbox
            checked={agreed}
            onChange={(e) => setAgreed(e.target.checked)}
            data-testid="portal-submit-agree"
          >
            {t('portal.submit.agree')}
          </Checkbox>
        </div>
      )}
    </Modal>
  );
}
