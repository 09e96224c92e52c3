import { Client, createRole, createUser, type TestApp } from '../harness';

/** Helpers of the attachment, media manager, file field and orphans tests. */

export interface StaffOptions {
  permissions?: string[];
  branchId?: number | null;
  scope?: 'all' | 'branch';
  admin?: boolean;
  name?: string;
}

/** A signed-in staff user with a role of `permissions` and `scope`, in `branchId`. */
export async function staff(t: TestApp, opts: StaffOptions = {}) {
  const user = await createUser(t.db, { is_admin: opts.admin ?? false });
  const roleId = await createRole(t.db, opts.permissions ?? [], opts.scope ?? 'all');
  await t
    .db('users')
    .where({ id: user.id })
    .update({ role_id: roleId, branch_id: opts.branchId ?? null, name: opts.name ?? 'Test User' });
  const client = new Client(t.app);
  const res = await client.login(user.email, user.password);
  if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
  return { ...user, client };
}

let seq = 0;

/** A school created through the API. */
export async function createSchool(admin: Client, extra: Record<string, unknown> = {}) {
  const n = ++seq;
  const res = await admin.post('/api/schools', {
    code: `FS${n}${Math.random().toString(36).slice(2, 6).toUpperCase()}`,
    name_en: `File School ${n}`,
    name_zh: `檔案學校 ${n}`,
    ...extra,
  });
  if (res.status !== 201) throw new Error(`school: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: number; name_en: string; name_zh: string; logo_file_id: number | null };
}

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  gif: 'image/gif',
  jpg: 'image/jpeg',
  txt: 'text/plain',
  csv: 'text/csv',
  docx: 'application/octet-stream',
  xlsx: 'application/octet-stream',
  zip: 'application/zip',
};

/** `POST /api/files` (multipart `owner_type`, `owner_id`, then `file`). */
export function attach(
  client: Client,
  ownerType: string,
  ownerId: number,
  content: Buffer,
  filename: string,
) {
  const ext = filename.split('.').pop() ?? '';
  return client
    .post('/api/files')
    .field('owner_type', ownerType)
    .field('owner_id', String(ownerId))
    .attach('file', content, { filename, contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream' });
}
