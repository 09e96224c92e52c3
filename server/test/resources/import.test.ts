import { declareResource } from '../../../shared/resources/declaration';
import resourcesEn from '../../../shared/resources/locales/en.json';
import resourcesZh from '../../../shared/resources/locales/zh_HK.json';
import { FIELD_MESSAGES, fieldMessage } from '../../../shared/messages';
import { AppError } from '../../src/lib/app-error';
import { toDbDateTime } from '../../src/lib/clock';
import { csvRecord, UTF8_BOM } from '../../src/modules/exports/csv';
import { settingsRepository } from '../../src/modules/settings/settings.repository';
import { definitionFromDeclaration } from '../../src/resources/declared';
import { IMPORT_LIMITS } from '../../src/resources/resource.import';
import { registerResource } from '../../src/resources/resource.routes';
import { Client, createTestApp, signedInAdmin, type TestApp } from '../harness';
import {
  BIG_ROW,
  MB,
  peakGrowth,
  repeated,
  SHEET_HEAD,
  SHEET_TAIL,
  text,
  xlsx as zipXlsx,
} from '../files/zip-fixtures';
import { countRows, download, readCsv, readXlsx, signIn } from './helpers';
import { excel } from '../../src/modules/exports/excel';

/**
 * The one importer (server/src/resources/resource.import.ts) through the real app: student categories (declared
 * importable), and a resource declared here with a lookup of each kind, an option, money and dates — the
 * machinery works on any declaration.
 */

let t: TestApp;
let admin: Client;

// ---- a declaration of this test: every kind of cell the importer reads ----

const probes = declareResource({
  name: 'import_probe',
  path: '/import-probes',
  table: 'import_probes',
  module: 'student_categories',
  fields: {
    title: { type: 'text', max: 100, required: true, searchable: 'name', sortable: true },
    category_id: { type: 'lookup', resource: 'student_category' },
    branch_id: { type: 'lookup', resource: 'branch' },
    gender: { type: 'option', key: 'gender' },
    currency: { type: 'currency' },
    fee: { type: 'money', currency: 'currency' },
    starts_on: { type: 'date' },
    happens_at: { type: 'datetime' },
    is_paid: { type: 'boolean', default: false },
  },
  display: { en: ['title'], zh_HK: ['title'] },
  defaultSort: 'title',
  unique: [['title']],
  importable: true,
});

// its strings, as a declaration's live in shared/resources/locales
(resourcesEn.resources as Record<string, unknown>).import_probe = {
  title: 'Import probes',
  record: 'Import probe',
  fields: {
    title: 'Title',
    category_id: 'Category',
    branch_id: 'Branch',
    gender: 'Gender',
    currency: 'Currency',
    fee: 'Fee',
    starts_on: 'Starts on',
    happens_at: 'Happens at',
    is_paid: 'Paid',
  },
};
(resourcesZh.resources as Record<string, unknown>).import_probe = {
  title: '測試項目',
  record: '測試項目',
  fields: {
    title: '標題',
    category_id: '類別',
    branch_id: '分行',
    gender: '性別',
    currency: '貨幣',
    fee: '費用',
    starts_on: '開始日期',
    happens_at: '發生時間',
    is_paid: '已付',
  },
};

