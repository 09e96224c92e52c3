import { Client, createTestApp, signedInAdmin, type TestApp } from '../harness';

let t: TestApp;
let admin: Client;
let seoul: number;
let gangnam: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  seoul = (await admin.post('/api/areas', { name_en: 'Seoul Search', name_zh: '首爾搜尋' }).expect(201)).body
    .id;
  gangnam = (
    await admin
      .post('/api/areas', { name_en: 'Gangnam-gu', name_zh: '江南區', name_ko: '강남구', parent_id: seoul })
      .expect(201)
  ).body.id;
  await admin.post('/api/areas', { name_en: 'Busan Search', name_zh: '釜山搜尋' }).expect(201);
});
afterAll(() => t.close());

describe('area search finds districts', () => {
  it.each(['Gangnam', '江南', '강남'])(
    'the list finds the area of a district named %s, with it',
    async (q) => {
      const res = await admin.get(`/api/areas?q=${encodeURIComponent(q)}`).expect(200);
      expect(res.body.items.map((r: { id: number }) => r.id)).toEqual([seoul]);
      expect(res.body.items[0].districts.map((d: { id: number }) => d.id)).toContain(gangnam);
    },
  );

  it('an area is still found by its own name, and a name nothing holds finds nothing', async () => {
    const own = await admin.get('/api/areas?q=Busan%20Search').expect(200);
    expect(own.body.items.map((r: { name_en: string }) => r.name_en)).toEqual(['Busan Search']);
    expect((await admin.get('/api/areas?q=Nowhere').expect(200)).body.total).toBe(0);
  });

  it("one area's districts are searched by name too", async () => {
    const res = await admin.get(`/api/areas?parent_id=${seoul}&q=Gangnam`).expect(200);
    expect(res.body.items.map((r: { id: number }) => r.id)).toEqual([gangnam]);
  });

  it('the area picker finds the area of a district, and the district picker the district', async () => {
    const areas = await admin.get('/api/areas/lookup?q=%E6%B1%9F%E5%8D%97').expect(200);
    expect(areas.body.map((c: { id: number }) => c.id)).toEqual([seoul]);
    const districts = await admin.get(`/api/areas/lookup?parent_id=${seoul}&q=Gangnam`).expect(200);
    expect(districts.body.map((c: { id: number }) => c.id)).toEqual([gangnam]);
  });
});
