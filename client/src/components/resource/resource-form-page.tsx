import type { z } from 'zod';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { DeleteOutlined, SaveOutlined } from '@ant-design/icons';
import { Alert, App, Button, Col, Form, Popconfirm, Row, Skeleton, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLoaderData, useLocation, useNavigate, useParams, useRevalidator } from 'react-router-dom';
import { appActions } from '../../app/app-slice';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { PageHeader } from '../layout/page-header';
import type { RouteData } from '../../app/routes/route-data';
import type { RecordTabContext } from './resource-record-page';
import { useScreenTitle } from '../layout/use-document-title';
import { enterDoesNotSubmit, useSaveShortcut } from '../forms/save-keys';
import { newIdempotencyKey } from '../../http/idempotency-key';
import { useRememberVisit } from './recent-records-button';
import { isMessageKey } from '../../../../shared/messages';
import { isInsufficientRights, recordAllows, refusalNote } from './record-access';
import {
  useResourceCreateMutation,
  useResourceDeleteMutation,
  useResourceUpdateMutation,
} from './resource-api';
import { deleteErrorMessage, serverFormErrors, zodRule } from './resource-errors';
import { FieldInput, fieldItemProps } from './field-input';
import { ResourceFormContext } from './resource-form-context';
import { useResourcePermissions } from './resource-permissions';
import { ResourceDetailTabs, type DetailTab } from './resource-detail-tabs';
import { resolvePath, type ResourceConfig, type ResourceField, type ResourceRow } from './types';

/** The history tab's table (antd Table, ~50 KiB gzip) is fetched when the tab is opened, not with every form. */
const AuditHistory = lazy(() => import('./audit-history').then((m) => ({ default: m.AuditHistory })));

type FormData = RouteData & { defaults?: Record<string, unknown> };

/** The form's starting values: the record's fields, or a new record's defaults. */
export function initialFormValues(
  fields: ResourceField[],
  data: Record<string, unknown>,
  creating: boolean,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const source = creating ? { ...(data.defaults as Record<string, unknown> | undefined), ...extra } : data;
  const values: Record<string, unknown> = {};
  for (const field of fields) if (source[field.name] !== undefined) values[field.name] = source[field.name];
  return values;
}

/**
 * Only the form's own fields, empty optional values as null (the schemas are strict): an emptied field
 * whose schema takes null (an optional email, say) is sent as null, not as an empty string it would refuse.
 */
export function formBody(
  fields: ResourceField[],
  values: Record<string, unknown>,
  schema?: z.ZodObject,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.readOnly) continue;
    const value = values[field.name];
    if (value === undefined) continue;
    const takesNull = schema?.shape[field.name]?.safeParse(null).success ?? false;
    const textual = field.input.type === 'text' || field.input.type === 'textarea';
    if (field.input.type === 'group' && field.input.body) body[field.name] = field.input.body(value);
    else body[field.name] = value === '' && (takesNull || !textual) ? null : value;
  }
  return body;
}

export interface ResourceFormProps<T extends ResourceRow> {
  config: ResourceConfig<T>;
  /** the record (editing) or the `GET api/create` answer (creating: its `defaults`, its choices) */
  data: Record<string, unknown>;
  /** the record's id; none: a new record */
  id?: string | number;
  /** the collection, when not the config's */
  apiPath?: string;
  /** the list's path ("back to the list"), when not the config's */
  routePath?: string;
  /** after a save (the lists and the record showing it are read again by their tags) */
  onSaved: (saved: ResourceRow) => void;
  onDeleted: () => void;
  /** the record went out of the user's reach: read it again */
  onRefused: () => void;
  /** more form items after the fields */
  children?: ReactNode;
}

/**
 * The generic form of one record, embeddable (the form page, a record page's first tab): rules come from
 * the shared zod schema; the server's field errors land on their fields (a duplicate as "This Data is already
 * exist." in the user's language); changes set the unsaved-changes flag the shell's guard asks about; delete
 * asks first and a refusal (409) says in words what still uses the record. A record whose `allowed_actions`
 * keeps it from the user opens read-only with a note saying why; a save or delete the server refuses for lack
 * of rights (403 `insufficient_rights`) is explained, and the record is shown as it is now. Writes go through
 * the typed RTK Query calls, whose tags refresh every list showing the record.
 */