let gold: number;
let central: number;
let kowloon: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  await t.db.schema.createTable('import_probes', (tb) => {
    tb.increments('id');
    tb.string('title', 100).notNullable().unique();
    tb.integer('category_id').unsigned().nullable();
    tb.integer('branch_id').unsigned().nullable();
    tb.string('gender', 40).nullable();
    tb.string('currency', 3).nullable();
    tb.bigInteger('fee').nullable();
    tb.date('starts_on').nullable();
    tb.dateTime('happens_at').nullable();
    tb.boolean('is_paid').notNullable().defaultTo(false);
    tb.dateTime('created_at').notNullable();
    tb.dateTime('updated_at').notNullable();
    tb.integer('created_by').unsigned().nullable();
    tb.integer('updated_by').unsigned().nullable();
  });
  // a rule of the resource's own, which only the write can apply
  const rules = {
    beforeWrite: async (_db: unknown, data: Record<string, unknown>) => {
      if (data.title === 'Vetoed') throw AppError.field('business_rule', 'title', 'invalidValue');
    },
    // a time is stored as the database's UTC text, as a resource with a time of its own stores it (calendar events)
    prepare: async (_db: unknown, data: Record<string, unknown>) =>
      typeof data.happens_at === 'string'
        ? { ...data, happens_at: toDbDateTime(Date.parse(data.happens_at)) }
        : data,
  };
  registerResource(t.api, t.db, definitionFromDeclaration(probes, rules));

  const now = toDbDateTime();
  const stamps = { created_at: now, updated_at: now };
  [gold] = await t
    .db('student_categories')
    .insert({ name_en: 'Gold', name_zh: '金卡', sort_order: 1, ...stamps });
  const [company] = await t.db('companies').insert({ code: 'CO', name_en: 'Co', name_zh: '公司', ...stamps });
  [central] = await t.db('branches').insert({
    company_id: company,
    code: 'HK1',
    name_en: 'Central',
    name_zh: '中環',
    ...stamps,
  });
  [kowloon] = await t.db('branches').insert({
    company_id: company,
    code: 'KL1',
    name_en: 'Kowloon',
    name_zh: '九龍',
    ...stamps,
  });
  await t.db('options').insert([
    { key: 'gender', value: 'F', label_en: 'Female', label_zh: '女', sort_order: 1, ...stamps },
    { key: 'gender', value: 'M', label_en: 'Male', label_zh: '男', sort_order: 2, ...stamps },
  ]);
});
afterAll(() => t.close());

// ---- files ----

const csv = (rows: unknown[][]) => Buffer.from(UTF8_BOM + rows.map(csvRecord).join(''), 'utf8');

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const workbook = new (excel().Workbook)();
  const sheet = workbook.addWorksheet('Import');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const upload = (client: Client, url: string, body: Buffer, name: string, language = 'en') =>
  client
    .post(`${url}/import`)
    .set('Accept-Language', language)
    .attach('file', body, { filename: name, contentType: 'application/octet-stream' });

const CATEGORIES = '/api/student-categories';
const categories = () => countRows(t.db, 'student_categories');
const byName = (name_en: string) => t.db('student_categories').where({ name_en }).first();

