/**
 * The report machinery's money and layout, with a definition of its own (the money reports come with the invoices):
 * totals one row per currency, never summed across currencies; a file's money a number in major units beside its
 * currency; a PDF's columns as wide as their cells when they fit.
 */
import { defineReport } from '../../../shared/reports/definition';
import { reportQuerySchema, resolveRanges } from '../../../shared/reports/criteria';
import { createReportsService, pdfColumnWidths, sumTotals } from '../../src/modules/reports/reports.service';

// named as the students report, whose strings serve it: its columns are given money and a currency here
const invoices = defineReport({
  name: 'student',
  group: 'orders',
  api: '/reports/test',
  route: '/reports/test',
  criteria: { date: { type: 'dateRange', default: 'this_month', bounded: true, maxDays: 31 } },
  columns: {
    student_no: { type: 'text' },
    created: { type: 'date' },
    applications: { type: 'money', currency: 'status', total: true },
    students: { type: 'integer', total: true },
    status: { type: 'currency' },
  },
  detail: ['student_no', 'created', 'applications', 'students'],
  groupings: { status: ['status', 'applications', 'students'] },
  order: 0,
});

it('totals money one row per currency, HKD and KRW side by side, never one sum', () => {
  const rows = [
    { applications: 150_050, students: 1, status: 'HKD' },
    { applications: 15_000_000, students: 2, status: 'KRW' },
    { applications: 100, students: 3, status: 'HKD' },
  ];
  expect(sumTotals(invoices, 'detail', rows)).toEqual([
    { currency: 'HKD', applications: 150_150, students: 4 },
    { currency: 'KRW', applications: 15_000_000, students: 2 },
  ]);
  expect(sumTotals(invoices, 'detail', [])).toEqual([{ currency: null, applications: 0, students: 0 }]);
});

it('writes money as a number in major units with its currency beside it, dates as date cells', () => {
  const service = createReportsService(null as never);
  const columns = service.exportColumns(invoices, undefined);
  expect(columns.map((c) => [c.key, c.en, c.type ?? null])).toEqual([
    ['student_no', 'Student no.', null],
    ['created', 'Registered', 'date'],
    ['applications', 'Applications', null],
    ['status', 'Status', null],
    ['students', 'Students', null],
  ]);
  const money = columns.find((c) => c.key === 'applications')!;
  expect(money.value!({ applications: 15_000_000, status: 'KRW' }, 'en')).toBe(150_000);
  expect(money.value!({ applications: 150_050, status: 'HKD' }, 'en')).toBe(1_500.5);
  // a grouping showing the currency itself gets no second currency column
  expect(service.exportColumns(invoices, 'status').map((c) => c.key)).toEqual([
    'status',
    'applications',
    'students',
  ]);
});

it('checks a bounded range: both ends, at most its days', () => {
  const schema = reportQuerySchema(invoices);
  const parse = (query: Record<string, string>) => schema.parse(query) as Record<string, unknown>;
  expect(resolveRanges(invoices, parse({ date_from: '2030-01-01' }), '2030-05-20').problems).toEqual({
    date_to: { key: 'required' },
  });
  expect(
    resolveRanges(invoices, parse({ date_from: '2030-01-01', date_to: '2030-02-01' }), '2030-05-20').problems,
  ).toMatchObject({ date_to: { key: 'reportRangeTooLong', params: { max: 31 } } });
  expect(resolveRanges(invoices, parse({}), '2030-05-20').ranges.date).toEqual({
    from: '2030-05-01',
    to: '2030-05-31',
    preset: 'this_month',
  });
  expect(() => parse({ date_from: '2030-01-01', other: '1' })).toThrow();
});

it('lays a PDF’s columns out as wide as their cells when they fit, a long one sharing what is left', () => {
  const fit = pdfColumnWidths(
    [
      ['No.', 'Name'],
      ['STU-1', 'CHAN'],
    ],
    500,
  );
  expect(fit.reduce((a, b) => a + b, 0)).toBeLessThan(500);
  const wide = pdfColumnWidths([['STU-MK-2030-00001', 'x'.repeat(400)]], 300);
  // the number keeps its width (not broken over two lines), the long text takes the rest
  expect(wide[0]).toBeGreaterThanOrEqual(17 * 4.6);
  expect(Math.round(wide[0] + wide[1])).toBeLessThanOrEqual(300);
});
