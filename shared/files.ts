/**
 * Files and storage (domain.md "Files and storage"), shared by the server's upload checks and the client's
 * upload controls: the allow-list, the image subset and the messages the server answers with.
 */
import { FIELD_MESSAGES } from './messages';

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

/**
 * The field messages of a refused upload (422), from the message catalog (shared/messages.ts), which the
 * client shows in the user's language. `Storage is full.` is MESSAGES.storageFull; the 413 is
 * `fileLargerThan`.
 */
export const FILE_MESSAGES = {
  missing: FIELD_MESSAGES.fileChoose,
  oneFile: FIELD_MESSAGES.uploadOneFile,
  notMultipart: FIELD_MESSAGES.uploadMultipart,
  badName: FIELD_MESSAGES.fileBadName,
  typeNotAllowed: FIELD_MESSAGES.fileTypeNotAllowed,
  imageOnly: FIELD_MESSAGES.fileImageOnly,
  contentMismatch: FIELD_MESSAGES.fileContentMismatch,
  notText: FIELD_MESSAGES.fileNotText,
  badCsv: FIELD_MESSAGES.fileCsvQuote,
  empty: FIELD_MESSAGES.fileEmpty,
  suspended: FIELD_MESSAGES.storageSuspended,
} as const;
export type FileMessageKey = keyof typeof FILE_MESSAGES;

/** The file URL the client shows or links to. */
export function fileUrl(id: number): string {
  return `/api/files/${id}`;
}
