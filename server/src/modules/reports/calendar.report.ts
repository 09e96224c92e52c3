import { addDays } from '../../../../shared/reports/criteria';
import { calendarReport } from '../../../../shared/reports/calendar';
import type { CalendarSource } from '../../../../shared/calendar';
import type { Trx } from '../../db/knex';
import type { Row } from '../../resources/resource';
import { resourceRepository } from '../../resources/resource.repository';
import { BUSINESS_TIME_ZONE, businessDay, nameIn } from '../calendar/calendar.sources';
import type { CalendarService } from '../calendar/calendar.service';
import { inLanguage, reportLabel } from './report-labels';
import type { ReportCriteria, ReportReadContext, ReportSource } from './report-source';

/** `HH:mm` of an instant in Hong Kong. */
function hongKongTime(iso: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: BUSINESS_TIME_ZONE,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

/**
 * The calendar report (shared/reports/calendar.ts): the calendar feed's entries in the range, of the source chosen
 * or every source the caller may see (each source's own permission applies; `calendar.view` is not needed), in its
 * branch scope, in the feed's order. The feed is bounded (400 days, each source's read capped), so the rows are
 * read whole and paged here.
 */
export function calendarReportSource(calendar: CalendarService): ReportSource {
  async function entries(db: Trx, c: ReportCriteria, read: ReportReadContext): Promise<Row[]> {
    const range = c.ranges.date;
    const source = c.values.source as CalendarSource | undefined;
    const feed = await calendar.feed(
      {
        type: 'list',
        start: range.from!,
        end: addDays(range.to!, 1),
        ...(source ? { sources: [source] } : {}),
        ...(typeof c.values.branch_id === 'number' ? { branch_id: c.values.branch_id } : {}),
      },
      { ...read.ctx, signal: read.signal },
      { asReport: true },
    );
    const branchIds = [...new Set(feed.items.map((e) => e.branch_id).filter((id) => id !== null))];
    const branches = await resourceRepository.rowsByKey(db, 'branches', 'id', branchIds, [
      'name_en',
      'name_zh',
    ]);
    const names = new Map(branches.map((b) => [Number(b.id), b]));
    return feed.items.map((entry) => {
      const branch = entry.branch_id === null ? undefined : names.get(entry.branch_id);
      return { ...entry, branch_en: branch?.name_en ?? null, branch_zh: branch?.name_zh ?? null };
    });
  }

  return {
    definition: calendarReport,
    detail: {
      async page(db, c, _sort, page, perPage, read) {
        return (await entries(db, c, read)).slice((page - 1) * perPage, page * perPage);
      },
      async count(db, c, read) {
        return (await entries(db, c, read)).length;
      },
      // the detail rows total nothing: their number is the result's `total`
      totals: async () => [],
      async *batches(db, c, _sort, read) {
        const rows = await entries(db, c, read);
        for (let i = 0; i < rows.length; i += 1_000) yield rows.slice(i, i + 1_000);
      },
    },
    async groups(db, c, _grouping, read) {
      const counts = new Map<string, number>();
      for (const entry of await entries(db, c, read))
        counts.set(String(entry.source), (counts.get(String(entry.source)) ?? 0) + 1);
      return [...counts].map(([source, entries]) => ({ source, entries }));
    },
    present(row: Row, view: string, language: 'en' | 'zh_HK'): Row {
      const source = inLanguage(reportLabel(`reports.calendar.sources.${String(row.source)}`), language);
      if (view !== 'detail') return { source_key: row.source, source, entries: row.entries };
      const start = String(row.start);
      const allDay = Boolean(row.all_day);
      const date = allDay ? start : businessDay(start);
      const end = row.end === null || row.end === undefined ? null : String(row.end);
      const last = end ? (allDay ? addDays(end, -1) : businessDay(end)) : null;
      return {
        id: row.id,
        source_key: row.source,
        date,
        time: allDay ? '' : hongKongTime(start),
        end_date: last && last > date ? last : null,
        source,
        title: row.title,
        detail: row.detail ?? '',
        branch: row.branch_id === null ? '' : nameIn(language, row.branch_en, row.branch_zh),
        url: row.url,
      };
    },
  };
}
