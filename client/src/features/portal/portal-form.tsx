import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, Descriptions, Form, Input, Typography, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  fieldLabelKey,
  type FieldDeclaration,
  type ResourceDeclaration,
} from '../../../../shared/resources/declaration';
import { deriveSchemas } from '../../../../shared/resources/derive';
import { appActions } from '../../app/app-slice';
import { useAppDispatch } from '../../app/hooks';
import { enterDoesNotSubmit } from '../../components/forms/save-keys';
import { FieldInput, fieldItemProps } from '../../components/resource/field-input';
import { formatDate } from '../../components/resource/renderers';
import { serverFormErrors, zodRule } from '../../components/resource/resource-errors';
import type { ResourceField, ResourceFieldInput } from '../../components/resource/types';
import { ChoiceSelect, choiceLabel, type ControlProps } from '../../components/resource/choice-select';
import { isLockedError, portalErrorText, usePortalOptionsQuery } from './portal-api';

/**
 * The portal's forms from the students' declarations (shared/resources/students.ts): the same inputs and the same
 * zod rules as the staff side's forms (`deriveSchemas`, the server's own), the server's field errors on their
 * fields, the unsaved-changes flag the shell's guard asks about, and read-only once the information is submitted.
 */

/** An option list's value: its choices when the student may read the list, else the value typed as it is. */
export function PortalOptionSelect({
  list,
  ...props
}: ControlProps<string> & { list: string; allowClear?: boolean }) {
  const { data: lists, isError, isLoading } = usePortalOptionsQuery();
  const data = lists?.[list];
  if (isError || (!isLoading && !data?.length))
    return (
      <Input
        id={props.id}
        disabled={props.disabled}
        value={props.value ?? ''}
        onChange={(e) => props.onChange?.(e.target.value || null)}
        style={{ maxWidth: 400 }}
      />
    );
  return <ChoiceSelect choices={data} loading={isLoading} {...props} />;
}

/** An option value's label in the interface language (the row's `<field>_label` when the server sends one). */
export function OptionText({ list, value, label }: { list: string; value: unknown; label?: unknown }) {
  const { i18n } = useTranslation();
  const { data } = usePortalOptionsQuery();
  const choices = data?.[list];
  if (!choices?.length && typeof label === 'string' && label) return <>{label}</>;
  return <>{choiceLabel(choices, value, i18n.language)}</>;
}

/**
 * The input of a declared field, as the staff forms' (from-declaration.tsx) without their heavier machinery: text
 * (multiline as a text area), email, date, yes / no, number, and an option list's value from the portal's lists.
 */
function portalInput(field: FieldDeclaration): ResourceFieldInput {
  switch (field.type) {
    case 'text':
      return { type: field.multiline ? 'textarea' : 'text' };
    case 'date':
      return { type: 'date' };
    case 'boolean':
      return { type: 'switch' };
    case 'integer':
      return { type: 'number', min: field.min, max: field.max };
    case 'option':
      return {
        type: 'custom',
        render: (p) => {
          const { record: _record, ...c } = p as unknown as ControlProps<string> & { record: unknown };
          return <PortalOptionSelect list={field.key} allowClear={!field.required} {...c} />;
        },
      };
    default:
      return { type: 'text' };
  }
}

/** The form fields of some of a declaration's fields, in the order given. */
export function portalFields(decl: ResourceDeclaration, names: readonly string[]): ResourceField[] {
  return names.map((name) => {
    const field = decl.fields[name];
    if (!field) throw new Error(`${decl.name} declares no field ${name}`);
    return {
      name,
      labelKey: fieldLabelKey(decl.name, name),
      input: portalInput(field),
      ...(field.help ? { helpKey: `resources.${decl.name}.help.${name}` } : {}),
    };
  });
}

/**
 * The body of a save: the form's own fields, an emptied one as null (the schemas are strict; as the staff forms
 * send it, resource-form-page.tsx `formBody`).
 */
export function portalBody(
  fields: ResourceField[],
  values: Record<string, unknown>,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (value === undefined) continue;
    body[field.name] = value === '' ? null : value;
  }
  return body;
}

export interface PortalFormSchemas {
  /** what the whole record must satisfy (its required fields) */
  create: z.ZodObject;
  /** what each field must satisfy */
  update: z.ZodObject;
}

export function schemasOf(decl: ResourceDeclaration): PortalFormSchemas {
  const derived = deriveSchemas(decl);
  return { create: derived.create, update: derived.update };
}

/** The starting values of a form: the record's value of each field. */
export function valuesOf(fields: ResourceField[], record: Record<string, unknown> | null) {
  const values: Record<string, unknown> = {};
  for (const field of fields) if (record?.[field.name] !== undefined) values[field.name] = record[field.name];
  return values;
}

