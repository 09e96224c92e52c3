import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { installZodMessages, zodMessageRef } from '../../../../shared/messages';
import { isApiError } from '../../app/api';
import { bodyMessageRef, errorSummary, messageText } from '../forms/server-errors';

/** References a 409 names (`{ districts: 2 }`) in words: "2 district(s)". */
export function referencesInWords(references: Record<string, number>, t: TFunction): string {
  return Object.entries(references)
    .filter(([, count]) => count > 0)
    .map(([key, count]) =>
      t(`resource.references.${key}`, {
        count,
        defaultValue: t('resource.references.other', { count, name: key }),
      }),
    )
    .join(t('resource.listSeparator'));
}

/** A resource's record name (`student category`, as the server names it) in the user's language, or null. */
function entityName(entity: string, t: TFunction): string | null {
  const name = t(`resources.${entity.replace(/ /g, '_')}.record`, { defaultValue: '' });
  return name ? name.charAt(0).toLowerCase() + name.slice(1) : null;
}

/**
 * The message of a refused delete, from its key (`stillUsedBy`, `stillUsedByHint`): what still uses the record,
 * worded here from the body's `references` counts, the entity named in the user's language (else "this
 * record"), and what to do instead (the server's `hint`, else the screen's `hintKey`).
 */
export function deleteErrorMessage(error: unknown, t: TFunction, hintKey?: string): string {
  if (isApiError(error) && error.status === 409 && error.data?.code === 'referenced') {
    const ref = bodyMessageRef(error.data);
    const words = referencesInWords(error.data.references ?? {}, t);
    const entity = typeof ref?.params?.entity === 'string' ? entityName(ref.params.entity, t) : null;
    const text = !words
      ? t('serverMessages.referenced')
      : entity
        ? t('serverMessages.stillUsedBy', {
            entity,
            references: words,
            interpolation: { escapeValue: false },
          })
        : t('resource.referencedBy', { references: words });
    const sent = ref?.params?.hint;
    const hint = typeof sent === 'object' ? messageText(sent, t) : hintKey ? t(hintKey) : null;
    return hint ? t('resource.withHint', { text, hint }) : text;
  }
  const ref = isApiError(error) && error.status === 409 ? bodyMessageRef(error.data) : null;
  return ref ? messageText(ref, t) : errorSummary(error, t);
}

export interface ServerFormErrors {
  /** errors for fields of the form, for antd `form.setFields` */
  fields: { name: string; errors: string[] }[];
  /** the message for the top of the form (errors of fields not on the form, or none at all) */
  summary: string | null;
  /** errors of a collection's cells (`documents.2.name_en` → `['documents', 2, 'name_en']`), when `rowsOf` names it */
  cells?: { name: (string | number)[]; errors: string[] }[];
}

/** A cell of one of `rowsOf`'s collections named by an error key (`documents.2.name_en`), as a name path. */
function cellPath(key: string, rowsOf: readonly string[]): (string | number)[] | null {
  const [collection, row, ...rest] = key.split('.');
  if (!rowsOf.includes(collection) || !/^\d+$/.test(row ?? '')) return null;
  return [collection, Number(row), ...rest];
}

/**
 * A failed save, split: field errors land on their fields (a duplicate as "This Data is already exist." in
 * the user's language, from the error code), anything else in the summary.
 */
export function serverFormErrors(
  error: unknown,
  t: TFunction,
  formFields: readonly string[],
  /** the form's collections of rows: an error of one of their cells lands on that cell */
  rowsOf: readonly string[] = [],
): ServerFormErrors {
  if (!isApiError(error)) return { fields: [], summary: t('errors.generic') };
  if (error.handled) return { fields: [], summary: null };
  const duplicate = error.data?.code === 'duplicate';
  const fields: ServerFormErrors['fields'] = [];
  const cells: NonNullable<ServerFormErrors['cells']> = [];
  const elsewhere: string[] = [];
  for (const [name, refs] of Object.entries(error.data?.error_keys ?? {})) {
    const texts = duplicate ? [t('serverMessages.duplicate')] : refs.map((ref) => messageText(ref, t));
    const cell = cellPath(name, rowsOf);
    if (formFields.includes(name)) fields.push({ name, errors: texts });
    else if (cell) cells.push({ name: cell, errors: texts });
    else elsewhere.push(...texts);
  }
  const withCells = cells.length ? { cells } : {};
  if (elsewhere.length) return { fields, summary: elsewhere.join(' '), ...withCells };
  if (fields.length || cells.length) return { fields, summary: null, ...withCells };
  if (error.status === 409) return { fields, summary: deleteErrorMessage(error, t) };
  return { fields, summary: errorSummary(error, t) };
}

/** Whether a field of the schema may be left empty. */
export function isOptionalField(schema: z.ZodObject, name: string): boolean {
  const field = schema.shape[name] as z.ZodType | undefined;
  return !field || field.safeParse(undefined).success;
}

// the same catalogued messages as the server's answers (shared/messages.ts), shown in the user's language
installZodMessages();

/**
 * The antd rule of a form field, from the shared zod schema's field of the same name: the same check the
 * server makes, so the two sides cannot drift. `requiredBy` says whether it may be left empty: an edit form
 * validates with the update schema (every field optional, a body may leave one out) but a field the record
 * must have (the create schema's required ones) may not be emptied there either.
 */
export function zodRule(schema: z.ZodObject, name: string, t: TFunction, requiredBy: z.ZodObject = schema) {
  const field = schema.shape[name] as z.ZodType | undefined;
  const optional = isOptionalField(requiredBy, name);
  return {
    required: !optional,
    validator: async (_rule: unknown, value: unknown) => {
      if (!field) return;
      const empty = value === undefined || value === null || value === '';
      if (empty) {
        if (optional) return;
        throw new Error(t('errors.required'));
      }
      const result = field.safeParse(value);
      if (!result.success) throw new Error(messageText(zodMessageRef(result.error.issues[0] as never), t));
    },
  };
}
