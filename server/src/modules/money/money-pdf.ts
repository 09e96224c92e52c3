import { formatMoneyText } from '../../../../shared/money';
import type { Trx } from '../../db/knex';
import { declaredLabel } from '../../resources/declared';
import type { Row } from '../../resources/resource';
import { numberOrNull } from '../../resources/rows';
import { renderPdf } from '../pdf/pdf.service';
import type { Content } from '../pdf/pdfmake';
import { dateText } from '../sales/quotations.resource';
import { plainText, studentNames } from '../sales/sales-pdf';
import { salesRepository } from '../sales/sales.repository';
import { moneyRepository } from './money.repository';

type Language = 'en' | 'zh';

/**
 * A receipt or a refund as a PDF (the one printer, pdf.service.ts: Noto Sans HK and KR, Korean runs in the Korean
 * font), in its invoice's language: the company and branch, the number, date, invoice, the student's English,
 * Chinese and Korean names, the method and reference, the amount as the screens show it (KRW without decimals),
 * the status; a refund adds its reason and the text of its refund terms.
 */
export async function printMoneyDocument(
  db: Trx,
  kind: 'receipt' | 'refund',
  row: Row,
): Promise<{ filename: string; pdf: Buffer }> {
  const order = await moneyRepository.order(db, Number(row.order_id));
  const language: Language = order?.language === 'en' ? 'en' : 'zh';
  const zh = language === 'zh';
  const label = (key: string) => declaredLabel(key)[language];
  const field = (name: string) => label(`resources.${kind}.fields.${name}`);
  const [student, branch] = await Promise.all([
    salesRepository.student(db, Number(row.student_id)),
    salesRepository.branch(db, Number(row.branch_id)),
  ]);
  const company = await salesRepository.company(
    db,
    numberOrNull(order?.company_id) ?? numberOrNull(branch?.company_id),
  );
  const currency = String(row.currency ?? '');
  const number = String(kind === 'receipt' ? row.receipt_no : row.refund_no);
  const title = label(`resources.${kind}.record`);
  const facts: [string, string][] = [
    [field(`${kind}_no`), number],
    [field('date'), dateText(row.date) ?? ''],
    [field('order_id'), String(order?.order_no ?? '')],
    [field('student_id'), studentNames(student)],
  ];
  if (student?.student_no)
    facts.push([label('resources.student.fields.student_no'), String(student.student_no)]);
  if (row.method) facts.push([field('method'), String(row.method_label ?? row.method)]);
  if (row.reference_no) facts.push([field('reference_no'), String(row.reference_no)]);
  facts.push([field('amount'), formatMoneyText(Number(row.amount), currency)]);
  facts.push([field('status'), label(`resources.${kind}.states.${String(row.status)}`)]);
  if (kind === 'refund' && row.reason) facts.push([field('reason'), String(row.reason)]);
  const content: Content[] = [
    {
      columns: [
        {
          stack: [
            {
              text: String((zh ? company?.name_zh : company?.name_en) ?? company?.name_en ?? ''),
              bold: true,
            },
            String((zh ? branch?.name_zh : branch?.name_en) ?? ''),
          ],
        },
        { text: title, bold: true, fontSize: 18, alignment: 'right', width: 'auto' },
      ],
    },
    { text: ' ' },
    {
      table: { widths: ['auto', '*'], body: facts.map(([k, v]) => [{ text: k, bold: true }, v]) },
      layout: 'noBorders',
    },
  ];
  if (kind === 'refund') {
    const terms = await moneyRepository.refundTerms(db, Number(row.refund_term_id));
    if (terms) {
      content.push(
        { text: ' ' },
        { text: String((zh ? terms.title_zh : terms.title_en) ?? ''), bold: true },
        { text: plainText(zh ? terms.content_zh : terms.content_en), fontSize: 8 },
      );
    }
  }
  if (row.remark) content.push({ text: ' ' }, `${field('remark')}: ${String(row.remark)}`);
  const pdf = await renderPdf({
    content,
    pageSize: 'A5',
    pageOrientation: 'landscape',
    pageMargins: [30, 30, 30, 30],
    info: { title: `${title} ${number}` },
  });
  return { filename: `${number.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`, pdf };
}
