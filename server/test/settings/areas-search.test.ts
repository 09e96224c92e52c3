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

/**
 * Issue 31 §14: the area and district pickers listed the choices by their English names in zh_HK too. Each
 * reader gets them in their own language's order: English alphabetically, zh_HK by the Chinese names in Hong
 * Kong collation (`Intl.Collator('zh-HK')`, by stroke count).
 */
describe('the area and district pickers, sorted in the reader’s language', () => {
  const inLanguage = (language: 'en' | 'zh_HK') => ({
    'Accept-Language': language === 'zh_HK' ? 'zh-HK' : 'en',
  });
  const labels = async (url: string, language: 'en' | 'zh_HK') =>
    ((await admin.get(url).set(inLanguage(language)).expect(200)).body as { label: string }[]).map(
      (c) => c.label,
    );

  it('lists the areas by English names in en and by Chinese names in zh_HK', async () => {
    for (const [en, zh] of [
      ['Daegu', '大邱'],
      ['Jeju', '濟州'],
      ['Incheon', '仁川'],
    ])
      await admin.post('/api/areas', { name_en: en, name_zh: zh }).expect(201);
    const english = await labels('/api/areas/lookup', 'en');
    const chinese = await labels('/api/areas/lookup', 'zh_HK');
    console.log(`area picker: en ${english.join(', ')}; zh_HK ${chinese.join('、')}`);
    expect(english).toEqual(['Busan Search', 'Daegu', 'Incheon', 'Jeju', 'Seoul Search']);
    // 大 (3 strokes), 仁 (4), 首 (9), 釜 (10), 濟 (17)
    expect(chinese).toEqual(['大邱', '仁川', '首爾搜尋', '釜山搜尋', '濟州']);
  });

  it('lists one area’s districts in the reader’s order too', async () => {
    for (const [en, zh] of [
      ['Mapo-gu', '麻浦區'],
      ['Jongno-gu', '鍾路區'],
      ['Seongbuk-gu', '城北區'],
    ])
      await admin.post('/api/areas', { name_en: en, name_zh: zh, parent_id: seoul }).expect(201);
    const url = `/api/areas/lookup?parent_id=${seoul}`;
    const english = await labels(url, 'en');
    const chinese = await labels(url, 'zh_HK');
    console.log(`district picker (Seoul): en ${english.join(', ')}; zh_HK ${chinese.join('、')}`);
    expect(english).toEqual(['Gangnam-gu', 'Jongno-gu', 'Mapo-gu', 'Seongbuk-gu']);
    // 江 (6 strokes), 城 (9), 麻 (11), 鍾 (17)
    expect(chinese).toEqual(['江南區', '城北區', '麻浦區', '鍾路區']);
  });
});
