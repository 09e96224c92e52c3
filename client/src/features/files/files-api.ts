import type { FileItem, StorageUsage } from '../../../../shared/files';
import type { ListResponse } from '../../../../shared/list';
import { api } from '../../app/api';

/** `GET /api/files`'s query: the media manager's filters, or one owner's files (`owner_type` + `owner_id`). */
export type FileListQuery = Record<string, string>;

/** What `POST /api/files` takes: one file for an owner record (a school's attachments …). */
export interface FileUploadArgs {
  file: File;
  ownerType: string;
  ownerId: number;
}

const tagged = api.enhanceEndpoints({ addTagTypes: ['Files'] });

/**
 * The files calls. Storage usage against the quota (`GET /api/files/usage`, files.view) is cached under the
 * `StorageUsage` tag: every call that stores or deletes a file, and the general settings' save (quota,
 * suspension), invalidate it, so the banner, the media manager's bar and the settings page follow at once.
 * The lists (`GET /api/files`: the media manager, an owner's attachments) are cached under `Files`; an upload
 * or a delete here reads them again.
 */
export const filesApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    storageUsage: build.query<StorageUsage, void>({
      // a background read: a refusal is not the screen's business (no §8 navigation), the banner just stays away
      query: () => ({ url: '/api/files/usage', handleErrors: false }),
      providesTags: ['StorageUsage'],
    }),
    fileList: build.query<ListResponse<FileItem>, FileListQuery>({
      query: (params) => ({ url: '/api/files', params }),
      providesTags: ['Files'],
    }),
    /** multipart `file`, `owner_type`, `owner_id` (the one HTTP client sends a FormData body as it is) */
    uploadFile: build.mutation<FileItem, FileUploadArgs>({
      query: ({ file, ownerType, ownerId }) => {
        const body = new FormData();
        body.append('owner_type', ownerType);
        body.append('owner_id', String(ownerId));
        body.append('file', file, file.name);
        return { url: '/api/files', method: 'POST', body };
      },
      // stored or refused (storage full, suspended): the usage is read again either way
      invalidatesTags: (_result, error) => (error ? ['StorageUsage'] : ['Files', 'StorageUsage']),
    }),
    /** 204, or 409 naming the record that uses the file (a logo, a photo, a checklist row) */
    deleteFile: build.mutation<null, number>({
      query: (id) => ({ url: `/api/files/${id}`, method: 'DELETE' }),
      // a refusal may mean the list is out of date (the file came into use, or is gone): read it again too
      invalidatesTags: ['Files', 'StorageUsage'],
    }),
  }),
});

export const { useStorageUsageQuery, useFileListQuery, useUploadFileMutation, useDeleteFileMutation } =
  filesApi;

const KB = 1024;
const MB = 1024 * 1024;

/** Bytes as megabytes, at most one decimal (`1,024`, `9.5`). */
export function megabytes(bytes: number): string {
  return (bytes / MB).toLocaleString('en', { maximumFractionDigits: 1 });
}

/**
 * A file's size as a person reads it, with the same rounding as the storage figures (at most one decimal):
 * `512 B`, `12.3 KB`, `4.8 MB`. A size that rounds to 1,024 KB is shown as `1 MB`.
 */
export function formatFileSize(bytes: number): string {
  if (bytes < KB) return `${bytes.toLocaleString('en')} B`;
  const kb = Math.round((bytes / KB) * 10) / 10;
  if (kb < 1024) return `${kb.toLocaleString('en', { maximumFractionDigits: 1 })} KB`;
  return `${megabytes(bytes)} MB`;
}

/**
 * The figures the storage texts interpolate, rounded alike: used and quota in megabytes with the same decimals
 * (chosen by the quota's size: 2 under 10 MB, 1 under 100 MB, none above), and the percentage computed from those
 * two shown figures. Storage not full never reads as full (`1 MB of 1 MB`, `100 %`): the used figure then stops one
 * step below the quota.
 */
export function usageFigures(usage: StorageUsage): { used: string; quota: string; percent: string } {
  const quotaMb = usage.quota_bytes / MB;
  const digits = quotaMb < 10 ? 2 : quotaMb < 100 ? 1 : 0;
  const step = 10 ** -digits;
  const round = (mb: number) => Math.round(mb / step) * step;
  const quota = round(quotaMb);
  let used = round(usage.used_bytes / MB);
  const full = usage.used_bytes >= usage.quota_bytes;
  if (!full && used >= quota) used = Math.max(0, quota - step);
  let percent = quota > 0 ? Math.round((used / quota) * 100) : full ? 100 : 0;
  if (!full && percent >= 100) percent = 99;
  const shown = (mb: number) =>
    mb.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return { used: shown(used), quota: shown(quota), percent: percent.toLocaleString('en') };
}
