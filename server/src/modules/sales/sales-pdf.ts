import { readFile } from 'node:fs/promises';
import { formatMinor, formatMoneyText, formatRateText } from '../../../../shared/money';
import type { Trx } from '../../db/knex';
import { logger } from '../../lib/logger';
import { declaredLabel } from '../../resources/declared';
import type { Row } from '../../resources/resource';
import { numberOrNull } from '../../resources/rows';
import type { FileStorage } from '../files/file-storage';
import { renderPdf } from '../pdf/pdf.service';
import type { Content } from '../pdf/pdfmake';
import { dateText } from './quotations.resource';
import { salesRepository } from './sales.repository';

/** What a sales document prints: a quotation, its contract, an invoice. */
export type SalesDocumentKind = 'quotation' | 'contract' | 'order';

type Language = 'en' | 'zh';

/** A declared string in the document's language (the resource locale files: the screens' own labels). */
function label(key: string, language: Language): string {
  return declaredLabel(key)[language];
}

const field = (resource: string, name: string, language: Language) =>
  label(`resources.${resource}.fields.${name}`, language);
const lineField = (resource: string, name: string, language: Language) =>
  label(`resources.${resource}.collections.lines.fields.${name}`, language);

/** Rich text (the terms, HTML from an allow-list) as the paragraphs a PDF prints. */
export function plainText(html: unknown): string {
  return String(html ?? '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6])>/gi, '\n')
    .replace(/<li[^>]*>/gi, '• ')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The student's names as printed: English, Chinese and Korean, those it has. */
export function studentNames(student: Row | undefined): string {
  if (!student) return '';
  return [
    [student.surname_en, student.given_name_en].filter(Boolean).join(' '),
    student.name_zh,
    student.name_ko,
  ]
    .filter((v) => v !== null && v !== undefined && String(v).trim() !== '')
    .join(' ');
}

/** The company's logo as a data URL pdfmake draws (PNG or JPEG only), or null. */
async function logoOf(
  db: Trx,
  storage: FileStorage | null,
  company: Row | undefined,
): Promise<string | null> {
  const fileId = numberOrNull(company?.logo_file_id);
  if (!storage || fileId === null) return null;
  const file = await salesRepository.file(db, fileId);
  if (!file || !['image/png', 'image/jpeg'].includes(String(file.mime_type))) return null;
  try {
    const bytes = await readFile(storage.resolve(String(file.path)));
    return `data:${file.mime_type};base64,${bytes.toString('base64')}`;
  } catch (err) {
    logger.warn('logo not printed', { file: fileId, error: String((err as Error)?.message ?? err) });
    return null;
  }
}

/**
 * A quotation, its contract or an invoice as a PDF (the one printer, pdf.service.ts: Noto Sans HK and KR embedded,
 * Korean runs in the Korean font): the company and branch header with the logo, labels in the document's language
 * (the screens' own strings), the student's names, the lines, the totals as the screen shows them (HKD with two
 * decimals, KRW with none), the terms, and VOID across a void invoice.
 */
export async function printSalesDocument(
  db: Trx,
  storage: FileStorage | null,
  kind: SalesDocumentKind,
  row: Row,
): Promise<{ filename: string; pdf: Buffer }> {
  const resource = kind === 'order' ? 'order' : 'quotation';
  const language: Language = row.language === 'en' ? 'en' : 'zh';
  const currency = String(row.currency ?? '');
  const [student, branch] = await Promise.all([
    salesRepository.student(db, Number(row.student_id)),
    salesRepository.branch(db, Number(row.branch_id)),
  ]);
  const company = await salesRepository.company(
    db,
    numberOrNull(row.company_id) ?? numberOrNull(branch?.company_id),
  );
  const logo = await logoOf(db, storage, company);
  const number = String(kind === 'order' ? row.order_no : row.quotation_no);
  const title =
    kind === 'contract'
      ? label('resources.quotation.tabs.contract', language)
      : label(`resources.${resource}.record`, language);
  const zh = language === 'zh';
  const companyName = String((zh ? company?.name_zh : company?.name_en) ?? company?.name_en ?? '');
  const branchName = String((zh ? branch?.name_zh : branch?.name_en) ?? '');
  const address = String((zh ? company?.address_zh : company?.address_en) ?? '');

  const header: Content = {
    columns: [
      logo ? { image: logo, fit: [80, 50], width: 90 } : { text: '', width: 1 },
      {
        stack: [
          { text: companyName, bold: true, fontSize: 14 },
          branchName,
          address,
          [company?.phone, company?.email].filter(Boolean).join('  '),
        ].filter((c) => c !== ''),
      },
      { text: title, bold: true, fontSize: 18, alignment: 'right', width: 'auto' },
    ],
  };
  const facts: [string, string][] = [
    [field(resource, kind === 'order' ? 'order_no' : 'quotation_no', language), number],
    [field(resource, 'date', language), dateText(row.date) ?? ''],
    [field(resource, 'student_id', language), studentNames(student)],
  ];
  if (student?.student_no)
    facts.push([label('resources.student.fields.student_no', language), String(student.student_no)]);
  if (kind === 'order' && row.due_date)
    facts.push([field('order', 'due_date', language), dateText(row.due_date)!]);
  if (kind === 'quotation' && row.valid_until)
    facts.push([field('quotation', 'valid_until', language), dateText(row.valid_until)!]);
  if (kind === 'contract') {
    facts.push([field('quotation', 'contract_no', language), String(row.contract_no ?? '')]);
    facts.push([field('quotation', 'contract_date', language), dateText(row.contract_date) ?? '']);
  }
  facts.push([field(resource, 'currency', language), currency]);

  const lines = (Array.isArray(row.lines) ? row.lines : []) as Row[];
  const columns = ['description', 'quantity', 'unit', 'unit_price', 'discount_rate', 'net_amount'];
  const body: Content[][] = [
    columns.map((c) => ({ text: lineField(resource, c, language), bold: true })),
    ...lines.map((l) => [
      String(l.description ?? ''),
      { text: String(l.quantity), alignment: 'right' },
      String(l.unit ?? ''),
      { text: formatMinor(Number(l.unit_price), currency), alignment: 'right' },
      { text: `${formatRateText(Number(l.discount_rate ?? 0))}%`, alignment: 'right' },
      { text: formatMinor(Number(l.net_amount), currency), alignment: 'right' },
    ]),
  ];
  const totals: [string, number][] = [
    [field(resource, 'subtotal', language), Number(row.subtotal)],
    [field(resource, 'discount_total', language), Number(row.discount_total)],
    [field(resource, 'total', language), Number(row.total)],
  ];
  if (kind === 'order') {
    totals.push([field('order', 'paid_amount', language), Number(row.paid_amount)]);
    totals.push([field('order', 'outstanding', language), Number(row.outstanding)]);
  }

  const terms =
    kind === 'contract'
      ? plainText(row.contract_terms)
      : plainText((await orderTermsOf(db, row, language)) ?? '');
  const content: Content[] = [
    header,
    { text: ' ' },
    {
      table: { widths: ['auto', '*'], body: facts.map(([k, v]) => [{ text: k, bold: true }, v]) },
      layout: 'noBorders',
    },
    { text: ' ' },
    {
      table: { headerRows: 1, widths: ['*', 'auto', 'auto', 'auto', 'auto', 'auto'], body },
      layout: 'lightHorizontalLines',
    },
    { text: ' ' },
    {
      table: {
        widths: ['*', 'auto'],
        body: totals.map(([k, v]) => [
          { text: k, alignment: 'right', bold: true },
          { text: formatMoneyText(v, currency), alignment: 'right' },
        ]),
      },
      layout: 'noBorders',
    },
  ];
  if (terms) {
    const termsLabel =
      kind === 'contract'
        ? field('quotation', 'contract_terms', language)
        : field(resource, 'order_term_id', language);
    content.push({ text: ' ' }, { text: termsLabel, bold: true }, { text: terms, fontSize: 8 });
  }
  if (kind === 'contract') {
    content.push(
      { text: ' ' },
      {
        columns: [
          `${field('quotation', 'signatory_name', language)}: ${String(row.signatory_name ?? '')}`,
          `${field('quotation', 'signed_at', language)}: ${dateText(row.signed_at) ?? ''}`,
        ],
      },
    );
  }
  if (row.remark)
    content.push({ text: ' ' }, `${field(resource, 'remark', language)}: ${String(row.remark)}`);
  const isVoid = kind === 'order' && row.status === 'void';
  if (isVoid) {
    content.splice(1, 0, {
      text: `VOID ${label('resources.order.states.void', language)}`,
      color: '#c00000',
      bold: true,
      fontSize: 20,
    });
  }
  const pdf = await renderPdf({
    content,
    pageSize: 'A4',
    pageMargins: [36, 36, 36, 36],
    ...(isVoid ? { watermark: { text: 'VOID', color: '#c00000', opacity: 0.2, bold: true } } : {}),
    info: { title: `${title} ${number}` },
  });
  const prefix = kind === 'contract' ? 'contract-' : '';
  return { filename: `${prefix}${number.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`, pdf };
}

/** The document's order terms, in its language (HTML), or null. */
async function orderTermsOf(db: Trx, row: Row, language: Language): Promise<string | null> {
  const id = numberOrNull(row.order_term_id);
  if (id === null) return null;
  const terms = await salesRepository.orderTerms(db, id);
  if (!terms) return null;
  return String((language === 'en' ? terms.content_en : terms.content_zh) ?? '') || null;
}
