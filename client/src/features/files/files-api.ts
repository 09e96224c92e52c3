import type { StorageUsage } from '../../../../shared/files';
import { api } from '../../app/api';

/**
 * Storage usage against the quota (`GET /api/files/usage`, files.view). Cached under the `StorageUsage` tag:
 * every call that stores or deletes a file, and the general settings' save (quota, suspension), invalidate
 * it, so the banner and the settings page follow at once.
 */
export const filesApi = api.injectEndpoints({
  endpoints: (build) => ({
    storageUsage: build.query<StorageUsage, void>({
      // a background read: a refusal is not the screen's business (no §8 navigation), the banner just stays away
      query: () => ({ url: '/api/files/usage', handleErrors: false }),
      providesTags: ['StorageUsage'],
    }),
  }),
});

export const { useStorageUsageQuery } = filesApi;

const MB = 1024 * 1024;

/** Bytes as megabytes, at most one decimal (`1,024`, `9.5`). */
export function megabytes(bytes: number): string {
  return (bytes / MB).toLocaleString('en', { maximumFractionDigits: 1 });
}

/** The figures the storage texts interpolate. */
export function usageFigures(usage: StorageUsage): { used: string; quota: string; percent: string } {
  return {
    used: megabytes(usage.used_bytes),
    quota: megabytes(usage.quota_bytes),
    percent: usage.percent.toLocaleString('en', { maximumFractionDigits: 1 }),
  };
}
