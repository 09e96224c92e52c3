import { z } from 'zod';
import { msg } from '../../../../shared/messages';
import { contextOf, userIdOf, type RequestContext } from '../../http/context';
import { toDbDateTime } from '../../lib/clock';
import { AppError } from '../../lib/app-error';
import type { Row } from '../../resources/resource';
import { resourceRepository } from '../../resources/resource.repository';
import type { ResourceService } from '../../resources/resource.service';
import { unitOfWork } from '../../resources/unit-of-work';
import { auditService } from '../audit/audit.service';
import { resourceOf } from '../declared.module';
import type { ModuleDeps } from '../module';
import { businessToday } from '../numbering/business-time';
import { addDays } from '../calendar/calendar.sources';
import { LINE_COPY_FIELDS, ORDER_DUE_DAYS } from './sales-documents';
import { salesRepository } from './sales.repository';

const idParams = z.strictObject({ id: z.coerce.number().int().positive() });
const noBody = z.strictObject({}).optional();

/**
 * The sales documents' actions that are not CRUD (quotations and orders are declared resources:
 * shared/resources/sales.ts, their rules in this folder):
 * - `POST /api/quotations/{id}/convert` (`orders.create`, the quotation in the caller's branch scope): an accepted
 *   quotation becomes an order with the same lines, dated today (Hong Kong), in one transaction that locks the
 *   quotation's row first, so that a second conversion (a double click, two tabs, two instances) waits and is then
 *   refused (`quotationAlreadyConverted`, 409) with nothing created; the quotation turns `converted` and names its
 *   order; audited as `convert`. Answers the new order (201).
 * - `POST /api/orders/{id}/email` (`orders.update`): the invoice's PDF to the student's e-mail through the
 *   configured SMTP ("Please confirm whether the SMTP settings are completed" without one, "Email failed" when the
 *   server refuses it); audited as `email`.
 */
export function registerSalesModule(deps: ModuleDeps, resources: Map<string, ResourceService>): void {
  const quotations = resourceOf(resources, 'quotation');
  const orders = resourceOf(resources, 'order');

  async function convert(id: number, ctx: RequestContext): Promise<Row> {
    // the quotation as this caller sees it (404 outside its branch scope), before anything is locked
    await quotations.get(id, ctx);
    return unitOfWork(deps.db, async (uow) => {
      const trx = uow.trx;
      const quotation = await salesRepository.lockQuotation(trx, id);
      if (!quotation) throw new AppError('not_found');
      if (quotation.status === 'converted') {
        const existing = await salesRepository.orderOf(trx, id);
        throw new AppError(
          'conflict',
          msg('quotationAlreadyConverted', { number: String(existing?.order_no ?? '') }),
        );
      }
      if (quotation.status !== 'accepted') throw new AppError('conflict', 'quotationCannotConvert');
      const lines = await salesRepository.lines(trx, 'quotation_lines', 'quotation_id', id);
      const today = businessToday();
      const order = await orders.create(
        {
          student_id: Number(quotation.student_id),
          branch_id: Number(quotation.branch_id),
          company_id: quotation.company_id ?? null,
          quotation_id: id,
          date: today,
          // due as a new invoice's form would have it: without a due date it could never be overdue
          due_date: addDays(today, ORDER_DUE_DAYS),
          currency: quotation.currency,
          language: quotation.language,
          order_term_id: quotation.order_term_id ?? null,
          remark: quotation.remark ?? null,
          lines: lines.map((line) => Object.fromEntries(LINE_COPY_FIELDS.map((f) => [f, line[f]]))),
        },
        ctx,
        uow,
      );
      await salesRepository.markConverted(trx, id, Number(order.id), userIdOf(ctx), toDbDateTime());
      const after = await resourceRepository.findById(trx, quotations.definition, id);
      await auditService.record(trx, ctx, {
        action: 'convert',
        entity: 'quotation',
        entityId: id,
        before: quotation,
        after: after ?? null,
      });
      return order;
    });
  }

  deps.api.add({
    method: 'post',
    path: '/quotations/:id/convert',
    access: 'staff',
    permission: 'orders.create',
    schemas: { params: idParams, body: noBody },
    answers: { kind: 'record', resource: 'order', status: 201 },
    handler: async (req, res) => {
      res.status(201).json(await convert(req.parsed.params.id, contextOf(req)));
    },
  });

  async function email(id: number, ctx: RequestContext): Promise<Row> {
    const smtp = await deps.mail.mustHaveSettings();
    const order = await orders.get(id, ctx);
    const student = await salesRepository.student(deps.db, Number(order.student_id));
    const to = String(student?.email ?? '').trim();
    if (!to) throw new AppError('business_rule', 'studentNoEmail');
    const { filename, pdf } = await orders.print(id, ctx);
    const zh = order.language !== 'en';
    await deps.mail.sendWith(smtp, {
      to,
      subject: zh ? `發票 ${String(order.order_no)}` : `Invoice ${String(order.order_no)}`,
      text: zh
        ? `您好，\n\n隨附發票 ${String(order.order_no)}。\n`
        : `Dear student,\n\nPlease find attached invoice ${String(order.order_no)}.\n`,
      attachments: [{ filename, content: pdf, contentType: 'application/pdf' }],
    });
    await deps.db.transaction((trx) =>
      auditService.record(trx, ctx, {
        action: 'email',
        entity: 'order',
        entityId: id,
        detail: { to, order_no: order.order_no },
      }),
    );
    // a notice: the English text, its key and placeholders (the client words it in the user's language)
    const sent = msg('invoiceEmailed', { email: to });
    return { message: sent.text, message_key: sent.key, message_params: sent.params, email: to };
  }

  deps.api.add({
    method: 'post',
    path: '/orders/:id/email',
    access: 'staff',
    permission: 'orders.update',
    schemas: { params: idParams, body: noBody },
    handler: async (req, res) => {
      res.json(await email(req.parsed.params.id, contextOf(req)));
    },
  });
}
