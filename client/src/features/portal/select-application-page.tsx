import { useState } from 'react';
import { CheckOutlined, RollbackOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Empty, List, Popconfirm, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRevalidator } from 'react-router-dom';
import { isApiError } from '../../app/api';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { formatDate } from '../../components/resource/renderers';
import { ApplicationStatusTag } from '../students/student-tags';
import {
  applicationName,
  isLockedError,
  localName,
  portalErrorText,
  refreshStudent,
  rowsOf,
  usePortalWriteMutation,
} from './portal-api';
import { usePortalLock } from './portal-lock';
import { PortalPage, useRouteData, useSyncSubmission } from './portal-page';

type Row = Record<string, unknown>;

export interface Subject {
  id: number;
  name: string;
}
export interface Intake {
  id: number;
  name: string;
  start: string | null;
  deadline: string | null;
  subjects: Subject[];
}
export interface School {
  key: string;
  name: string;
  intakes: Intake[];
}
export interface Choice {
  id: number;
  admission_id: number;
  subject_id: number;
  title: string;
  status: string | null;
  deadline: string | null;
  canWithdraw: boolean;
}

const str = (v: unknown): string =>
  typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v);

/**
 * `GET /api/select-application` for the screen: the intakes open now (`intakes`, each naming its school and holding
 * its subjects) grouped by school, in the order given, and the student's choices (`choices`: applications with
 * `can_withdraw`), named in the interface language.
 */
export function normaliseSelection(data: Row, language: string): { schools: School[]; choices: Choice[] } {
  const schools = new Map<string, School>();
  for (const row of rowsOf(data, 'intakes')) {
    const key = str(row.school_id);
    const school = schools.get(key) ?? { key, name: localName(row, 'school_name', language), intakes: [] };
    schools.set(key, school);
    school.intakes.push({
      id: Number(row.id),
      name: localName(row, 'name', language),
      start: str(row.application_start) || null,
      deadline: str(row.application_deadline) || null,
      subjects: rowsOf(row, 'subjects').map((subject) => ({
        id: Number(subject.id),
        name: localName(subject, 'name', language),
      })),
    });
  }
  const choices = rowsOf(data, 'choices').map((row): Choice => ({
    id: Number(row.id),
    admission_id: Number(row.admission_id),
    subject_id: Number(row.subject_id),
    title: applicationName(row, language),
    status: str(row.status) || null,
    deadline: str(row.application_deadline) || null,
    canWithdraw: Boolean(row.can_withdraw),
  }));
  return { schools: [...schools.values()], choices };
}

/**
 * Choose application (`/select-application`, data `GET /api/select-application`): the intakes open now, by school,
 * with their subjects and deadlines; choosing one (`POST`) creates the application and its checklist; a choice is
 * withdrawn (`DELETE …/{id}`) after a confirmation while the server allows it.
 */