describe('student categories: headers in either language or the field names', () => {
  it('imports a CSV under the Chinese headers, with yes/no in Chinese', async () => {
    const before = await categories();
    const res = await upload(
      admin,
      CATEGORIES,
      csv([
        ['名稱（英文）', '名稱（中文）', '顏色', '排序', '啟用'],
        ['Silver', '銀卡', '#aabbcc', '2', '是'],
        ['Bronze', '銅卡', '', '3', '否'],
      ]),
      'categories.csv',
    );
    expect([res.status, res.body]).toEqual([200, { imported: 2 }]);
    expect(await categories()).toBe(before + 2);
    expect(await byName('Silver')).toMatchObject({ name_zh: '銀卡', color: '#aabbcc', sort_order: 2 });
    // an empty cell takes the declared default; 否 is false
    const bronze = await byName('Bronze');
    expect([bronze.color, Boolean(bronze.is_active)]).toEqual(['#1677ff', false]);
    // written through the service: one audit row per record, and one for the file
    const audit = await t.db('audit_logs').where({ entity: 'student_category' });
    expect(audit.filter((a) => a.action === 'create')).toHaveLength(2);
    expect(JSON.parse(audit.find((a) => a.action === 'import').changes)).toEqual({
      file: 'categories.csv',
      rows: 2,
    });
  });

  it('imports an XLSX under the English headers in any case and spacing, with numbers and booleans as cells', async () => {
    const res = await upload(
      admin,
      CATEGORIES,
      await xlsx([
        ['name (ENGLISH)', ' Name(Chinese) ', 'sort  order', 'ACTIVE'],
        ['Platinum', '白金卡', 4, true],
        ['Diamond', '鑽石卡', 5, 'No'],
      ]),
      'categories.xlsx',
    );
    expect([res.status, res.body]).toEqual([200, { imported: 2 }]);
    expect(await byName('Platinum')).toMatchObject({ name_zh: '白金卡', sort_order: 4 });
    expect(Boolean((await byName('Diamond')).is_active)).toBe(false);
  });

  it('imports XLSX and CSV under the field names', async () => {
    const rows = (suffix: string) => [
      ['name_en', 'name_zh', 'color', 'sort_order', 'is_active'],
      [`Field ${suffix}`, `欄位${suffix}`, '#000000', 9, 'yes'],
    ];
    expect((await upload(admin, CATEGORIES, await xlsx(rows('x')), 'f.xlsx')).body).toEqual({ imported: 1 });
    expect((await upload(admin, CATEGORIES, csv(rows('c')), 'f.csv')).body).toEqual({ imported: 1 });
    expect(await byName('Field x')).toMatchObject({ name_zh: '欄位x', sort_order: 9 });
    expect(await byName('Field c')).toMatchObject({ name_zh: '欄位c', sort_order: 9 });
  });

  it('refuses unknown columns by name, and missing required ones in the reader’s language', async () => {
    const res = await upload(
      admin,
      CATEGORIES,
      csv([
        ['name_en', 'Nickname', 'Remarks'],
        ['A', 'x', 'y'],
      ]),
      'unknown.csv',
      'zh_HK',
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.file).toEqual([
      'Unknown columns: Nickname, Remarks. Use the columns of the template.',
      'Missing columns: 名稱（中文）.',
    ]);
    expect(res.body.error_keys.file[0]).toEqual({
      key: 'importUnknownColumns',
      params: { columns: 'Nickname, Remarks' },
    });
    const empty = await upload(admin, CATEGORIES, csv([['name_en', 'name_zh']]), 'empty.csv');
    expect(empty.body.errors.file).toEqual([FIELD_MESSAGES.importNoRows]);
  });

  it('refuses a value under no header, naming its row and column letter, in either format; empty ones are fine', async () => {
    const before = await categories();
    const rows = [
      ['name_en', 'name_zh', '', '', ''],
      ['Headless one', '無頭一', '', '', ''],
      ['Headless two', '無頭二', '', '', 'stray'], // row 3, column E
    ];
    for (const [body, name] of [
      [csv(rows), 'headless.csv'],
      [await xlsx(rows), 'headless.xlsx'],
    ] as const) {
      const en = await upload(admin, CATEGORIES, body, name);
      expect([name, en.status, en.body.errors?.file]).toEqual([
        name,
        422,
        ['Row 3, column E: a value under no header. Give the column a header, or empty it.'],
      ]);
      const zh = await upload(admin, CATEGORIES, body, name, 'zh_HK');
      expect(zh.body.error_keys.file).toEqual([{ key: 'importNoHeader', params: { row: 3, column: 'E' } }]);
    }
    expect(await categories()).toBe(before);
    expect(await byName('Headless one')).toBeUndefined();
    // a sheet with 224 columns under no header beside its 2 named ones: refused at the first such value
    const wide = [
      ['name_en', 'name_zh', ...Array<string>(224).fill('')],
      ['Wide one', '闊一', ...Array.from({ length: 224 }, (_, i) => `v${i}`)],
    ];
    const refused = await upload(admin, CATEGORIES, await xlsx(wide), 'wide.xlsx');
    expect(refused.body.error_keys?.file).toEqual([
      { key: 'importNoHeader', params: { row: 2, column: 'C' } },
    ]);
    const far = [
      ['name_en', 'name_zh'],
      ['Far one', '遠一', ...Array<string>(26).fill(''), 'x'], // column 29: AC
    ];
    expect((await upload(admin, CATEGORIES, csv(far), 'far.csv')).body.error_keys?.file).toEqual([
      { key: 'importNoHeader', params: { row: 2, column: 'AC' } },
    ]);
    expect(await categories()).toBe(before);
    // columns under no header with nothing in them are no problem
    const fine = await upload(admin, CATEGORIES, csv(rows.slice(0, 2)), 'fine.csv');
    expect([fine.status, fine.body]).toEqual([200, { imported: 1 }]);
  });

  it('imports nothing when one row is bad, naming its row and column in the reader’s language', async () => {
    const before = await categories();
    const auditBefore = await countRows(t.db, 'audit_logs');
    const file = csv([
      ['name_en', 'name_zh', 'sort_order'],
      ['Good one', '好', '1'],
      ['Bad order', '壞', 'many'], // row 3
      ['Good two', '好二', '2'],
    ]);
    const en = await upload(admin, CATEGORIES, file, 'bad.csv');
    expect(en.status).toBe(422);
    expect(en.body.message).toBe('Rows with errors: 1. Nothing was imported.');
    expect(en.body.errors).toEqual({ 'rows.3.sort_order': ['Row 3: Sort order: Must be a number.'] });
    const zh = await upload(admin, CATEGORIES, file, 'bad.csv', 'zh_HK');
    expect(zh.body.error_keys['rows.3.sort_order']).toEqual([
      { key: 'importCell', params: { row: 3, column: '排序', message: { key: 'notANumber' } } },
    ]);
    expect(await categories()).toBe(before);
    expect(await byName('Good one')).toBeUndefined();
    expect(await countRows(t.db, 'audit_logs')).toBe(auditBefore);
  });

  it('refuses duplicates within the file and against the stored rows', async () => {
    const before = await categories();
    const res = await upload(
      admin,
      CATEGORIES,
      csv([
        ['name_en', 'name_zh'],
        ['Twin', '雙一'], // row 2
        ['Twin', '雙二'], // row 3: as row 2
        ['Gold', '新金'], // row 4: stored
        ['Fresh', '新'], // row 5: fine
      ]),
      'dupes.csv',
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      'rows.3.name_en': ['Row 3: Name (English): The same as row 2.'],
      'rows.4.name_en': ['Row 4: Name (English): This Data is already exist.'],
    });
    expect(await categories()).toBe(before);
  });

  it('lists the first 100 problems and counts the rest', async () => {
    const rows = Array.from({ length: 150 }, (_, i) => [`Many ${i}`, `多${i}`, 'x']);
    const res = await upload(
      admin,
      CATEGORIES,
      csv([['name_en', 'name_zh', 'sort_order'], ...rows]),
      'm.csv',
    );
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toHaveLength(IMPORT_LIMITS.maxErrors);
    expect(Object.keys(res.body.errors)[0]).toBe('rows.2.sort_order');
    expect(res.body.message).toBe(
      'Rows with errors: 150. Nothing was imported. The first 100 errors are listed, 50 more are not.',
    );
  });

  it('needs the create permission', async () => {
    const viewer = await signIn(t, ['student_categories.view']);
    const file = csv([
      ['name_en', 'name_zh'],
      ['Nope', '不'],
    ]);
    expect((await upload(viewer, CATEGORIES, file, 'n.csv')).status).toBe(403);
    expect((await viewer.get(`${CATEGORIES}/import/template?format=csv`)).status).toBe(403);
  });
});