/**
 * One portal form: the fields' items with their rules, a summary of a refusal above them. `save` sends the body
 * (the form's own fields, emptied ones as null) and throws the refusal; the refusal's field errors land on their
 * fields. `guard`: changes set the unsaved-changes flag (a page's form; a dialog's asks on its own).
 */
export function PortalForm({
  form,
  fields,
  schemas,
  record,
  disabled,
  save,
  onSaved,
  onLocked,
  guard = true,
  footer,
  testId,
}: {
  form: FormInstance;
  fields: ResourceField[];
  schemas: PortalFormSchemas;
  record: Record<string, unknown> | null;
  disabled: boolean;
  save: (body: Record<string, unknown>) => Promise<unknown>;
  onSaved: (saved: unknown) => void;
  /** the server said the information is submitted (409 `portalLocked`) */
  onLocked?: () => void;
  guard?: boolean;
  footer: (saving: boolean) => ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [summary, setSummary] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const busy = useRef(false);
  const initialValues = useMemo(() => valuesOf(fields, record), [fields, record]);

  // the record read again (after a save): shown as it is now
  useEffect(() => {
    form.resetFields();
  }, [form, initialValues]);
  useEffect(() => () => void (guard && dispatch(appActions.setUnsavedChanges(false))), [dispatch, guard]);

  const onFinish = async (values: Record<string, unknown>) => {
    if (busy.current) return;
    busy.current = true;
    setSaving(true);
    setSummary(null);
    try {
      const saved = await save(portalBody(fields, values));
      if (guard) dispatch(appActions.setUnsavedChanges(false));
      onSaved(saved);
    } catch (error) {
      if (isLockedError(error)) {
        setSummary(portalErrorText(error, t));
        if (guard) dispatch(appActions.setUnsavedChanges(false));
        onLocked?.();
        return;
      }
      const result = serverFormErrors(
        error,
        t,
        fields.map((f) => f.name),
      );
      form.setFields(result.fields);
      setSummary(result.summary);
    } finally {
      busy.current = false;
      setSaving(false);
    }
  };

  return (
    <>
      {summary && (
        <Alert
          type="error"
          showIcon
          role="alert"
          data-testid="portal-form-error"
          title={summary}
          style={{ marginBottom: 16 }}
        />
      )}
      <Form
        form={form}
        layout="vertical"
        initialValues={initialValues}
        disabled={disabled}
        onValuesChange={() => guard && dispatch(appActions.setUnsavedChanges(true))}
        onFinish={onFinish}
        // Enter confirms a date or a choice; the Save button saves (issue 31 §1)
        onKeyDownCapture={enterDoesNotSubmit}
        // the inputs' ids are the form's (a page's and a dialog's fields never share one)
        name={testId}
        data-testid={testId}
        scrollToFirstError
      >
        {fields.map((field) => (
          <Form.Item
            key={field.name}
            name={field.name}
            label={t(field.labelKey)}
            extra={field.helpKey ? t(field.helpKey) : undefined}
            rules={[zodRule(schemas.update, field.name, t, schemas.create)]}
            {...fieldItemProps(field.input)}
          >
            <FieldInput
              input={field.input}
              data={record ?? {}}
              record={record}
              {...(disabled ? { disabled: true } : {})}
            />
          </Form.Item>
        ))}
        {footer(saving)}
      </Form>
    </>
  );
}

/** A declared field's value as text a person reads (a date in the house format, an option by its label …). */
function DetailValue({
  field,
  name,
  record,
}: {
  field: FieldDeclaration;
  name: string;
  record: Record<string, unknown>;
}) {
  const { t } = useTranslation();
  const value = record[name];
  if (value === null || value === undefined || value === '')
    return <Typography.Text type="secondary">{t('portal.submit.empty')}</Typography.Text>;
  switch (field.type) {
    case 'date':
      return <>{formatDate(String(value))}</>;
    case 'boolean':
      return <>{t(value ? 'common.yes' : 'common.no')}</>;
    case 'option':
      return <OptionText list={field.key} value={value} label={record[`${name}_label`]} />;
    default:
      return <span style={{ whiteSpace: 'pre-wrap' }}>{String(value)}</span>;
  }
}

/**
 * Some of a declaration's fields as readable text (label, value), in the order given: the submitted information
 * (read-only, never pale disabled inputs) and the summary a student confirms before submitting.
 */
export function PortalDetails({
  decl,
  names,
  record,
  testId,
  bordered,
}: {
  decl: ResourceDeclaration;
  names: readonly string[];
  record: Record<string, unknown>;
  testId?: string;
  bordered?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Descriptions
      size="small"
      column={1}
      bordered={bordered}
      data-testid={testId}
      items={names.map((name) => {
        const field = decl.fields[name];
        if (!field) throw new Error(`${decl.name} declares no field ${name}`);
        return {
          key: name,
          label: t(fieldLabelKey(decl.name, name)),
          children: <DetailValue field={field} name={name} record={record} />,
        };
      })}
    />
  );
}
