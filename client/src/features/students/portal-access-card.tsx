import { useState } from 'react';
import { KeyOutlined, MailOutlined, UnlockOutlined } from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Form,
  Modal,
  Popconfirm,
  Space,
  Tag,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { can } from '../../../../shared/permissions';
import { isApiError } from '../../app/api';
import { useAppSelector } from '../../app/hooks';
import { recordAllows } from '../../components/resource/record-access';
import { formatDateTime } from '../../components/resource/renderers';
import { useResourceWriteMutation } from '../../components/resource/resource-api';
import { deleteErrorMessage, serverFormErrors } from '../../components/resource/resource-errors';
import type { ResourceRow } from '../../components/resource/types';
import { NewPasswordFields } from '../profile/new-password-fields';
import { translatePasswordErrors } from '../profile/password-rules';

interface PasswordValues {
  password: string;
  password_confirmation: string;
}

/** The student's name as the record's title shows it. */
function nameOf(student: ResourceRow, language: string): string {
  const english = [student.surname_en, student.given_name_en].filter(Boolean).join(' ');
  const chinese = typeof student.name_zh === 'string' ? student.name_zh : '';
  return (language === 'en' ? english || chinese : chinese || english) || String(student.student_no ?? '');
}

/**
 * A first portal password set by staff (`POST /api/students/{id}/portal/password`), with the spec's password
 * rule shown and checked by the shared schema: the student must change it at first sign-in.
 */
function SetPasswordModal({
  student,
  open,
  onClose,
}: {
  student: ResourceRow;
  open: boolean;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<PasswordValues>();
  const [write, { isLoading }] = useResourceWriteMutation();
  const [summary, setSummary] = useState<string | null>(null);

  const close = () => {
    form.resetFields();
    setSummary(null);
    onClose();
  };
  const save = async (values: PasswordValues) => {
    setSummary(null);
    try {
      await write({
        url: `/api/students/${student.id}/portal/password`,
        method: 'POST',
        body: values,
      }).unwrap();
      void message.success(t('students.portal.passwordSaved'));
      close();
    } catch (error) {
      if (isApiError(error) && error.handled) return;
      const result = serverFormErrors(error, t, ['password', 'password_confirmation']);
      form.setFields(translatePasswordErrors(result.fields, t) as never);
      setSummary(result.summary);
    }
  };

  return (
    <Modal
      open={open}
      title={t('students.portal.setPasswordTitle', { name: nameOf(student, i18n.language) })}
      okText={t('students.portal.setPassword')}
      cancelText={t('resource.cancel')}
      okButtonProps={{ loading: isLoading, 'data-testid': 'portal-password-save' } as never}
      onOk={() => form.submit()}
      onCancel={close}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('students.portal.setPasswordHelp')}</Typography.Paragraph>
      {summary && <Alert type="error" showIcon role="alert" title={summary} style={{ marginBottom: 16 }} />}
      <Form form={form} name="portal-password" layout="vertical" requiredMark={false} onFinish={save}>
        <NewPasswordFields
          passwordLabel={t('students.portal.newPassword')}
          confirmationLabel={t('students.portal.confirmation')}
          autoFocus
        />
      </Form>
    </Modal>
  );
}

/**
 * A student's portal access, under the basic tab's form (where access is turned on and the sign-in email set):
 * whether the student may sign in, with which email, whether a password is set (and must be changed), when the
 * invitation went out and when the student submitted their information. Whoever may change the student sends
 * the invitation (`POST …/portal/invite`: a set-password link by mail), sets a first password, and reopens
 * submitted information (`POST …/reopen`, asked first); the others see the same, without buttons. The record is
 * read again after each (its tag), so what changed shows here.
 */
