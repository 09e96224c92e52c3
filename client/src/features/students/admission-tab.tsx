import { EditOutlined, EyeOutlined } from '@ant-design/icons';
import { Alert, Card, Descriptions, Empty, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { can } from '../../../../shared/permissions';
import { ADMISSION_STATUSES, studentApplications } from '../../../../shared/resources/students';
import { isApiError } from '../../app/api';
import { useAppSelector } from '../../app/hooks';
import { FileAttachments } from '../files/file-attachments';
import { recordAllows } from '../../components/resource/record-access';
import { renderDeclaredValue } from '../../components/resource/renderers';
import { useResourceListQuery } from '../../components/resource/resource-api';
import type { ResourceRow } from '../../components/resource/types';
import { applicationTitle, ApplicationStatusTag } from './student-tags';
import { ButtonLink } from '../../components/layout/button-link';

/** The school's answer, as the admission tab shows it (the rest is on the application's form). */
const ADMISSION_FIELDS = [
  'result_date',
  'offer_date',
  'enrolment_date',
  'student_id_at_school',
  'dormitory',
  'coa_issued_at',
  'visa_issued_at',
] as const;

const ANSWERED: ReadonlySet<string> = new Set(ADMISSION_STATUSES);

/**
 * A student's admission tab: the applications a school has answered (offered, rejected, accepted, enrolled), each
 * with the admission's dates and details (offer, enrolment, the student's id at the school, dormitory, certificate
 * of admission, visa issued), a link to the application's record (its form: where these are edited) and the
 * application's admission files (offer letter, certificate, visa: files owned by the application). Whoever may not
 * change the student sees the same, without upload buttons.
 */
export default function AdmissionTab({
  student,
  applicationsPath,
}: {
  student: ResourceRow;
  /** where the student's applications open (`/students/application/5`) */
  applicationsPath: string;
}) {
  const { t, i18n } = useTranslation();
  const user = useAppSelector((s) => s.app.user);
  const editable = can(user, 'students.update') && recordAllows(student, 'update');
  const { data, isLoading, error } = useResourceListQuery(
    { path: `/api/students/${student.id}/applications`, params: { per_page: 100 } },
    { refetchOnMountOrArgChange: true },
  );
  const answered = ((data?.items ?? []) as ResourceRow[]).filter((row) => ANSWERED.has(String(row.status)));

  if (error && !(isApiError(error) && error.handled))
    return <Alert type="error" showIcon role="alert" title={t('resource.loadFailed')} />;
  if (isLoading) return <span data-testid="admission-first-load" />;
  if (!answered.length)
    return (
      <Empty
        data-testid="admission-empty"
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={t('students.admission.empty')}
      />
    );
  return (
    <Space orientation="vertical" size="large" style={{ display: 'flex', maxWidth: 1100 }}>
      {answered.map((row) => {
        const updatable = editable && recordAllows(row, 'update');
        return (
          <Card
            key={row.id}
            data-testid={`admission-${row.id}`}
            title={
              <Space wrap>
                <span>{applicationTitle(row)}</span>
                <ApplicationStatusTag value={row.status} />
              </Space>
            }
            extra={
              <ButtonLink
                to={`${applicationsPath}/${row.id}`}
                size="small"
                icon={updatable ? <EditOutlined /> : <EyeOutlined />}
              >
                {t(updatable ? 'students.admission.open' : 'students.admission.view')}
              </ButtonLink>
            }
          >
            <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }}>
              {ADMISSION_FIELDS.map((name) => (
                <Descriptions.Item key={name} label={t(`resources.student_application.fields.${name}`)}>
                  {renderDeclaredValue(studentApplications, name, studentApplications.fields[name], row, {
                    t,
                    language: i18n.language,
                  }) || '—'}
                </Descriptions.Item>
              ))}
            </Descriptions>
            <Typography.Title level={5} style={{ marginTop: 16 }}>
              {t('students.admission.files')}
            </Typography.Title>
            <Typography.Paragraph type="secondary">{t('students.admission.filesHelp')}</Typography.Paragraph>
            <FileAttachments ownerType="application" ownerId={row.id} canAttach={updatable} />
          </Card>
        );
      })}
    </Space>
  );
}
