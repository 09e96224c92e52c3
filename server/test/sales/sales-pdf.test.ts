/**
 * The sales documents printed and sent (issue 27): an invoice's PDF read back with `pdftotext` holds the student's
 * Chinese and Korean names as glyphs and the totals exactly as the screen shows them (shared/money.ts
 * `formatMoneyText`: HKD with two decimals, KRW with none), its labels in the document's language, VOID on a void
 * invoice; a quotation and its contract print too. `POST /api/orders/{id}/email` sends the PDF to the student
 * through a real SMTP server; without SMTP settings, and when the server refuses, the spec's messages; audited.
 */
import fs from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { formatMoneyText } from '../../../shared/money';
import { toDbDateTime } from '../../src/lib/clock';
import { businessToday } from '../../src/modules/numbering/business-time';
import { TestSmtp } from '../accounts/helpers';
import { PNG } from '../files/file-fixtures';
import { createBranch, createTestApp, signedInAdmin, type Client, type TestApp } from '../harness';
import { pdfText } from '../pdf-text';
import { download } from '../resources/helpers';
import { insertStudent, line } from './sales-helpers';

type Row = Record<string, any>;

let smtp: TestSmtp;
let t: TestApp;
let admin: Client;
let studentId: number;

beforeAll(async () => {
  smtp = await new TestSmtp().start();
  t = await createTestApp(smtp.env());
  admin = await signedInAdmin(t);
  const branch = await createBranch(t.db);
  studentId = await insertStudent(t, branch, {
    name_zh: '陳大文',
    name_ko: '김민준',
    email: 'minjun@example.com',
  });
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});

async function create(path: string, body: Row): Promise<Row> {
  const res = await admin.post(path, { student_id: studentId, date: businessToday(), ...body });
  expect([res.status, res.body.message]).toEqual([201, undefined]);
  return res.body;
}

const pdfOf = async (url: string) => {
  const res = await download(admin, url);
  expect([res.status, res.headers['content-type']]).toEqual([200, 'application/pdf']);
  return pdfText(res.body as Buffer);
};

describe('printed', () => {
  it('an HKD invoice in Chinese: the names as glyphs, the totals as the screen shows them', async () => {
    const o = await create('/api/orders', {
      currency: 'HKD',
      lines: [line(3, 41_152_263, 1250, { description: '學費' }), line(1, 99_999)],
    });
    const text = await pdfOf(`/api/orders/${o.id}?format=pdf`);
    const shown = [o.subtotal, o.discount_total, o.total, o.outstanding].map((v) =>
      formatMoneyText(v, 'HKD'),
    );
    console.log(`invoice ${o.order_no} (zh_HK): total ${shown[2]}; names 陳大文 / 김민준 read back`);
    for (const expected of ['陳大文', '김민준', '發票', o.order_no, '學費', '總額', ...shown])
      expect([expected, text.includes(expected)]).toEqual([expected, true]);
    expect(text).not.toContain('VOID');
  });

  it('a KRW invoice in English shows whole won; a void invoice says VOID', async () => {
    const o = await create('/api/orders', {
      currency: 'KRW',
      language: 'en',
      lines: [line(3, 50_000_000, 333)],
    });
    await admin.post(`/api/orders/${o.id}/void`, { void_reason: 'test' }).expect(200);
    const text = await pdfOf(`/api/orders/${o.id}?format=pdf`);
    const total = formatMoneyText(o.total, 'KRW');
    expect(total).toBe('KRW 1,450,050');
    for (const expected of ['Invoice', 'Total', total, '김민준', 'VOID'])
      expect([expected, text.includes(expected)]).toEqual([expected, true]);
  });

  it('a quotation and its contract', async () => {
    const q = await create('/api/quotations', {
      currency: 'HKD',
      lines: [line(1, 123_456)],
      contract_no: 'CT-77',
      contract_terms: '<p>雙方同意以下條款。</p>',
      signatory_name: '陳大文',
    });
    const quotation = await pdfOf(`/api/quotations/${q.id}?format=pdf`);
    expect(quotation).toContain('報價單');
    expect(quotation).toContain('HKD 1,234.56');
    const contract = await pdfOf(`/api/quotations/${q.id}?format=pdf&tab=contract`);
    for (const expected of ['合約', 'CT-77', '雙方同意以下條款。', '陳大文'])
      expect([expected, contract.includes(expected)]).toEqual([expected, true]);
  });

  it('draws the company’s logo in the header', async () => {
    const o = await create('/api/orders', { currency: 'HKD', lines: [line(1, 100)] });
    const plain = (await download(admin, `/api/orders/${o.id}?format=pdf`)).body as Buffer;
    fs.mkdirSync(t.config.uploadDir, { recursive: true });
    fs.writeFileSync(path.join(t.config.uploadDir, 'sales-logo.png'), PNG);
    const [fileId] = await t.db('files').insert({
      disk: 'local',
      path: 'sales-logo.png',
      original_name: 'logo.png',
      mime_type: 'image/png',
      size_bytes: PNG.length,
      sha256: '0'.repeat(64),
      owner_type: 'company',
      owner_id: 1,
      created_at: toDbDateTime(),
    });
    const student = await t.db('students').where({ id: studentId }).first();
    const branch = await t.db('branches').where({ id: student.branch_id }).first();
    await t
      .db('companies')
      .where({ id: branch.company_id })
      .update({ logo_file_id: Number(fileId) });
    try {
      const withLogo = (await download(admin, `/api/orders/${o.id}?format=pdf`)).body as Buffer;
      expect(withLogo.toString('latin1')).toMatch(/\/Subtype\s*\/Image/);
      expect(plain.toString('latin1')).not.toMatch(/\/Subtype\s*\/Image/);
    } finally {
      await t.db('companies').where({ id: branch.company_id }).update({ logo_file_id: null });
    }
  });
});