describe('the template', () => {
  it('heads the writable columns in the asked language, as XLSX or CSV', async () => {
    const zh = await download(admin, `${CATEGORIES}/import/template?format=xlsx&lang=zh_HK`);
    expect(zh.status).toBe(200);
    expect(await readXlsx(zh.body as Buffer)).toEqual([
      ['名稱（英文）', '名稱（中文）', '顏色', '排序', '啟用'],
    ]);
    const en = await download(admin, `${CATEGORIES}/import/template?format=csv&lang=en`);
    expect(readCsv(en.body as Buffer)).toEqual([
      ['Name (English)', 'Name (Chinese)', 'Colour', 'Sort order', 'Active'],
    ]);
    // filled in and sent back, it imports
    const workbook = new (excel().Workbook)();
    await workbook.xlsx.load(zh.body as never);
    workbook.worksheets[0].addRow(['From template', '範本', '#123456', 7, '是']);
    const back = await upload(admin, CATEGORIES, Buffer.from(await workbook.xlsx.writeBuffer()), 't.xlsx');
    expect([back.status, back.body]).toEqual([200, { imported: 1 }]);
  });
});

describe('lookups, options, money and dates (a resource declared in this test)', () => {
  const PROBES = '/api/import-probes';

  it('reads a lookup by its record’s name in either language or its id, an option by code or label', async () => {
    const res = await upload(
      admin,
      PROBES,
      csv([
        ['標題', '類別', '分行', '性別', '貨幣', '費用', '開始日期', '已付'],
        ['P1', '金卡', 'HK1 中環', 'F', 'KRW', '12345', '2030-01-02', '是'],
        ['P2', 'gold', 'hk1 central', 'Female', 'HKD', '1,234.50', '2030/1/3', 'no'],
        ['P3', String(gold), String(kowloon), '男', 'jpy', '500', '45000', '1'],
      ]),
      'probes.csv',
    );
    expect([res.status, res.body]).toEqual([200, { imported: 3 }]);
    const rows = await t.db('import_probes').orderBy('title');
    expect(
      rows.map((r) => [
        r.title,
        r.category_id,
        r.branch_id,
        r.gender,
        r.currency,
        Number(r.fee),
        String(r.starts_on).slice(0, 10),
        Boolean(r.is_paid),
      ]),
    ).toEqual([
      // stored ×100 like every currency (domain.md), though KRW and JPY show no decimals
      ['P1', gold, central, 'F', 'KRW', 1234500, '2030-01-02', true],
      ['P2', gold, central, 'F', 'HKD', 123450, '2030-01-03', false],
      ['P3', gold, kowloon, 'M', 'JPY', 50000, '2023-03-15', true],
    ]);
  });

  it('names references that match nothing, money finer than its currency, and a date that is none', async () => {
    const before = await countRows(t.db, 'import_probes');
    const res = await upload(
      admin,
      PROBES,
      csv([
        ['title', 'category_id', 'currency', 'fee', 'starts_on', 'gender', 'is_paid'],
        ['Q1', 'Nope', 'HKD', '1', '2030-01-01', 'F', 'yes'],
        ['Q2', 'Gold', 'KRW', '12.5', '2030-02-30', 'X', 'perhaps'],
        ['Q3', '999999', 'HKD', '1', '2030-01-01', '', ''],
      ]),
      'refs.csv',
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      'rows.2.category_id': ['Row 2: Category: Nothing called "Nope" was found.'],
      'rows.3.gender': ['Row 3: Gender: Nothing called "X" was found.'],
      'rows.3.is_paid': ['Row 3: Paid: Use yes or no.'],
      'rows.4.category_id': ['Row 4: Category: Nothing called "999999" was found.'],
    });
    // cells that read, checked by the create schema: a fraction of a won, a 30th of February
    const schema = await upload(
      admin,
      PROBES,
      csv([
        ['title', 'currency', 'fee', 'starts_on'],
        ['Q4', 'KRW', '12.5', '2030-02-30'],
      ]),
      'schema.csv',
    );
    expect(schema.body.errors).toEqual({
      'rows.2.fee': [`Row 2: Fee: ${FIELD_MESSAGES.notAWholeNumber}`],
      'rows.2.starts_on': [`Row 2: Starts on: ${FIELD_MESSAGES.invalidDate}`],
    });
    expect(await countRows(t.db, 'import_probes')).toBe(before);
  });

  it('rolls back every row written when the resource’s own rule refuses a later one, naming it', async () => {
    const before = await countRows(t.db, 'import_probes');
    const auditBefore = await countRows(t.db, 'audit_logs');
    const res = await upload(
      admin,
      PROBES,
      csv([['title'], ['Written first'], ['Vetoed'], ['Written last']]),
      'rule.csv',
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ 'rows.3.title': [`Row 3: Title: ${FIELD_MESSAGES.invalidValue}`] });
    expect(await countRows(t.db, 'import_probes')).toBe(before);
    expect(await countRows(t.db, 'audit_logs')).toBe(auditBefore);
  });

  it('reads back its own exports, CSV and XLSX alike: formula-like text, dates and Hong Kong times', async () => {
    const titles = ['=SUM(A1:A2)', "'=kept apostrophe", '+852 1234', '-5', '@mention', 'Plain'];
    const bodies = titles.map((title, i) => ({
      title,
      category_id: gold,
      branch_id: i % 2 ? kowloon : central,
      gender: 'F',
      currency: 'HKD',
      fee: 12345 + i,
      starts_on: `2030-0${i + 1}-15`,
      // 00:00 in Hong Kong (16:00 UTC the day before) for the first, then times to the minute
      happens_at: i === 0 ? '2030-03-31T16:00:00Z' : `2030-04-0${i}T0${i}:3${i}:00Z`,
      is_paid: i % 2 === 0,
    }));
    // the export holds these rows alone
    await t.db('import_probes').delete();
    for (const body of bodies) await admin.post(PROBES, body).expect(201);
    const snapshot = async () =>
      (await t.db('import_probes').whereIn('title', titles).orderBy('title')).map((r) => [
        r.title,
        r.category_id,
        r.branch_id,
        r.gender,
        r.currency,
        Number(r.fee),
        String(r.starts_on).slice(0, 10),
        String(r.happens_at).slice(0, 19),
        Boolean(r.is_paid),
      ]);
    const before = await snapshot();
    expect(before).toHaveLength(titles.length);
    expect(before.map((r) => r[0])).toEqual(expect.arrayContaining(titles));
    for (const format of ['csv', 'xlsx'] as const) {
      const file = await download(admin, `${PROBES}?format=${format}&lang=zh_HK`);
      expect(file.status).toBe(200);
      await t.db('import_probes').delete();
      const res = await upload(admin, PROBES, file.body as Buffer, `export.${format}`);
      expect([format, res.status, res.body]).toEqual([format, 200, { imported: titles.length }]);
      expect([format, await snapshot()]).toEqual([format, before]);
    }
  });

  it('reads a lookup among the records of the caller’s branch scope only', async () => {
    const scoped = await signIn(t, ['student_categories.view', 'student_categories.create'], {
      branchId: central,
    });
    const file = (branch: string, title: string) =>
      csv([
        ['title', 'branch_id'],
        [title, branch],
      ]);
    const other = await upload(scoped, PROBES, file('KL1 Kowloon', 'S1'), 's.csv');
    expect(other.body.errors).toEqual({
      'rows.2.branch_id': ['Row 2: Branch: Nothing called "KL1 Kowloon" was found.'],
    });
    const byId = await upload(scoped, PROBES, file(String(kowloon), 'S2'), 's.csv');
    expect(byId.status).toBe(422);
    const own = await upload(scoped, PROBES, file('HK1 Central', 'S3'), 's.csv');
    expect([own.status, own.body]).toEqual([200, { imported: 1 }]);
  });
});

