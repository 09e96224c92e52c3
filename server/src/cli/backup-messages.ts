import type { BackupRefusal } from '../db/backup';

/** What the operator reads when a backup or restore refuses (server/src/db/backup.ts), saying what to do. */
export function backupRefusalText(refusal: BackupRefusal): string {
  switch (refusal.reason) {
    case 'no_file':
      return `There is no backup at ${refusal.file}.`;
    case 'not_a_backup':
      return `${refusal.file} is not a backup of this application (${refusal.detail}).`;
    case 'newer':
      return (
        `The backup was made by a newer version of the application: its database has the migration ` +
        `${refusal.migration}, which this version does not know (it knows up to ${refusal.latest}). ` +
        'Upgrade the application, then restore. Nothing was changed.'
      );
    case 'database_not_empty':
      return (
        `The target database is not empty: it has ${refusal.tables.length} table(s) ` +
        `(${refusal.tables.slice(0, 5).join(', ')}${refusal.tables.length > 5 ? ', …' : ''}). ` +
        'Restore into a new, empty database (create one, or drop these tables), so that nothing of it is mixed ' +
        'with the backup. Nothing was changed.'
      );
    case 'uploads_not_empty':
      return (
        `The upload folder ${refusal.folder} is not empty: it holds ${refusal.files} file(s). Restore into an ` +
        'empty folder (UPLOAD_DIR), so that no file of it is mixed with the backup. Nothing was changed.'
      );
    case 'damaged':
      return `The archive is damaged: ${refusal.entry} is ${refusal.missing ? 'missing' : 'not as the manifest says'}. Nothing was changed.`;
    case 'schema_mismatch':
      return `The migrations made no table ${refusal.table}: the backup does not fit this version of the application.`;
    case 'foreign_keys':
      return `The restored rows break ${refusal.broken} foreign key(s), e.g. in ${refusal.table}.`;
  }
}
