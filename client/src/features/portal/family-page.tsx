import { useMemo, useState, type ReactNode } from 'react';
import { DeleteOutlined, EditOutlined, PlusOutlined, SaveOutlined } from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Empty,
  Form,
  Modal,
  Popconfirm,
  Row,
  Space,
  Tag,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { useRevalidator } from 'react-router-dom';
import type { ResourceDeclaration } from '../../../../shared/resources/declaration';
import { studentEducations, studentFamily } from '../../../../shared/resources/students';
import { isApiError } from '../../app/api';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { formatDate } from '../../components/resource/renderers';
import type { ResourceField } from '../../components/resource/types';
import {
  isLockedError,
  portalErrorText,
  refreshStudent,
  REQUIRED_LEVELS,
  rowsOf,
  usePortalReadQuery,
  usePortalWriteMutation,
} from './portal-api';
import { OptionText, PortalForm, portalFields, schemasOf, type PortalFormSchemas } from './portal-form';
import { usePortalLock } from './portal-lock';
import { PortalPage, useRouteData, useSyncSubmission } from './portal-page';

type Row = Record<string, unknown>;

const FAMILY_FIELDS = portalFields(studentFamily, [
  'relationship',
  'name_en',
  'name_zh',
  'birth_date',
  'nationality',
  'occupation',
  'employer',
  'phone',
  'email',
  'address',
  'is_emergency_contact',
]);
const EDUCATION_FIELDS = portalFields(studentEducations, [
  'level',
  'school_name',
  'start_date',
  'end_date',
  'graduated',
]);
const FAMILY_SCHEMAS = schemasOf(studentFamily);
const EDUCATION_SCHEMAS = schemasOf(studentEducations);

interface SectionSpec {
  decl: ResourceDeclaration;
  fields: ResourceField[];
  schemas: PortalFormSchemas;
  /** the collection: `POST` adds, `PUT|DELETE {url}/{id}` change one */
  url: string;
  title: string;
  addLabel: string;
  empty: string;
  /** what a row's card shows */
  card: (row: Row) => { title: ReactNode; lines: ReactNode[] };
  name: (row: Row) => string;
  testId: string;
}

/**
 * One list of the student's own rows as cards (one column on a phone), each edited or deleted in place, a new one
 * added in a dialog with the declaration's inputs and rules. Read-only once the information is submitted.
 */
function RowsSection({ spec, rows, onChanged }: { spec: SectionSpec; rows: Row[]; onChanged: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useAppDispatch();
  const stored = useAppSelector((s) => s.app.student);
  const { locked } = usePortalLock();
  const [form] = Form.useForm();
  const [write] = usePortalWriteMutation();
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<unknown>(null);

  const record = editing === 'new' || editing === null ? null : editing;
  const close = () => setEditing(null);
  const remove = async (row: Row) => {
    setError(null);
    setDeleting(row.id);
    const result = await write({ url: `${spec.url}/${String(row.id)}`, method: 'DELETE' });
    setDeleting(null);
    if (!result.error) {
      void message.success(t('portal.deleted'));
      onChanged();
      return;
    }
    if (isApiError(result.error) && result.error.handled) return;
    setError(portalErrorText(result.error, t));
    if (isLockedError(result.error)) void refreshStudent(dispatch, stored);
  };

  return (
    <section data-testid={spec.testId} style={{ marginBottom: 24 }}>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 8 }} wrap>
        <Typography.Title level={2} style={{ fontSize: 20, margin: 0 }}>
          {spec.title}
        </Typography.Title>
        {!locked && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {spec.addLabel}
          </Button>
        )}
      </Space>
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
      {rows.length === 0 ? (
        <Empty description={spec.empty} />
      ) : (
        <Row gutter={[12, 12]}>
          {rows.map((row) => {
            const { title, lines } = spec.card(row);
            const name = spec.name(row);
            return (
              <Col key={String(row.id)} xs={24} md={12}>
                <Card
                  size="small"
                  title={<span data-testid="row-title">{title}</span>}
                  data-testid={`${spec.testId}-card`}
                  actions={
                    locked
                      ? undefined
                      : [
                          <Button
                            key="edit"
                            type="text"
                            icon={<EditOutlined />}
                            aria-label={`${t('portal.edit')} ${name}`}
                            onClick={() => setEditing(row)}
                          >
                            {t('portal.edit')}
                          </Button>,
                          <Popconfirm
                            key="delete"
                            title={t('portal.deleteConfirm', { name, interpolation: { escapeValue: false } })}
                            okText={t('portal.delete')}
                            cancelText={t('common.cancel')}
                            okButtonProps={{ danger: true }}
                            onConfirm={() => remove(row)}
                          >
                            <Button
                              type="text"
                              danger
                              icon={<DeleteOutlined />}
                              loading={deleting === row.id}
                              aria-label={`${t('portal.delete')} ${name}`}
                            >
                              {t('portal.delete')}
                            </Button>
                          </Popconfirm>,
                        ]
                  }
                >
                  {lines.filter(Boolean).map((line, i) => (
                    <div key={i}>{line}</div>
                  ))}
                </Card>
              </Col>
            );
          })}
        </Row>
      )}
      <Modal
        open={editing !== null}
        title={record ? `${t('portal.edit')} · ${spec.name(record)}` : spec.addLabel}
        onCancel={close}
        footer={null}
        destroyOnHidden
        width={640}
        rootClassName="portal-overlay"
      >
        {editing !== null && (
          <PortalForm
            form={form}
            fields={spec.fields}
            schemas={spec.schemas}
            record={record}
            disabled={locked}
            guard={false}
            testId={`${spec.testId}-form`}
            save={(body) =>
              write(
                record
                  ? { url: `${spec.url}/${String(record.id)}`, method: 'PUT', body }
                  : { url: spec.url, method: 'POST', body },
              ).unwrap()
            }
            onSaved={() => {
              void message.success(t('portal.saved'));
              close();
              onChanged();
            }}
            onLocked={() => void refreshStudent(dispatch, stored)}
            footer={(saving) => (
              <Space style={{ width: '100%', justifyContent: 'flex-end' }} wrap>
                <Button onClick={close} disabled={false}>
                  {t('common.cancel')}
                </Button>
                <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={saving}>
                  {t('portal.save')}
                </Button>
              </Space>
            )}
          />
        )}
      </Modal>
    </section>
  );
}

