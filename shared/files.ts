/**
 * Files and storage (domain.md "Files and storage"), shared by the server's upload checks and the client's
 * upload controls: the allow-list, the image subset and the messages the server answers with.
 */
import { z } from 'zod';
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

/** The kinds of file the media manager filters by (from the detected type). */
export const FILE_KINDS = ['image', 'pdf', 'document', 'spreadsheet', 'other'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

/** Why a file cannot be deleted on its own: the record that uses it (a logo, a photo, a checklist row). */
export interface FileUse {
  /** what uses it, a key of `files.uses.*` in the client's strings (`school_logo`, `profile_photo` …) */
  kind: string;
  /** the using record's name in the caller's language */
  label: string | null;
}

/** A file as `GET /api/files` (the media manager, an owner's attachments) and `POST /api/files` answer it. */
export interface FileItem {
  id: number;
  original_name: string;
  /** detected from the content */
  mime_type: string;
  kind: FileKind;
  size_bytes: number;
  /** `school`, `school_logo`, `user` … (a key of `files.owners.*` in the client's strings) */
  owner_type: string;
  owner_id: number;
  /** the owner record's name in the caller's language, null when it is gone */
  owner_label: string | null;
  /** the owner record's screen (`/schools/attachment/5`), null when there is none */
  owner_url: string | null;
  branch_id: number | null;
  branch_name: string | null;
  uploaded_by_name: string | null;
  /** ISO 8601, UTC */
  created_at: string;
  /** the record using it, or null: a used file is deleted through that record, not on its own */
  in_use: FileUse | null;
  /** this caller may delete it now (holds the rights, and it is not in use) */
  can_delete: boolean;
  /** download (`Content-Disposition: attachment`) */
  url: string;
  /** shown in the page (`inline`): images and PDFs only, else null */
  preview_url: string | null;
}

/** An image or a PDF can be previewed in the page. */
export function isPreviewable(mimeType: string): boolean {
  return mimeType.startsWith('image/') || mimeType === 'application/pdf';
}

/**
 * The detected types of each kind but `image` (every `image/…`) and `other` (anything not listed): the media
 * manager's kind filter and each row's `kind` read the same lists.
 */
export const FILE_KIND_MIME_TYPES = {
  pdf: ['application/pdf'],
  document: [
    'application/msword',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'text/plain',
  ],
  spreadsheet: [
    'application/vnd.ms-excel',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'text/csv',
  ],
} as const satisfies Record<Exclude<FileKind, 'image' | 'other'>, readonly string[]>;

/** A file's kind, from its detected type. */
export function fileKindOf(mimeType: string): FileKind {
  if (mimeType.startsWith('image/')) return 'image';
  for (const kind of ['pdf', 'document', 'spreadsheet'] as const) {
    if ((FILE_KIND_MIME_TYPES[kind] as readonly string[]).includes(mimeType)) return kind;
  }
  return 'other';
}

/** The columns `GET /api/files` sorts by (`sort=original_name`, `-size_bytes` …; `-created_at` by default). */
export const FILE_LIST_SORTS = ['created_at', 'original_name', 'size_bytes'] as const;

/**
 * `GET /api/files`: the media manager (every file the caller may see, `files.view`) or, with `owner_type` and
 * `owner_id`, one record's files (its view permission suffices). `q` searches the original name; `created_from`
 * and `created_to` are Hong Kong dates; `uploaded_by` a staff user's id.
 */
export const ZFileListQuery = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(20),
  q: z.string().trim().max(200).optional(),
  sort: z.enum(FILE_LIST_SORTS.flatMap((c) => [c, `-${c}`] as const)).optional(),
  owner_type: z
    .string()
    .max(40)
    .regex(/^[a-z][a-z0-9_]*$/)
    .optional(),
  owner_id: z.coerce.number().int().positive().optional(),
  kind: z.enum(FILE_KINDS).optional(),
  created_from: z.iso.date({ error: FIELD_MESSAGES.invalidDate }).optional(),
  created_to: z.iso.date({ error: FIELD_MESSAGES.invalidDate }).optional(),
  uploaded_by: z.coerce.number().int().positive().optional(),
});
export type FileListQuery = z.infer<typeof ZFileListQuery>;