describe('e-mailed', () => {
  it('sends the invoice PDF to the student, audited', async () => {
    const o = await create('/api/orders', { currency: 'HKD', lines: [line(1, 250_000)] });
    const res = await admin.post(`/api/orders/${o.id}/email`).expect(200);
    expect([res.body.message_key, res.body.email]).toEqual(['invoiceEmailed', 'minjun@example.com']);
    const mail = await smtp.waitFor('minjun@example.com');
    expect(mail.subject).toContain(o.order_no);
    const parsed = await simpleParser(mail.raw);
    const attachment = parsed.attachments.find((a) => a.contentType === 'application/pdf');
    expect(attachment).toBeDefined();
    expect(pdfText(attachment!.content)).toContain(formatMoneyText(o.total, 'HKD'));
    const audit = await t.db('audit_logs').where({ entity: 'order', entity_id: o.id, action: 'email' });
    expect(audit).toHaveLength(1);
  });

  it('answers "Email failed" when the server refuses, and a student without an e-mail clearly', async () => {
    const o = await create('/api/orders', { currency: 'HKD', lines: [line(1, 250_000)] });
    smtp.refuse = true;
    try {
      const res = await admin.post(`/api/orders/${o.id}/email`);
      expect([res.status, res.body.code, res.body.message]).toEqual([502, 'email_failed', 'Email failed']);
    } finally {
      smtp.refuse = false;
    }
    const branch = await createBranch(t.db);
    const silent = await insertStudent(t, branch);
    const other = await create('/api/orders', { student_id: silent, currency: 'HKD', lines: [line(1, 1)] });
    const res = await admin.post(`/api/orders/${other.id}/email`);
    expect([res.status, res.body.message_key]).toEqual([422, 'studentNoEmail']);
    expect(
      await t.db('audit_logs').where({ entity: 'order', action: 'email', entity_id: other.id }),
    ).toHaveLength(0);
  });

  it('answers the SMTP settings message when none are configured', async () => {
    const bare = await createTestApp();
    try {
      const client = await signedInAdmin(bare);
      const branch = await createBranch(bare.db);
      const student = await insertStudent(bare, branch, { email: 'a@example.com' });
      const o = await client.post('/api/orders', {
        student_id: student,
        date: businessToday(),
        currency: 'HKD',
        lines: [line(1, 1)],
      });
      expect(o.status).toBe(201);
      const res = await client.post(`/api/orders/${o.body.id}/email`);
      expect([res.status, res.body.code, res.body.message]).toEqual([
        422,
        'smtp_not_configured',
        'Please confirm whether the SMTP settings are completed',
      ]);
    } finally {
      await bare.close();
    }
  });
});