const text = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));

/**
 * Family & education (`/family`, data `GET /api/family`; the education entries from `GET /api/education`): the
 * family members and the schooling as cards, each added, edited or deleted in a dialog; primary and secondary
 * school are needed before the information can be submitted.
 */
export default function FamilyPage() {
  const { t, i18n } = useTranslation();
  const data = useRouteData();
  useSyncSubmission(data);
  const revalidator = useRevalidator();
  const family = rowsOf(data, 'family', 'members');
  const education = usePortalReadQuery({ url: '/api/education' });
  const schooling = rowsOf(education.data, 'educations', 'education');
  const english = i18n.language === 'en';

  const familySpec: SectionSpec = useMemo(
    () => ({
      decl: studentFamily,
      fields: FAMILY_FIELDS,
      schemas: FAMILY_SCHEMAS,
      url: '/api/family',
      title: t('portal.family.title'),
      addLabel: t('portal.family.add'),
      empty: t('portal.family.empty'),
      testId: 'family',
      name: (row) =>
        english ? text(row.name_en) || text(row.name_zh) : text(row.name_zh) || text(row.name_en),
      card: (row) => ({
        title: (
          <Space size={4} wrap>
            <span>
              {english ? text(row.name_en) || text(row.name_zh) : text(row.name_zh) || text(row.name_en)}
            </span>
            <Tag>
              <OptionText list="relationship" value={row.relationship} label={row.relationship_label} />
            </Tag>
          </Space>
        ),
        lines: [
          row.is_emergency_contact ? <Tag color="orange">{t('portal.family.emergency')}</Tag> : null,
          row.occupation
            ? t('common.labelled', {
                label: t('resources.student_family.fields.occupation'),
                value: text(row.occupation),
              })
            : null,
          row.phone
            ? t('common.labelled', {
                label: t('resources.student_family.fields.phone'),
                value: text(row.phone),
              })
            : null,
          row.email
            ? t('common.labelled', {
                label: t('resources.student_family.fields.email'),
                value: text(row.email),
              })
            : null,
        ],
      }),
    }),
    [t, english],
  );
  const educationSpec: SectionSpec = useMemo(
    () => ({
      decl: studentEducations,
      fields: EDUCATION_FIELDS,
      schemas: EDUCATION_SCHEMAS,
      url: '/api/education',
      title: t('portal.education.title'),
      addLabel: t('portal.education.add'),
      empty: t('portal.education.empty'),
      testId: 'education',
      name: (row) => text(row.school_name),
      card: (row) => ({
        title: (
          <Space size={4} wrap>
            <span>{text(row.school_name)}</span>
            <Tag>
              <OptionText list="education_level" value={row.level} label={row.level_label} />
            </Tag>
          </Space>
        ),
        lines: [
          row.start_date || row.end_date
            ? `${formatDate(text(row.start_date))} – ${formatDate(text(row.end_date))}`
            : null,
          row.graduated ? <Tag color="green">{t('resources.student_education.fields.graduated')}</Tag> : null,
        ],
      }),
    }),
    [t],
  );

  const levels = new Set(schooling.map((row) => row.level));
  const missing = REQUIRED_LEVELS.filter((level) => !levels.has(level));

  return (
    <PortalPage title={t('portal.familyPage.title')}>
      <RowsSection spec={familySpec} rows={family} onChanged={() => void revalidator.revalidate()} />
      <Alert
        type={missing.length && !education.isLoading ? 'warning' : 'info'}
        showIcon
        data-testid="education-required-note"
        title={t('portal.education.requiredNote')}
        description={
          missing.length && !education.isLoading
            ? t('portal.education.missing', {
                levels: missing
                  .map((level) => t(`portal.education.levels.${level}`))
                  .join(t('portal.listSeparator')),
              })
            : undefined
        }
        style={{ marginBottom: 12 }}
      />
      {education.isError && !(isApiError(education.error) && education.error.handled) && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={t('portal.loadFailed')}
          style={{ marginBottom: 12 }}
        />
      )}
      <RowsSection spec={educationSpec} rows={schooling} onChanged={() => void education.refetch()} />
    </PortalPage>
  );
}