export default function SelectApplicationPage() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useAppDispatch();
  const stored = useAppSelector((s) => s.app.student);
  const data = useRouteData();
  useSyncSubmission(data);
  const { locked } = usePortalLock();
  const revalidator = useRevalidator();
  const [write] = usePortalWriteMutation();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { schools, choices } = normaliseSelection(data, i18n.language);

  const run = async (key: string, request: Parameters<typeof write>[0], done: string) => {
    setError(null);
    setBusy(key);
    const result = await write(request);
    setBusy(null);
    if (!result.error) {
      void message.success(done);
      void revalidator.revalidate();
      return;
    }
    if (isApiError(result.error) && result.error.handled) return;
    setError(portalErrorText(result.error, t));
    if (isLockedError(result.error)) void refreshStudent(dispatch, stored);
    void revalidator.revalidate();
  };

  const chosen = (intake: Intake, subject: Subject) =>
    choices.find((c) => c.admission_id === intake.id && c.subject_id === subject.id);

  return (
    <PortalPage
      title={t('portal.select.title')}
      intro={<Typography.Paragraph type="secondary">{t('portal.select.intro')}</Typography.Paragraph>}
    >
      {error && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={error}
          closable
          onClose={() => setError(null)}
          style={{ marginBottom: 12 }}
        />
      )}
      <section data-testid="my-choices" style={{ marginBottom: 24 }}>
        <Typography.Title level={2} style={{ fontSize: 20 }}>
          {t('portal.select.choices')}
        </Typography.Title>
        {choices.length === 0 ? (
          <Typography.Paragraph type="secondary">{t('portal.select.noChoices')}</Typography.Paragraph>
        ) : (
          <List
            bordered
            dataSource={choices}
            renderItem={(choice) => (
              <List.Item data-testid="choice">
                <Space orientation="vertical" size={4} style={{ width: '100%' }}>
                  <Typography.Text strong>{choice.title}</Typography.Text>
                  <Space wrap>
                    <ApplicationStatusTag value={choice.status} />
                    {choice.deadline && (
                      <Typography.Text type="secondary">
                        {t('portal.select.deadline', { date: formatDate(choice.deadline) })}
                      </Typography.Text>
                    )}
                  </Space>
                  {!locked && choice.canWithdraw && (
                    <Popconfirm
                      title={t('portal.select.withdrawConfirm', {
                        name: choice.title,
                        interpolation: { escapeValue: false },
                      })}
                      description={t('portal.select.withdrawHelp')}
                      okText={t('portal.select.withdraw')}
                      cancelText={t('common.cancel')}
                      okButtonProps={{ danger: true }}
                      onConfirm={() =>
                        run(
                          `withdraw:${choice.id}`,
                          { url: `/api/select-application/${choice.id}`, method: 'DELETE' },
                          t('portal.select.withdrawn'),
                        )
                      }
                    >
                      <Button
                        danger
                        icon={<RollbackOutlined />}
                        loading={busy === `withdraw:${choice.id}`}
                        aria-label={`${t('portal.select.withdraw')} ${choice.title}`}
                      >
                        {t('portal.select.withdraw')}
                      </Button>
                    </Popconfirm>
                  )}
                </Space>
              </List.Item>
            )}
          />
        )}
      </section>
      <section data-testid="open-intakes">
        <Typography.Title level={2} style={{ fontSize: 20 }}>
          {t('portal.select.open')}
        </Typography.Title>
        {schools.length === 0 && <Empty description={t('portal.select.noneOpen')} />}
        {schools.map((school) => (
          <Card
            key={school.key}
            title={<h3 className="portal-card-title">{school.name}</h3>}
            style={{ marginBottom: 16 }}
            data-testid="school"
          >
            {school.intakes.map((intake) => (
              <div key={intake.id} style={{ marginBottom: 16 }} data-testid="intake">
                <Typography.Title level={4} style={{ fontSize: 16, marginBottom: 4 }}>
                  {intake.name}
                </Typography.Title>
                {intake.deadline && (
                  <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
                    {t('portal.select.deadline', { date: formatDate(intake.deadline) })}
                  </Typography.Paragraph>
                )}
                <List
                  size="small"
                  dataSource={intake.subjects}
                  locale={{ emptyText: t('portal.select.noSubjects') }}
                  renderItem={(subject) => {
                    const choice = chosen(intake, subject);
                    const name = `${school.name} · ${intake.name} · ${subject.name}`;
                    return (
                      <List.Item
                        data-testid="subject"
                        actions={
                          choice
                            ? [
                                <Tag key="chosen" color="green" icon={<CheckOutlined />}>
                                  {t('portal.select.chosen')}
                                </Tag>,
                              ]
                            : locked
                              ? []
                              : [
                                  <Popconfirm
                                    key="choose"
                                    title={t('portal.select.chooseConfirm', {
                                      name,
                                      interpolation: { escapeValue: false },
                                    })}
                                    okText={t('portal.select.choose')}
                                    cancelText={t('common.cancel')}
                                    onConfirm={() =>
                                      run(
                                        `choose:${intake.id}:${subject.id}`,
                                        {
                                          url: '/api/select-application',
                                          method: 'POST',
                                          body: { admission_id: intake.id, subject_id: subject.id },
                                        },
                                        t('portal.select.chosenNow', {
                                          name,
                                          interpolation: { escapeValue: false },
                                        }),
                                      )
                                    }
                                  >
                                    <Button
                                      type="primary"
                                      loading={busy === `choose:${intake.id}:${subject.id}`}
                                      aria-label={`${t('portal.select.choose')} ${name}`}
                                    >
                                      {t('portal.select.choose')}
                                    </Button>
                                  </Popconfirm>,
                                ]
                        }
                      >
                        {subject.name}
                      </List.Item>
                    );
                  }}
                />
              </div>
            ))}
          </Card>
        ))}
      </section>
    </PortalPage>
  );
}