export function ResourceForm<T extends ResourceRow>({
  config,
  data,
  id,
  apiPath: apiPathProp,
  routePath: routePathProp,
  onSaved,
  onDeleted,
  onRefused,
  children,
}: ResourceFormProps<T>) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const params = useParams();
  const [form] = Form.useForm();
  const [create, { isLoading: creatingNow }] = useResourceCreateMutation();
  const [update, { isLoading: updating }] = useResourceUpdateMutation();
  const [removeRecord] = useResourceDeleteMutation();
  const saving = creatingNow || updating;
  const [summary, setSummary] = useState<string | null>(null);
  const user = useAppSelector((s) => s.app.user);
  const { canUpdate, canDelete } = useResourcePermissions(config);

  const creating = id === undefined || id === null || id === '';
  const spec = config.form;
  const record = creating ? null : data;
  const fields = useMemo(
    () =>
      (spec?.fields ?? []).filter(
        (f) =>
          (!f.only || f.only === (creating ? 'create' : 'edit')) &&
          (!f.shownFor || (record !== null && f.shownFor(record))),
      ),
    [spec, creating, record],
  );
  const schema = creating ? spec?.create : spec?.update;
  // two columns where they help: a form of many short fields, or one with collection tables (issue 31)
  const twoColumns = useMemo(() => {
    const shown = fields.filter((f) => !f.hidden);
    return shown.some((f) => f.input.type === 'group') || shown.filter((f) => !fullWidth(f)).length >= 6;
  }, [fields]);
  const apiPath = apiPathProp ?? resolvePath(config.apiPath, params);
  const routePath = routePathProp ?? resolvePath(config.routePath, params);
  const recordName = creating ? null : config.recordTitle(data, i18n.language);
  // the permission held, and (for a record) the record's own `allowed_actions`
  const editable = creating || (canUpdate && recordAllows(record, 'update'));
  const deletable =
    !creating &&
    canDelete &&
    (config.canDelete?.(data as unknown as T) ?? true) &&
    recordAllows(record, 'delete');
  // the user holds the permission, the record is out of their reach: say why rather than fail on save
  const refused =
    !creating &&
    ((canUpdate && !recordAllows(record, 'update')) || (canDelete && !recordAllows(record, 'delete')));
  const initialValues = useMemo(
    () =>
      initialFormValues(
        fields,
        data,
        creating,
        creating ? spec?.initialValues?.((data.query as Record<string, string> | undefined) ?? {}) : {},
      ),
    [fields, data, creating, spec],
  );

  // Changed since it was shown or saved: a record read again then keeps what is being typed.
  const dirty = useRef(false);
  // The record read again (after a save elsewhere, a refusal, a file uploaded): the form shows it as it is now —
  // while edits are in progress, only what the server keeps (a file, a computed value) is shown anew.
  const shownValues = useRef(initialValues);
  useEffect(() => {
    if (shownValues.current === initialValues) return;
    shownValues.current = initialValues;
    if (!dirty.current) {
      form.resetFields();
      return;
    }
    for (const field of fields)
      if (field.readOnly) form.setFieldValue(field.name, initialValues[field.name] ?? null);
  }, [form, initialValues, fields]);
  // Leaving the form forgets its changes (the guard has asked already).
  useEffect(() => () => void dispatch(appActions.setUnsavedChanges(false)), [dispatch]);

  /** The record went out of the user's reach since it was read: forget the edits, show it as it is now. */
  const refusedNow = () => {
    dirty.current = false;
    form.resetFields();
    dispatch(appActions.setUnsavedChanges(false));
    onRefused();
  };

  const formContext = useMemo(() => ({ apiPath, id: creating ? null : id! }), [apiPath, creating, id]);

  // one save at a time (Save clicked twice, Ctrl/⌘+S held): a created record is never created twice
  const submitting = useRef(false);
  // one key per submission of the same values: Save pressed again after a lost answer (a timeout, the network gone)
  // sends the same key, and the server answers what it did the first time instead of creating a second record
  const submissionKey = useRef<string | null>(null);
  const save = async (values: Record<string, unknown>) => {
    if (submitting.current) return;
    submitting.current = true;
    setSummary(null);
    try {
      const body = formBody(fields, values, schema);
      if (creating) submissionKey.current ??= newIdempotencyKey();
      const saved = creating
        ? await create({ path: apiPath, body, idempotencyKey: submissionKey.current! }).unwrap()
        : await update({ path: apiPath, id: id!, body }).unwrap();
      dirty.current = false;
      dispatch(appActions.setUnsavedChanges(false));
      void message.success(t('resource.saved'));
      // a new record's form is done (its page opens next); an edit form may be saved again
      if (!creating) submitting.current = false;
      onSaved(saved);
    } catch (error) {
      submitting.current = false;
      const result = serverFormErrors(
        error,
        t,
        fields.filter((f) => !f.hidden).map((f) => f.name),
        fields.filter((f) => f.input.type === 'group').map((f) => f.name),
      );
      form.setFields([...result.fields, ...(result.cells ?? [])]);
      setSummary(result.summary);
      if (isInsufficientRights(error) && result.fields.length === 0) refusedNow();
    }
  };

  // Ctrl/⌘+S saves (its rules checked first); Enter in a field does not (`enterDoesNotSubmit`)
  const submitForm = useCallback(() => form.submit(), [form]);
  useSaveShortcut(submitForm, editable);

  const remove = async () => {
    setSummary(null);
    try {
      await removeRecord({ path: apiPath, id: id! }).unwrap();
      dirty.current = false;
      dispatch(appActions.setUnsavedChanges(false));
      void message.success(t('resource.deleted'));
      onDeleted();
    } catch (error) {
      setSummary(deleteErrorMessage(error, t, config.referencedHintKey));
      if (isInsufficientRights(error)) refusedNow();
    }
  };

  return (
    <>
      {summary && (
        <Alert
          type="error"
          showIcon
          role="alert"
          data-testid="resource-form-error"
          title={summary}
          style={{ marginBottom: 16 }}
        />
      )}
      {refused && (
        <Alert
          type="info"
          showIcon
          data-testid="resource-read-only"
          title={refusalNote(data as unknown as T, t)}
          // a record its state keeps (a void invoice): the reason says what to do; otherwise an admin can help
          description={isMessageKey(data.locked) ? undefined : t('resource.readOnly')}
          style={{ marginBottom: 16 }}
        />
      )}
      <ResourceFormContext.Provider value={formContext}>
        <Form
          form={form}
          layout="vertical"
          initialValues={initialValues}
          disabled={!editable}
          onValuesChange={(changed: Record<string, unknown>) => {
            dirty.current = true;
            // other values are another submission: a new key
            submissionKey.current = null;
            // a choice narrowed by the field just changed (a district by its area) no longer holds
            for (const field of fields)
              if (field.narrowedBy && field.narrowedBy in changed && !(field.name in changed))
                form.setFieldValue(field.name, null);
            dispatch(appActions.setUnsavedChanges(true));
          }}
          onFinish={save}
          onKeyDownCapture={enterDoesNotSubmit}
          // a long form (or one with collection tables) uses the screen's width: short fields two by two; a
          // screen may set its own width (the sales documents' lines)
          style={{ maxWidth: config.formMaxWidth ?? (twoColumns ? 1600 : 900) }}
          data-testid={`resource-form-${config.name}`}
        >
          <Row gutter={24}>
            {fields.map((field) => {
              const locked = editable ? (field.locked?.({ record, user }) ?? null) : null;
              const help = [field.helpKey, locked].filter((k): k is string => Boolean(k)).map((k) => t(k));
              const extra = help.length ? help.join(' ') : undefined;
              if (field.input.type === 'group') {
                // a collection's rows: the field lays out its own items under its name, the form's full width
                return (
                  <Col key={field.name} span={24}>
                    <Form.Item label={t(field.labelKey)} extra={extra} required={false}>
                      {field.input.render({
                        name: field.name,
                        schema,
                        record,
                        disabled: !editable || Boolean(locked),
                      })}
                    </Form.Item>
                  </Col>
                );
              }
              const item = (
                <Form.Item
                  key={field.name}
                  name={field.name}
                  label={field.hidden ? undefined : t(field.labelKey)}
                  hidden={field.hidden}
                  help={undefined}
                  extra={extra}
                  rules={schema && !field.hidden ? [zodRule(schema, field.name, t, spec?.create)] : []}
                  {...fieldItemProps(field.input)}
                >
                  <FieldInput
                    input={field.input}
                    data={data}
                    record={record}
                    // a custom control (a file field) is told too: it leaves out buttons the user could not use
                    {...(locked || !editable ? { disabled: true } : {})}
                  />
                </Form.Item>
              );
              // a hidden field takes no place in the grid
              if (field.hidden) return item;
              return (
                <Col key={field.name} span={24} xl={twoColumns && !fullWidth(field) ? 12 : 24}>
                  {item}
                </Col>
              );
            })}
          </Row>
          {children}
          {/* the save bar stays at the bottom of the window while a long form scrolls */}
          <Space className="form-save-bar" data-testid="form-save-bar">
            {editable && (
              <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={saving}>
                {t('resource.save')}
              </Button>
            )}
            <Button disabled={false} onClick={() => navigate(routePath)}>
              {t('resource.backToList')}
            </Button>
            {deletable && (
              <Popconfirm
                title={t('resource.deleteConfirm', { name: recordName })}
                okText={t('resource.delete')}
                cancelText={t('resource.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={remove}
              >
                <Button danger disabled={false} icon={<DeleteOutlined />}>
                  {t('resource.delete')}
                </Button>
              </Popconfirm>
            )}
          </Space>
        </Form>
      </ResourceFormContext.Provider>
    </>
  );
}

/** A field drawn the form's full width even in two columns: a collection's table, a long text, a wide grid. */
function fullWidth(field: ResourceField): boolean {
  return Boolean(field.wide) || field.input.type === 'group' || field.input.type === 'textarea';
}

/**
 * The generic form screen (architecture.md "Write CRUD once"): `path/create` opens a new record with the
 * `GET api/create` defaults, `path/:id` an existing one (the route's data call, for the first paint); a save
 * or delete goes back to the list (a new record of a record page with tabs opens on that page instead). An existing record's page has the config's extra tabs and, for admins,
 * its history.
 */
export function ResourceFormPage<T extends ResourceRow>({
  config,
  children,
  actions,
}: {
  config: ResourceConfig<T>;
  children?: ReactNode;
  /** a record's actions beside its title (its state moves, print) */
  actions?: (record: ResourceRow, ctx: RecordTabContext) => ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const params = useParams();
  const data = useLoaderData() as FormData;
  const revalidator = useRevalidator();
  const user = useAppSelector((s) => s.app.user);
  const isAdmin = Boolean(user?.is_admin);

  const creating = !params.id;
  const routePath = resolvePath(config.routePath, params);
  const listTitle = t(config.titleKey, config.titleValues?.(params, t));
  useScreenTitle(listTitle);
  const recordName = creating ? null : config.recordTitle(data, i18n.language);
  useRememberVisit(
    location.pathname,
    !recordName
      ? null
      : (lt, lng) =>
          `${lt(config.titleKey, config.titleValues?.(params, lt))} · ${config.recordTitle(data, lng)}`,
    'record',
  );

  const back = () => navigate(routePath);
  // a new record of a record page with tabs opens there (its other tabs need it saved), else the list
  const recordPath = config.recordPath ? resolvePath(config.recordPath, params) : null;
  const saved = (row: ResourceRow) =>
    creating && recordPath ? navigate(`${recordPath}/${row.id}`, { replace: true }) : back();
  const formView = (
    <ResourceForm
      config={config}
      data={data}
      id={params.id}
      onSaved={saved}
      onDeleted={back}
      onRefused={() => void revalidator.revalidate()}
    >
      {children}
    </ResourceForm>
  );

  const tabs: DetailTab[] = [];
  if (!creating) {
    for (const tab of config.tabs ?? [])
      tabs.push({ key: tab.key, label: t(tab.labelKey), children: tab.render(data as unknown as T) });
    if (config.auditEntity && isAdmin) {
      tabs.push({
        key: 'history',
        label: t('resource.history'),
        children: (
          <Suspense fallback={<Skeleton active />}>
            <AuditHistory entity={config.auditEntity} id={Number(params.id)} />
          </Suspense>
        ),
      });
    }
  }

  return (
    <div className="resource-form">
      <PageHeader
        title={creating ? t('resource.createTitle', { name: listTitle }) : recordName}
        extra={
          !creating && actions
            ? actions(data as unknown as ResourceRow, {
                id: String(params.id),
                tab: '',
                apiPath: resolvePath(config.apiPath, params),
                routePath,
                tabPath: `${routePath}/${String(params.id)}`,
                reload: () => void revalidator.revalidate(),
              })
            : undefined
        }
        crumbs={[{ title: listTitle, to: routePath }, { title: recordName ?? t('resource.new') }]}
      />
      {tabs.length ? (
        <ResourceDetailTabs
          tabs={[{ key: 'details', label: t('resource.details'), children: formView }, ...tabs]}
        />
      ) : (
        formView
      )}
    </div>
  );
}

/** A screen's default export: `export default resourceFormScreen(holidayConfig)`. */
export function resourceFormScreen<T extends ResourceRow>(
  config: ResourceConfig<T>,
  actions?: (record: ResourceRow, ctx: RecordTabContext) => ReactNode,
) {
  return function ResourceFormScreen() {
    return <ResourceFormPage config={config} actions={actions} />;
  };
}
