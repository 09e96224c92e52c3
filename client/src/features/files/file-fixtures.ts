import type { FileItem, StorageUsage } from '../../../../shared/files';

/** Test data: a file as `GET /api/files` answers it (a PDF attached to a school unless told). */
export function fileItem(overrides: Partial<FileItem> = {}): FileItem {
  const id = overrides.id ?? 1;
  return {
    id,
    original_name: 'brochure.pdf',
    mime_type: 'application/pdf',
    kind: 'pdf',
    size_bytes: 250_000,
    owner_type: 'school',
    owner_id: 5,
    owner_label: 'Korea University',
    owner_url: '/schools/attachment/5',
    branch_id: 1,
    branch_name: 'Central',
    uploaded_by_name: 'Chan Tai Man',
    created_at: '2026-03-01T10:30:00.000Z',
    in_use: null,
    can_delete: true,
    url: `/api/files/${id}`,
    preview_url: `/api/files/${id}?inline=1`,
    ...overrides,
  };
}

/** Test data: one page of files. */
export function filePage(items: FileItem[], total = items.length, page = 1, perPage = 20) {
  return { items, total, page, per_page: perPage };
}

/** Test data: the storage usage at `percent` of a 1,024 MB quota. */
export function storageUsage(percent: number, status: StorageUsage['status'] = 'ok'): StorageUsage {
  const quota = 1024 * 1024 * 1024;
  return {
    used_bytes: Math.round((quota * percent) / 100),
    quota_bytes: quota,
    percent,
    suspended: status === 'suspended',
    status,
  };
}
