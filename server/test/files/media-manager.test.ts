import type { FileItem } from '../../../shared/files';
import type { ListResponse } from '../../../shared/list';
import { createBranch, signedInAdmin, type Client, type TestApp } from '../harness';
import { CSV, PDF, PLAIN_ZIP, PNG, TXT, createFilesTestApp, xlsx } from './file-fixtures';
import { attach, createSchool, staff } from './file-helpers';

/**
 * The media manager's list (`GET /api/files` without an owner): `files.view`, only the owner types whose view
 * permission the caller holds (branch-bound owners' files of records in its branch scope), in its file scope;
 * filters by name, kind, Hong Kong dates, owner type and uploader; sorted and paged within bounds.
 */

let t: TestApp;
let cleanup: () => Promise<void>;
let admin: Client;
let adminId: number;
let schoolId: number;
const ids: Record<string, number> = {};

/** The ids of a list's items, by their names in `ids`. */
function named(items: { id: number }[]): string[] {
  const byId = new Map(Object.entries(ids).map(([name, id]) => [id, name]));
  return items.map((item) => byId.get(item.id) ?? `#${item.id}`);
}

async function list(c: Client, query: string) {
  const res = await c.get(`/api/files?${query}`);
  if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as ListResponse<FileItem>;
}

beforeAll(async () => {
  ({ t, cleanup } = await createFilesTestApp());
  admin = await signedInAdmin(t);
  adminId = Number((await t.db('users').where({ is_admin: true }).first()).id);
  schoolId = (await createSchool(admin)).id;
  const uploads: [string, Buffer, string][] = [
    ['offer', PDF, 'offer letter.pdf'],
    ['campus', PNG, 'campus.png'],
    ['fees', await xlsx(), 'fees 2027.xlsx'],
    ['notes', TXT, 'notes.txt'],
    ['bundle', PLAIN_ZIP, 'bundle.zip'],
    ['percent', CSV, '100%_done.csv'],
  ];
  for (const [name, content, filename] of uploads) {
    ids[name] = (await attach(admin, 'school', schoolId, content, filename).expect(201)).body.id;
  }
  // created at known instants (UTC): 15:59:59 UTC is 23:59:59 in Hong Kong, 16:00 UTC the next Hong Kong day
  const at: Record<string, string> = {
    offer: '2026-03-01 15:59:59',
    campus: '2026-03-01 16:00:00',
    fees: '2026-03-05 02:00:00',
    notes: '2026-02-28 16:00:00',
    bundle: '2026-03-10 12:00:00',
    percent: '2026-03-11 12:00:00',
  };
  for (const [name, when] of Object.entries(at)) {
    await t.db('files').where({ id: ids[name] }).update({ created_at: when });
  }
});
afterAll(() => cleanup());

