import type { TFunction } from 'i18next';
import { api, isApiError, type HttpArgs } from '../../app/api';
import { appActions } from '../../app/app-slice';
import type { AppDispatch, RootState } from '../../app/store';
import type { Student } from '../../app/types';
import { unwrapStudent } from '../auth/auth-api';
import { errorSummary } from '../../components/forms/server-errors';

/**
 * The portal's own calls (the student's session on the portal host): its writes (details, photo, family,
 * education, a choice of intake, a checklist row's file, the submission, the password and the language) and the
 * reads of the submission's summary. Every screen's first paint comes from its route's data call; after a write
 * the screen reads its route again.
 */
export const portalApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** A write of the portal: JSON, or a FormData body (a file) as it is. */
    portalWrite: build.mutation<unknown, HttpArgs>({ query: (args) => args }),
    /** A read of the portal (the summary shown before submitting), never navigating away on a refusal. */
    portalRead: build.query<unknown, { url: string; params?: HttpArgs['params'] }>({
      query: ({ url, params }) => ({ url, params, handleErrors: false }),
      keepUnusedDataFor: 0,
    }),
    /** The option lists of the portal's forms (`GET /api/student/options`: `{ gender: [{value, label_en, label_zh}] }`). */
    portalOptions: build.query<Record<string, PortalOption[]>, void>({
      query: () => ({ url: '/api/student/options', handleErrors: false }),
      keepUnusedDataFor: 300,
    }),
  }),
});

export const { usePortalWriteMutation, usePortalReadQuery, usePortalOptionsQuery } = portalApi;

/** One choice of an option list, in both languages. */
export interface PortalOption {
  value: string;
  label_en: string;
  label_zh: string;
}

/** A file as the multipart body of an upload (`file`). */
export function fileBody(file: File): FormData {
  const body = new FormData();
  body.append('file', file, file.name);
  return body;
}

/** The rows of a portal answer: an array, or the first array among `{items}`, the keys given, `{data}`. */
export function rowsOf(data: unknown, ...keys: string[]): Record<string, unknown>[] {
  if (Array.isArray(data)) return data as Record<string, unknown>[];
  if (!data || typeof data !== 'object') return [];
  const record = data as Record<string, unknown>;
  for (const key of [...keys, 'items', 'data']) if (Array.isArray(record[key])) return record[key] as never;
  return [];
}

/** The portal refuses writes after the submission (409 `portalLocked`). */
export function isLockedError(error: unknown): boolean {
  return isApiError(error) && error.status === 409 && error.data?.message_key === 'portalLocked';
}

/** A refused portal write in the student's language (the server's catalogued message: the lock, a rule …). */
export function portalErrorText(error: unknown, t: TFunction): string {
  return errorSummary(error, t);
}

/** The signed-in student as the portal holds it: whether the information was submitted, and when. */
export function submittedAt(student: Record<string, unknown> | null | undefined): string | null {
  const at = student?.info_submitted_at;
  return typeof at === 'string' && at ? at : null;
}

/**
 * The student's record read again (`GET /api/student`) into the store: after a refusal saying the forms are
 * locked, after the submission, as a screen opens — every screen shows the lock (or its end, after a consultant's
 * reopening) as the server sees it now. `_current`: the record held when asked (the store's is read on arrival).
 */
export async function refreshStudent(dispatch: AppDispatch, _current?: Student | null): Promise<void> {
  const result = await dispatch(
    portalApi.endpoints.portalRead.initiate(
      { url: '/api/student' },
      { subscribe: false, forceRefetch: true },
    ),
  );
  if (!result.data || typeof result.data !== 'object') return;
  const answer = unwrapStudent(result.data as never);
  dispatch((next: AppDispatch, getState: () => RootState) => {
    const held = getState().app.student;
    if (!held) return;
    const fresh = { ...held, ...answer } as Student;
    // the same record again changes nothing (no new object for every screen to follow)
    if (JSON.stringify(fresh) !== JSON.stringify(held)) next(appActions.setStudent(fresh));
  });
}

type Row = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));

/** The record a `GET /api/student` answer holds (possibly as `{student}`). */
export function studentOf(data: Row): Row {
  const inner = data.student;
  return inner && typeof inner === 'object' ? (inner as Row) : data;
}

/** The education levels a submission needs. */
export const REQUIRED_LEVELS = ['primary', 'secondary'] as const;

/** A name in the interface language: `<base>_en` or `<base>_zh` (the other when it is empty), else `<base>`. */
export function localName(row: Row, base: string, language: string): string {
  const en = str(row[`${base}_en`]);
  const zh = str(row[`${base}_zh`]);
  return (language === 'en' ? en || zh : zh || en) || str(row[base]);
}

/** An application (or a choice) named by its school, intake and subject, in the interface language. */
export function applicationName(row: Row, language: string): string {
  return [
    localName(row, 'school_name', language),
    localName(row, 'intake_name', language),
    localName(row, 'subject_name', language),
  ]
    .filter(Boolean)
    .join(' · ');
}

export interface DocumentGroup {
  key: string;
  title: string;
  rows: Row[];
}

/**
 * The checklist rows of `GET /api/document` by their application (`application_id`), titled by the application's
 * name among `applications` (`GET /api/application`), in the order of the rows.
 */
export function documentRows(data: unknown, applications: Row[] = [], language = 'en'): DocumentGroup[] {
  const groups = new Map<string, DocumentGroup>();
  for (const row of rowsOf(data, 'documents')) {
    const key = str(row.application_id);
    const app = applications.find((a) => str(a.id) === key);
    // the application's names, else the row's own (`school_name`, `admission_name`, `subject_name`)
    const title =
      (app && applicationName(app, language)) ||
      [row.school_name, row.admission_name, row.subject_name].map(str).filter(Boolean).join(' · ');
    const group = groups.get(key) ?? { key, title, rows: [] };
    groups.set(key, group);
    group.rows.push(row);
  }
  return [...groups.values()];
}