export default function PortalAccessCard({ student }: { student: ResourceRow }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const user = useAppSelector((s) => s.app.user);
  const [write, { isLoading }] = useResourceWriteMutation();
  const [busy, setBusy] = useState<'invite' | 'reopen' | null>(null);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const editable = can(user, 'students.update') && recordAllows(student, 'update');
  const enabled = student.portal_enabled === true || student.portal_enabled === 1;
  const email =
    typeof student.portal_email === 'string' && student.portal_email ? student.portal_email : null;
  const ready = enabled && Boolean(email);
  const invitedAt = formatDateTime(student.portal_invited_at as string | null);
  const submittedAt = formatDateTime(student.info_submitted_at as string | null);
  const name = nameOf(student, i18n.language);

  const post = async (kind: 'invite' | 'reopen', url: string, done: string) => {
    setError(null);
    setBusy(kind);
    try {
      await write({ url, method: 'POST', body: {} }).unwrap();
      void message.success(done);
    } catch (failure) {
      if (!(isApiError(failure) && failure.handled)) setError(deleteErrorMessage(failure, t));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card
      title={t('students.portal.title')}
      data-testid="portal-access"
      style={{ maxWidth: 900, marginTop: 24 }}
    >
      {error && (
        <Alert
          type="error"
          showIcon
          role="alert"
          data-testid="portal-error"
          title={error}
          closable
          onClose={() => setError(null)}
          style={{ marginBottom: 16 }}
        />
      )}
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label={t('students.portal.access')}>
          {enabled ? (
            <Tag color="green">{t('students.portal.enabled')}</Tag>
          ) : (
            <Tag>{t('students.portal.disabled')}</Tag>
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('students.portal.email')}>
          {email ?? <Typography.Text type="secondary">{t('students.portal.noEmail')}</Typography.Text>}
        </Descriptions.Item>
        <Descriptions.Item label={t('students.portal.password')}>
          <Space size={4} wrap>
            {student.portal_password_set ? (
              <Tag color="green">{t('students.portal.passwordSet')}</Tag>
            ) : (
              <Tag>{t('students.portal.noPassword')}</Tag>
            )}
            {Boolean(student.portal_must_change_password) && (
              <Tag color="orange" data-testid="portal-must-change">
                {t('students.portal.mustChange')}
              </Tag>
            )}
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('students.portal.invitation')}>
          <span data-testid="portal-invited">
            {invitedAt
              ? t('students.portal.invitedAt', { date: invitedAt })
              : t('students.portal.notInvited')}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('students.portal.information')}>
          <span data-testid="portal-submitted">
            {submittedAt
              ? t('students.portal.submittedAt', { date: submittedAt })
              : t('students.portal.notSubmitted')}
          </span>
        </Descriptions.Item>
      </Descriptions>
      {submittedAt && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {t('students.portal.submittedHelp')}
        </Typography.Paragraph>
      )}
      {editable && (
        <>
          {!ready && (
            <Alert
              type="info"
              showIcon
              data-testid="portal-setup-hint"
              title={t('students.portal.setupHint')}
              style={{ marginTop: 16 }}
            />
          )}
          <Space wrap style={{ marginTop: 16 }}>
            {ready && (
              <Button
                icon={<MailOutlined />}
                loading={isLoading && busy === 'invite'}
                title={t('students.portal.inviteHelp')}
                onClick={() =>
                  void post(
                    'invite',
                    `/api/students/${student.id}/portal/invite`,
                    t('serverMessages.portalInvitationSent', {
                      email,
                      interpolation: { escapeValue: false },
                    }),
                  )
                }
              >
                {t(invitedAt ? 'students.portal.inviteAgain' : 'students.portal.invite')}
              </Button>
            )}
            {ready && (
              <Button icon={<KeyOutlined />} onClick={() => setPasswordOpen(true)}>
                {t('students.portal.setPassword')}
              </Button>
            )}
            {submittedAt && (
              <Popconfirm
                title={t('students.portal.reopenConfirm', { name, interpolation: { escapeValue: false } })}
                okText={t('students.portal.reopen')}
                cancelText={t('resource.cancel')}
                onConfirm={() =>
                  post('reopen', `/api/students/${student.id}/reopen`, t('students.portal.reopened'))
                }
              >
                <Button
                  icon={<UnlockOutlined />}
                  loading={isLoading && busy === 'reopen'}
                  data-testid="portal-reopen"
                >
                  {t('students.portal.reopen')}
                </Button>
              </Popconfirm>
            )}
          </Space>
          <SetPasswordModal student={student} open={passwordOpen} onClose={() => setPasswordOpen(false)} />
        </>
      )}
    </Card>
  );
}
