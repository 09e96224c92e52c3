import type { FileUse } from '../../../../shared/files';
import { msg, type FieldMessageKey, type MessageRef } from '../../../../shared/messages';
import { DECLARATIONS } from '../../../../shared/resources';
import type { Trx } from '../../db/knex';
import { labelsOf, type LabelColumns, type Language } from './file-owners';
import { filesRepository } from './files.repository';

/**
 * What keeps a stored file from being deleted on its own: a record that uses it (a school's logo, a user's
 * profile photo, later an application's checklist row). Such a file is changed or removed through that record;
 * the media manager shows the use and refuses the delete (409). Later modules add theirs with
 * `registerFileUsage` (or `registerColumnUsage` for a column holding a file id).
 */
export interface FileUsage {
  /** what uses it, a key of `files.uses.*` in the client's strings (`school_logo`, `profile_photo` …) */
  kind: string;
  /** the use in words, with `{{label}}` the using record's name (`the logo of {{label}}`) */
  message: FieldMessageKey;
  /** the records using any of these files: file id → the using record's name in `language` */
  usedBy(db: Trx, fileIds: readonly number[], language: Language): Promise<Map<number, string>>;
  /** unlinks a file from what uses it (its row is being deleted because its stored bytes were lost) */
  release(db: Trx, fileId: number): Promise<void>;
}

/** By kind: registering a kind again (each app built in one process registers its modules again) replaces it. */
const USAGES = new Map<string, FileUsage>();

export function registerFileUsage(usage: FileUsage): void {
  USAGES.set(usage.kind, usage);
}

/** A column holding a file id (`schools.logo_file_id`), the record named by `label`'s columns. */
export function registerColumnUsage(options: {
  kind: string;
  message: FieldMessageKey;
  table: string;
  column: string;
  label: LabelColumns;
}): void {
  const { table, column } = options;
  registerFileUsage({
    kind: options.kind,
    message: options.message,
    async usedBy(db, fileIds, language) {
      const users = await filesRepository.usersOfFiles(db, table, column, fileIds);
      const names = await labelsOf(
        db,
        table,
        users.map((u) => u.recordId),
        options.label,
        language,
      );
      return new Map(users.map((u) => [u.fileId, names.get(u.recordId) ?? `#${u.recordId}`]));
    },
    release: (db, fileId) => filesRepository.clearFileColumn(db, table, column, fileId),
  });
}

/** The use of each of these files that is in use (the first registered use when there are several). */
export async function fileUsesOf(
  db: Trx,
  fileIds: readonly number[],
  language: Language,
): Promise<Map<number, FileUse & { message: MessageRef }>> {
  const out = new Map<number, FileUse & { message: MessageRef }>();
  if (!fileIds.length) return out;
  for (const usage of USAGES.values()) {
    const found = await usage.usedBy(db, fileIds, language);
    for (const [fileId, label] of found) {
      if (out.has(fileId)) continue;
      out.set(fileId, { kind: usage.kind, label, message: msg(usage.message, { label }) });
    }
  }
  return out;
}

/** Unlinks a file from everything that uses it. */
export async function releaseFile(db: Trx, fileId: number): Promise<void> {
  for (const usage of USAGES.values()) await usage.release(db, fileId);
}

/** Messages of the declared file fields' uses, by owner type; a field without one is `used by {{label}}`. */
const FIELD_USE_MESSAGES: Readonly<Record<string, FieldMessageKey>> = {
  school_logo: 'fileUseSchoolLogo',
  grade_report: 'fileUseGradeReport',
};

registerColumnUsage({
  kind: 'profile_photo',
  message: 'fileUseProfilePhoto',
  table: 'users',
  column: 'profile_photo_file_id',
  label: { en: ['name'], zh_HK: ['name'] },
});

for (const decl of DECLARATIONS) {
  for (const [name, field] of Object.entries(decl.fields)) {
    if (field.type !== 'file') continue;
    registerColumnUsage({
      kind: field.owner,
      message: FIELD_USE_MESSAGES[field.owner] ?? 'fileUseRecord',
      table: decl.table,
      column: name,
      label: decl.display,
    });
  }
}
