import type { RequestHandler } from 'express';
import { z } from 'zod';
import { LOCALES } from '../../../../shared/features';
import { reportQuerySchema } from '../../../../shared/reports/criteria';
import { REPORT_EXPORT_PERMISSION, reportPermission } from '../../../../shared/reports/definition';
import type { ApiRouter } from '../../http/api-router';
import { abortSignalOf, contextOf } from '../../http/context';
import { EXPORT_FORMATS, exportFileName, exportLanguage, streamExport } from '../exports/export.writer';
import { renderPdf } from '../pdf/pdf.service';
import type { ReportSource } from './report-source';
import type { ReportQuery, ReportsService } from './reports.service';

/** The formats of a report's file: the lists' spreadsheets, and a PDF. */
const REPORT_FORMATS = [...EXPORT_FORMATS, 'pdf'] as const;

/**
 * Each report's data call `GET /api{api}` (`reports.<group>`): the criteria, paging, sort and grouping as query
 * parameters answer a page of rows with their total and totals per currency; `format=xlsx|csv|pdf` (which needs
 * `reports.export` besides) answers a file of every row in the screen's language (`lang`, else the user's own),
 * the spreadsheets streamed batch by batch as the lists' exports are.
 */
export function registerReportRoutes(
  api: ApiRouter,
  service: ReportsService,
  sources: readonly ReportSource[],
): void {
  const exportGuard = api.authorise(REPORT_EXPORT_PERMISSION);
  const fileNeedsExport: RequestHandler = (req, res, next) =>
    req.query.format === undefined ? next() : exportGuard(req, res, next);
  for (const source of sources) {
    const def = source.definition;
    api.add({
      method: 'get',
      path: def.api,
      access: 'staff',
      permission: reportPermission(def.group),
      before: [fileNeedsExport],
      schemas: {
        query: reportQuerySchema(def).extend({
          format: z.enum(REPORT_FORMATS).optional(),
          /** the screen's language, in which a file is written (default: the user's own) */
          lang: z.enum(LOCALES).optional(),
        }),
      },
      handler: async (req, res) => {
        const { format, lang, ...query } = req.parsed.query as ReportQuery & {
          format?: (typeof REPORT_FORMATS)[number];
          lang?: (typeof LOCALES)[number];
        };
        const ctx = contextOf(req);
        const signal = abortSignalOf(req);
        if (!format) {
          res.json(await service.result(source, query, { ...ctx, signal }));
          return;
        }
        // a download link sends no Accept-Language: the screen's `lang` names the rows as it heads the columns
        const ownLanguage = req.auth?.kind === 'staff' ? req.auth.user.language : undefined;
        const language =
          lang ?? (ownLanguage?.startsWith('zh') ? 'zh_HK' : ownLanguage ? 'en' : ctx.language);
        const fileCtx = { ...ctx, language: language as 'en' | 'zh_HK', signal };
        const name = `report-${def.name}`;
        if (format === 'pdf') {
          const pdf = await renderPdf(await service.pdf(source, query, fileCtx));
          res.status(200);
          res.setHeader('Content-Type', 'application/pdf');
          res.setHeader('Content-Disposition', `attachment; filename="${exportFileName(name, 'pdf')}"`);
          res.end(pdf);
          return;
        }
        await streamExport(res, {
          format,
          name,
          language: exportLanguage(language),
          columns: service.exportColumns(def, query.group_by),
          batches: service.rows(source, query, fileCtx),
        });
      },
    });
  }
}
