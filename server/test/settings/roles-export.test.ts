import { Client, createTestApp, signedInAdmin, type TestApp } from '../harness';
import { download, readXlsx } from '../resources/helpers';

let t: TestApp;
let admin: Client;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  const created = await admin.post('/api/roles', {
    name: 'Front desk export',
    name_zh: '前台匯出',
    data_scope: 'branch',
    permissions: ['students.view', 'students.create', 'receipts.approve'],
  });
  expect(created.status).toBe(201);
});
afterAll(() => t.close());

describe('roles export', () => {
  it('names each permission by module and action in English (XLSX, read back), never its key', async () => {
    const res = await download(admin, '/api/roles?format=xlsx&q=Front+desk+export&lang=en');
    expect(res.status).toBe(200);
    const [head, ...rows] = await readXlsx(res.body as Buffer);
    expect(rows).toHaveLength(1);
    expect(rows[0][head.indexOf('Permissions')]).toBe(
      'Receipts – Approve, Students – View, Students – Create',
    );
  });

  it('names them in Chinese (CSV)', async () => {
    const res = await admin.get('/api/roles?format=csv&q=Front+desk+export&lang=zh_HK');
    expect(res.status).toBe(200);
    expect(res.text).toContain('收據 – 批核、學生 – 檢視、學生 – 新增');
    expect(res.text).not.toContain('students.view');
  });
});
