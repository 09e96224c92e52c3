import { useMemo, useState } from 'react';
import {
  CameraOutlined,
  DeleteOutlined,
  SaveOutlined,
  UploadOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Alert, App, Avatar, Button, Card, Form, Popconfirm, Space, Typography, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRevalidator } from 'react-router-dom';
import { students } from '../../../../shared/resources/students';
import { PORTAL_DETAIL_FIELDS } from '../../../../shared/schemas/portal';
import { isApiError } from '../../app/api';
import { appActions } from '../../app/app-slice';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import type { Student } from '../../app/types';
import { buildUrl } from '../../http/client';
import { uploadAccept, uploadFailureText, uploadRefusal } from '../../components/forms/upload-checks';
import {
  fileBody,
  isLockedError,
  portalErrorText,
  refreshStudent,
  studentOf,
  usePortalWriteMutation,
} from './portal-api';
import { PortalDetails, PortalForm, portalFields, schemasOf } from './portal-form';
import { usePortalLock } from './portal-lock';
import { PortalPage, useRouteData, useSyncSubmission } from './portal-page';
import { touchScreen } from './touch';

/**
 * The student's own details the portal edits (spec: names, birth date, passport, nationality, levels, visa …): the
 * list `PUT /api/student` accepts and the submission locks, one list for the form, the read-only view and the
 * summary confirmed before submitting.
 */
export const PERSONAL_FIELDS = PORTAL_DETAIL_FIELDS;

const FIELDS = portalFields(students, PERSONAL_FIELDS);
const SCHEMAS = schemasOf(students);

/** The photo's address (`photo_url`, the student's own photo route), shown inline, its version after a change. */
export function photoUrl(url: unknown, version: number): string | null {
  if (typeof url !== 'string' || !url) return null;
  return buildUrl(url, { inline: 1, ...(version ? { v: version } : {}) });
}

function PhotoCard({
  photo,
  locked,
  onChanged,
}: {
  photo: string | null;
  locked: boolean;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const maxMb = useAppSelector((s) => s.app.maxUploadSize);
  const [write] = usePortalWriteMutation();
  const [busy, setBusy] = useState<'upload' | 'remove' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const camera = touchScreen();

  const beforeUpload = (file: File) => {
    const refusal = uploadRefusal(file, maxMb, t, 'image');
    setError(refusal);
    return refusal ? Upload.LIST_IGNORE : true;
  };
  const send = async (file: File) => {
    setBusy('upload');
    const result = await write({ url: '/api/student/photo', method: 'POST', body: fileBody(file) });
    setBusy(null);
    if (!result.error) {
      void message.success(t('portal.photo.saved'));
      onChanged();
    } else if (!(isApiError(result.error) && result.error.handled))
      setError(
        isLockedError(result.error)
          ? portalErrorText(result.error, t)
          : uploadFailureText(result.error, maxMb, t),
      );
  };
  const remove = async () => {
    setError(null);
    setBusy('remove');
    const result = await write({ url: '/api/student/photo', method: 'DELETE' });
    setBusy(null);
    if (!result.error) {
      void message.success(t('portal.photo.removed'));
      onChanged();
    } else if (!(isApiError(result.error) && result.error.handled))
      setError(portalErrorText(result.error, t));
  };
  const picker = (withCamera: boolean) => (
    <Upload
      accept={uploadAccept('image')}
      {...(withCamera ? { capture: 'user' as const } : {})}
      maxCount={1}
      showUploadList={false}
      beforeUpload={beforeUpload}
      customRequest={({ file }) => void send(file as File)}
    >
      <Button
        icon={withCamera ? <CameraOutlined /> : <UploadOutlined />}
        loading={!withCamera && busy === 'upload'}
      >
        {withCamera
          ? t('portal.photo.takePhoto')
          : photo
            ? t('portal.photo.replace')
            : t('portal.photo.choose')}
      </Button>
    </Upload>
  );

  return (
    <Card
      title={<h2 className="portal-card-title">{t('portal.photo.title')}</h2>}
      style={{ marginBottom: 16 }}
      data-testid="portal-photo"
    >
      {error && <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 12 }} />}
      <Space size="large" align="center" wrap>
        <Avatar size={96} src={photo ?? undefined} icon={<UserOutlined />} alt={t('portal.photo.alt')} />
        <Space orientation="vertical">
          {!photo && <Typography.Text type="secondary">{t('portal.photo.none')}</Typography.Text>}
          {!locked && (
            <Space wrap>
              {picker(false)}
              {camera && picker(true)}
              {photo && (
                <Popconfirm
                  title={t('portal.photo.removeConfirm')}
                  okText={t('portal.photo.remove')}
                  cancelText={t('common.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => void remove()}
                >
                  <Button danger icon={<DeleteOutlined />} loading={busy === 'remove'}>
                    {t('portal.photo.remove')}
                  </Button>
                </Popconfirm>
              )}
            </Space>
          )}
          {!locked && (
            <Typography.Text type="secondary">{t('portal.photo.help', { max: maxMb })}</Typography.Text>
          )}
        </Space>
      </Space>
    </Card>
  );
}

/**
 * Personal details (`/index`, data `GET /api/student`): the student's own fields with the staff side's inputs and
 * rules, saved with `PUT /api/student`; the photo; read-only once the information is submitted.
 */
export default function PersonalPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useAppDispatch();
  const stored = useAppSelector((s) => s.app.student);
  const data = useRouteData();
  const record = useMemo(() => studentOf(data), [data]);
  useSyncSubmission(record);
  const { locked } = usePortalLock();
  const revalidator = useRevalidator();
  const [form] = Form.useForm();
  const [write] = usePortalWriteMutation();
  // a replaced photo has the same address: a new version is fetched anew
  const [photoVersion, setPhotoVersion] = useState(0);

  const saved = (answer: unknown) => {
    void message.success(t('portal.saved'));
    // the top bar's name follows the record
    if (stored && answer && typeof answer === 'object')
      dispatch(
        appActions.setStudent({ ...stored, ...studentOf(answer as Record<string, unknown>) } as Student),
      );
    void revalidator.revalidate();
  };

  return (
    <PortalPage
      title={t('portal.personal.title')}
      intro={<Typography.Paragraph type="secondary">{t('portal.personal.intro')}</Typography.Paragraph>}
    >
      {typeof record.student_no === 'string' && record.student_no && (
        <Typography.Paragraph data-testid="student-no">
          {t('common.labelColon', { label: t('portal.personal.studentNo') })}{' '}
          <Typography.Text strong>{record.student_no}</Typography.Text>
        </Typography.Paragraph>
      )}
      <PhotoCard
        photo={photoUrl(record.photo_url, photoVersion)}
        locked={locked}
        onChanged={() => {
          setPhotoVersion(Date.now());
          void revalidator.revalidate();
        }}
      />
      <Card title={<h2 className="portal-card-title">{t('portal.personal.details')}</h2>}>
        {locked ? (
          // submitted: the information as text to read, not pale disabled inputs
          <PortalDetails
            decl={students}
            names={PERSONAL_FIELDS}
            record={record}
            testId="portal-personal-details"
          />
        ) : (
          <PortalForm
            form={form}
            fields={FIELDS}
            schemas={SCHEMAS}
            record={record}
            disabled={false}
            testId="portal-personal-form"
            save={(body) => write({ url: '/api/student', method: 'PUT', body }).unwrap()}
            onSaved={saved}
            onLocked={() => void refreshStudent(dispatch, stored)}
            footer={(saving) => (
              <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={saving} block>
                {t('portal.save')}
              </Button>
            )}
          />
        )}
      </Card>
    </PortalPage>
  );
}