describe('filters, sort and paging', () => {
  const school = () => `owner_type=school&owner_id=${schoolId}`;

  it('lists newest first by default with the list envelope', async () => {
    const res = await list(admin, school());
    expect(named(res.items)).toEqual(['percent', 'bundle', 'fees', 'campus', 'offer', 'notes']);
    expect(res).toMatchObject({ total: 6, page: 1, per_page: 20 });
    expect(named((await list(admin, 'owner_type=school')).items)).toEqual(named(res.items));
  });

  it('q searches the original name (wildcards are literal)', async () => {
    expect(named((await list(admin, `${school()}&q=LETTER`)).items)).toEqual(['offer']);
    expect(named((await list(admin, `${school()}&q=${encodeURIComponent('%')}`)).items)).toEqual(['percent']);
    expect(named((await list(admin, `${school()}&q=_`)).items)).toEqual(['percent']);
    expect((await list(admin, `${school()}&q=nothing-like-it`)).total).toBe(0);
  });

  it('kind filters by the detected type', async () => {
    const kind = async (k: string) => named((await list(admin, `${school()}&kind=${k}`)).items).sort();
    expect(await kind('pdf')).toEqual(['offer']);
    expect(await kind('image')).toEqual(['campus']);
    expect(await kind('spreadsheet')).toEqual(['fees', 'percent']);
    expect(await kind('document')).toEqual(['notes']);
    expect(await kind('other')).toEqual(['bundle']);
    const items = (await list(admin, school())).items;
    expect(Object.fromEntries(items.map((i) => [named([i])[0], i.kind]))).toEqual({
      offer: 'pdf',
      campus: 'image',
      fees: 'spreadsheet',
      percent: 'spreadsheet',
      notes: 'document',
      bundle: 'other',
    });
    expect((await admin.get(`/api/files?kind=video`)).status).toBe(422);
  });

  it('created_from and created_to are Hong Kong dates', async () => {
    const dates = async (q: string) => named((await list(admin, `${school()}&${q}&sort=created_at`)).items);
    expect(await dates('created_from=2026-03-01&created_to=2026-03-01')).toEqual(['notes', 'offer']);
    expect(await dates('created_from=2026-03-02&created_to=2026-03-05')).toEqual(['campus', 'fees']);
    expect(await dates('created_from=2026-03-10')).toEqual(['bundle', 'percent']);
    expect(await dates('created_to=2026-02-28')).toEqual([]);
    expect((await admin.get('/api/files?created_from=2026-02-30')).status).toBe(422);
  });

  it('sorts by name, size or time either way, and pages within bounds', async () => {
    const sorted = async (sort: string) => named((await list(admin, `${school()}&sort=${sort}`)).items);
    expect(await sorted('original_name')).toEqual(['percent', 'bundle', 'campus', 'fees', 'notes', 'offer']);
    const bySize = (await list(admin, `${school()}&sort=-size_bytes`)).items;
    expect(bySize.map((i) => i.size_bytes)).toEqual(
      [...bySize.map((i) => i.size_bytes)].sort((a, b) => b - a),
    );
    expect(await sorted('created_at')).toEqual(['notes', 'offer', 'campus', 'fees', 'bundle', 'percent']);

    const page2 = await list(admin, `${school()}&per_page=4&page=2`);
    expect(named(page2.items)).toEqual(['offer', 'notes']);
    expect(page2).toMatchObject({ total: 6, page: 2, per_page: 4 });
    const page1 = await list(admin, `${school()}&per_page=4`);
    expect(page1.total).toBe(6);
    expect((await admin.get('/api/files?per_page=101')).status).toBe(422);
    expect((await admin.get('/api/files?sort=path')).status).toBe(422);
    expect((await admin.get('/api/files?owner_id=1')).status).toBe(422);
  });

  it('owner_type and uploaded_by narrow the media manager', async () => {
    const other = await staff(t, { permissions: ['schools.view', 'schools.update'] });
    const theirs = (await attach(other.client, 'school', schoolId, PDF, 'theirs.pdf').expect(201)).body;
    ids.theirs = theirs.id;
    expect(named((await list(admin, `uploaded_by=${other.id}`)).items)).toEqual(['theirs']);
    expect((await list(admin, `uploaded_by=${adminId}&owner_type=school`)).total).toBe(6);
    expect((await list(admin, 'owner_type=user')).total).toBe(0);
    expect((await list(admin, 'owner_type=no_such_owner')).total).toBe(0);
  });
});

describe('who sees what', () => {
  it('needs files.view without an owner (403), the owner’s view permission with one', async () => {
    const schoolsOnly = await staff(t, { permissions: ['schools.view'] });
    await schoolsOnly.client.get('/api/files').expect(403);
    await schoolsOnly.client.get(`/api/files?owner_type=school&owner_id=${schoolId}`).expect(200);
    const filesOnly = await staff(t, { permissions: ['files.view'] });
    await filesOnly.client.get(`/api/files?owner_type=school&owner_id=${schoolId}`).expect(404);
    await filesOnly.client.get('/api/files?owner_type=school&owner_id=99999999').expect(404);
  });

  it('lists only owner types whose view permission the caller holds, branch-bound owners in its branch scope', async () => {
    const a = await createBranch(t.db);
    const b = await createBranch(t.db);
    const photoIn = async (branchId: number) => {
      const u = await staff(t, { branchId });
      const res = await u.client
        .post('/api/user/profile-photo')
        .attach('file', PNG, { filename: 'me.png', contentType: 'image/png' })
        .expect(201);
      return res.body.file.id as number;
    };
    ids.photoA = await photoIn(a);
    ids.photoB = await photoIn(b);

    const schoolsViewer = await staff(t, { permissions: ['files.view', 'files.view_all', 'schools.view'] });
    const seen = named((await list(schoolsViewer.client, 'per_page=100')).items);
    expect(seen).toContain('offer');
    expect(seen).not.toContain('photoA');

    const usersViewer = await staff(t, { permissions: ['files.view', 'files.view_all', 'users.view'] });
    expect(named((await list(usersViewer.client, 'per_page=100')).items).sort()).toEqual([
      'photoA',
      'photoB',
    ]);

    // a branch-scoped role sees the photos of its branch's users only, files.view_all or not
    const scoped = await staff(t, {
      permissions: ['files.view', 'files.view_all', 'users.view'],
      branchId: a,
      scope: 'branch',
    });
    expect(named((await list(scoped.client, 'per_page=100')).items)).toEqual(['photoA']);
    await scoped.client.get(`/api/files/${ids.photoB}`).expect(404);

    // without files.view_all: the files filed under the caller's branch or under none
    const inB = await staff(t, { permissions: ['files.view', 'users.view', 'schools.view'], branchId: b });
    const inBSeen = named((await list(inB.client, 'per_page=100')).items);
    expect(inBSeen).toContain('photoB');
    expect(inBSeen).not.toContain('photoA');
    // the admin's attachments are filed under no branch: everyone's
    expect(inBSeen).toContain('offer');
  });
});
