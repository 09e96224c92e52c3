import { Client, createTestApp, createUser, signedInAdmin, type TestApp } from '../harness';

let t: TestApp;
let admin: Client;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
});
afterAll(() => t.close());

const terms = (title: string, extra: Record<string, unknown> = {}) => ({
  title_en: title,
  title_zh: `${title}（中）`,
  content_en: `<p>${title} terms</p>`,
  content_zh: '<p>條款</p>',
  ...extra,
});

const defaults = async (path: string) =>
  (await admin.get(`${path}?per_page=100`).expect(200)).body.items
    .filter((r: { is_default: boolean }) => r.is_default)
    .map((r: { title_en: string }) => r.title_en);

describe.each(['/api/order-terms', '/api/refund-terms'])('%s', (path) => {
  it('makes the first terms the default, and keeps exactly one default as others are made default', async () => {
    const a = (await admin.post(path, terms('A')).expect(201)).body;
    expect(a).toMatchObject({ is_default: true, is_active: true });
    const b = (await admin.post(path, terms('B')).expect(201)).body;
    expect(b.is_default).toBe(false);
    expect(await defaults(path)).toEqual(['A']);
    await admin.put(`${path}/${b.id}`, { is_default: true }).expect(200);
    expect(await defaults(path)).toEqual(['B']);
    const c = (await admin.post(path, terms('C', { is_default: true })).expect(201)).body;
    expect(c.is_default).toBe(true);
    expect(await defaults(path)).toEqual(['C']);
    // the unset default is audited too
    const entity = path === '/api/order-terms' ? 'order_terms' : 'refund_terms';
    const unset = await t.db('audit_logs').where({ entity, entity_id: b.id, action: 'update' }).orderBy('id');
    expect(JSON.parse(unset.at(-1).changes)).toEqual({
      before: { is_default: true },
      after: { is_default: false },
    });
  });

  it('refuses to unset, deactivate or delete the default while others exist', async () => {
    const current = (await admin.get(`${path}?per_page=100`)).body.items.find(
      (r: { is_default: boolean }) => r.is_default,
    );
    const unset = await admin.put(`${path}/${current.id}`, { is_default: false });
    expect(unset.status).toBe(422);
    expect(unset.body.errors.is_default).toBeDefined();
    const off = await admin.put(`${path}/${current.id}`, { is_active: false });
    expect(off.status).toBe(422);
    expect(off.body.errors.is_active).toBeDefined();
    const inactiveDefault = await admin.post(path, terms('D', { is_default: true, is_active: false }));
    expect(inactiveDefault.status).toBe(422);
    const del = await admin.delete(`${path}/${current.id}`);
    expect(del.status).toBe(409);
    expect(await defaults(path)).toEqual([current.title_en]);
    const other = (await admin.get(`${path}?per_page=100`)).body.items.find(
      (r: { is_default: boolean }) => !r.is_default,
    );
    await admin.delete(`${path}/${other.id}`).expect(204);
  });

  it('sanitises the rich text to the allow-list', async () => {
    const dirty = {
      content_en:
        '<p onclick="steal()">Fees <strong>are</strong> <em>non</em>-refundable<script>alert(1)</script></p>' +
        '<img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a><a href="https://example.com" target="_self">site</a>' +
        '<iframe src="https://evil.example"></iframe><style>p{}</style><ul><li>one</li></ul>',
      content_zh:
        '<p style="color:red">費用<u>不設</u>退還</p><table><tr><td colspan="2">表</td></tr></table>',
    };
    const created = (await admin.post(path, terms('Clean', dirty)).expect(201)).body;
    expect(created.content_en).toBe(
      '<p>Fees <strong>are</strong> <em>non</em>-refundable</p><a rel="noopener noreferrer">x</a>' +
        '<a href="https://example.com" target="_blank" rel="noopener noreferrer">site</a><ul><li>one</li></ul>',
    );
    expect(created.content_zh).toBe(
      '<p>費用<u>不設</u>退還</p><table><tr><td colspan="2">表</td></tr></table>',
    );
    const edited = (
      await admin.put(`${path}/${created.id}`, { content_en: '<b onmouseover="x()">bold</b>' }).expect(200)
    ).body;
    expect(edited.content_en).toBe('<b>bold</b>');
  });

  it('keeps bodies strict, requires both titles, and needs settings permissions', async () => {
    const extra = await admin.post(path, { ...terms('E'), created_by: 1 });
    expect(extra.status).toBe(422);
    expect(extra.body.errors.created_by).toBeDefined();
    const missing = await admin.post(path, { title_en: 'X', content_en: '', content_zh: '' });
    expect(missing.body.errors.title_zh).toBeDefined();
    const reader = await createUser(t.db, { permissions: ['settings.view'] });
    const c = new Client(t.app);
    await c.login(reader.email, reader.password);
    await c.get(path).expect(200);
    expect((await c.post(path, terms('F'))).status).toBe(403);
  });
});
