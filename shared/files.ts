/**
 * Files and storage (domain.md "Files and storage"), shared by the server's upload checks and the client's
 * upload controls: the allow-list, the image subset and the messages the server answers with (in English;
 * the client shows them in the user's language, matched by text).
 */

/** Extensions an upload may have; its content must match (server/src/modules/files/file-types.ts). */
export const UPLOAD_EXTENSIONS = [
  'pdf',
  'jpg',
  'jpeg',
  'png',
  'webp',
  'gif',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'csv',
  'txt',
  'zip',
] as const;
export type UploadExtension = (typeof UPLOAD_EXTENSIONS)[number];

/** What a picture (a profile photo, a logo) may be. */
export const IMAGE_EXTENSIONS = [
  'jpg',
  'jpeg',
  'png',
  'webp',
  'gif',
] as const satisfies readonly UploadExtension[];

/** Storage shows a warning from this share of the quota (domain.md: "a warning from 90 %"). */
export const STORAGE_WARNING_PERCENT = 90;

export type StorageStatus = 'ok' | 'almost_full' | 'full' | 'suspended';

/** `GET /api/files/usage`. */
export interface StorageUsage {
  used_bytes: number;
  quota_bytes: number;
  /** used / quota, 0–100, one decimal */
  percent: number;
  suspended: boolean;
  status: StorageStatus;
}

/** The field messages of a refused upload (422 unless noted). `Storage is full.` is MESSAGES.storageFull. */
export const FILE_MESSAGES = {
  missing: 'Choose a file to upload.',
  oneFile: 'Send one file in the field "file" and nothing else.',
  notMultipart: 'Send the file as multipart/form-data.',
  badName: 'This file name is not allowed.',
  typeNotAllowed: 'This type of file is not allowed.',
  imageOnly: 'Choose a JPG, PNG, WebP or GIF image.',
  contentMismatch: 'The file’s content does not match its extension.',
  notText: 'The file is not plain UTF-8 text.',
  badCsv: 'The CSV file cannot be read: a quoted value is not closed.',
  empty: 'The file is empty.',
  suspended: 'File storage is suspended: no uploads are accepted for now.',
} as const;
export type FileMessageKey = keyof typeof FILE_MESSAGES;

/** The file URL the client shows or links to. */
export function fileUrl(id: number): string {
  return `/api/files/${id}`;
}