describe('bounded reading', () => {
  it('refuses a 100,000-row CSV at the row limit, reading it as a stream (memory bounded)', async () => {
    await settingsRepository.set(t.db, 'max_upload_mb', '60');
    // 100,000 rows of about 400 bytes: 40 MB, which the upload limit lets through
    const pad = 'x'.repeat(360);
    const lines = ['name_en,name_zh,sort_order'];
    for (let i = 0; i < 100_000; i++) lines.push(`Row ${i} ${pad},列${i},${i % 1000}`);
    const file = Buffer.from(lines.join('\r\n'), 'utf8');
    lines.length = 0;
    expect(file.length).toBeGreaterThan(35 * MB);
    const before = await categories();
    const { result: res, growthMb } = await peakGrowth(() => upload(admin, CATEGORIES, file, 'huge.csv'));
    expect(res.status).toBe(422);
    expect(res.body.errors.file).toEqual([fieldMessage('fileMaxRows', { max: IMPORT_LIMITS.maxRows })]);
    expect(await categories()).toBe(before);
    // the whole text alone would take 80 MB as a JavaScript string, its records more
    expect(growthMb).toBeLessThan(60);
    console.log(
      `import: ${(file.length / MB).toFixed(0)} MB CSV of 100,000 rows → ${res.status} at row ` +
        `${IMPORT_LIMITS.maxRows + 1}, peak RSS growth ${growthMb.toFixed(0)} MB`,
    );
    await settingsRepository.set(t.db, 'max_upload_mb', '5');
  });

  it('refuses a decompression bomb before inflating it', async () => {
    const header = `<row r="1">${text('A1', 'name_en')}${text('B1', 'name_zh')}</row>`;
    const bomb = zipXlsx(
      repeated('xl/worksheets/sheet1.xml', SHEET_HEAD + header, BIG_ROW, 1000, SHEET_TAIL),
    );
    const before = await categories();
    const { result: res, growthMb } = await peakGrowth(() => upload(admin, CATEGORIES, bomb, 'bomb.xlsx'));
    expect([res.status, res.body.errors?.file]).toEqual([422, [FIELD_MESSAGES.sheetCompression]]);
    expect(await categories()).toBe(before);
    expect(growthMb).toBeLessThan(100);
    console.log(
      `import: ${(bomb.length / MB).toFixed(1)} MB workbook declaring 1 GB → ${res.status}, ` +
        `peak RSS growth ${growthMb.toFixed(0)} MB`,
    );
  });

  it('imports 300 rows in one transaction', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => [`Bulk ${i}`, `批${i}`, String(i % 100)]);
    const before = await categories();
    const started = Date.now();
    const res = await upload(
      admin,
      CATEGORIES,
      csv([['name_en', 'name_zh', 'sort_order'], ...rows]),
      'bulk.csv',
    );
    expect([res.status, res.body]).toEqual([200, { imported: 300 }]);
    expect(await categories()).toBe(before + 300);
    console.log(`import: 300 rows checked and written in ${Date.now() - started} ms`);
  });
});
