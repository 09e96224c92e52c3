import type { CalendarEntry } from '../../../../shared/calendar';
import {
  businessToday,
  calendarSearch,
  feedArgs,
  monthStart,
  monthTitle,
  openEntry,
  readCalendarState,
  toEventInput,
  toggleSource,
  visibleRange,
} from './calendar-query';

const TODAY = '2026-11-25';

function entry(overrides: Partial<CalendarEntry> = {}): CalendarEntry {
  return {
    id: 'application_deadline:12',
    source: 'application_deadline',
    title: 'Application deadline: Korea University 2027 Spring',
    detail: 'Korea University',
    start: '2026-12-10',
    end: null,
    all_day: true,
    color: '#ad4e00',
    url: '/schools/admission/5/12',
    record: { type: 'school_admission', id: 12 },
    branch_id: null,
    ...overrides,
  };
}

describe('the visible range', () => {
  it('is the six-week grid from the Sunday on or before the 1st in the month view (end exclusive)', () => {
    // December 2026 starts on a Tuesday: the grid opens on Sunday 29 November
    expect(visibleRange('basic', '2026-12-17')).toEqual({ start: '2026-11-29', end: '2027-01-10' });
    // November 2026 starts on a Sunday: the grid opens on the 1st
    expect(visibleRange('basic', '2026-11-25')).toEqual({ start: '2026-11-01', end: '2026-12-13' });
    // February 2026 starts on a Sunday and has 28 days: still six weeks
    expect(visibleRange('basic', '2026-02-01')).toEqual({ start: '2026-02-01', end: '2026-03-15' });
    // across a year: January 2027 starts on a Friday
    expect(visibleRange('basic', '2027-01-31')).toEqual({ start: '2026-12-27', end: '2027-02-07' });
  });

  it('is the month in the list view', () => {
    expect(visibleRange('list', '2026-12-17')).toEqual({ start: '2026-12-01', end: '2027-01-01' });
    expect(visibleRange('list', '2028-02-29')).toEqual({ start: '2028-02-01', end: '2028-03-01' });
  });

  it('steps by months from the 1st, whatever the day', () => {
    expect(monthStart('2026-01-31', 1)).toBe('2026-02-01');
    expect(monthStart('2026-03-31', -1)).toBe('2026-02-01');
    expect(monthStart('2026-12-15', 1)).toBe('2027-01-01');
    expect(monthStart('2026-01-15', -1)).toBe('2025-12-01');
  });

  it('opens on today in Hong Kong, not in UTC', () => {
    // 20:00 UTC on 30 November is 04:00 on 1 December in Hong Kong
    expect(businessToday(new Date('2026-11-30T20:00:00Z'))).toBe('2026-12-01');
    expect(businessToday(new Date('2026-11-30T15:59:00Z'))).toBe('2026-11-30');
  });
});

describe('the query string and the state', () => {
  it('reads the date, sources and branch, and takes today for what is absent or unreadable', () => {
    expect(readCalendarState(new URLSearchParams(''), TODAY)).toEqual({
      date: TODAY,
      sources: null,
      branchId: null,
    });
    expect(
      readCalendarState(new URLSearchParams('date=2026-12-01&sources=interview,holiday&branch_id=3'), TODAY),
    ).toEqual({ date: '2026-12-01', sources: ['holiday', 'interview'], branchId: 3 });
    // not a day, not a real day, unknown sources, not an id
    expect(
      readCalendarState(new URLSearchParams('date=2026-02-31&sources=nope,result&branch_id=x'), TODAY),
    ).toEqual({ date: TODAY, sources: ['result'], branchId: null });
    expect(readCalendarState(new URLSearchParams('date=soon'), TODAY).date).toBe(TODAY);
    // an empty list is "none", not "all"
    expect(readCalendarState(new URLSearchParams('sources='), TODAY).sources).toEqual([]);
  });

  it('writes the date always and the filters when set, and reads back the same state', () => {
    expect(calendarSearch({ date: '2026-12-01', sources: null, branchId: null })).toBe('?date=2026-12-01');
    const state = { date: '2026-12-01', sources: ['holiday' as const, 'interview' as const], branchId: 4 };
    const search = calendarSearch(state);
    expect(search).toBe('?date=2026-12-01&sources=holiday,interview&branch_id=4');
    expect(readCalendarState(new URLSearchParams(search), TODAY)).toEqual(state);
    expect(calendarSearch({ date: '2026-12-01', sources: [], branchId: null })).toBe(
      '?date=2026-12-01&sources=',
    );
  });

  it('asks the feed for the view’s range and the filters; the language only keys the cache', () => {
    expect(feedArgs('basic', { date: '2026-12-17', sources: null, branchId: null }, 'en')).toEqual({
      type: 'basic',
      start: '2026-11-29',
      end: '2027-01-10',
      lang: 'en',
    });
    expect(
      feedArgs('list', { date: '2026-12-17', sources: ['holiday', 'result'], branchId: 2 }, 'zh_HK'),
    ).toEqual({
      type: 'list',
      start: '2026-12-01',
      end: '2027-01-01',
      sources: 'holiday,result',
      branch_id: 2,
      lang: 'zh_HK',
    });
  });
});

describe('the source filter', () => {
  const visible = ['holiday', 'interview', 'result'] as const;

  it('turns a source off from "all", and on again back to "all" (no filter)', () => {
    const off = toggleSource(null, 'interview', visible);
    expect(off).toEqual(['holiday', 'result']);
    expect(toggleSource(off, 'interview', visible)).toBeNull();
  });

  it('can turn every source off, and keeps the usual order', () => {
    let sources = toggleSource(null, 'holiday', visible);
    sources = toggleSource(sources, 'result', visible);
    sources = toggleSource(sources, 'interview', visible);
    expect(sources).toEqual([]);
    expect(toggleSource(toggleSource(sources, 'result', visible), 'holiday', visible)).toEqual([
      'holiday',
      'result',
    ]);
  });
});

describe('an entry on the calendar', () => {
  it('is an all-day event with its colour and its screen as the link', () => {
    expect(toEventInput(entry({ end: '2026-12-12' }), 'basic')).toMatchObject({
      id: 'application_deadline:12',
      title: 'Application deadline: Korea University 2027 Spring',
      start: '2026-12-10',
      end: '2026-12-12',
      allDay: true,
      color: '#ad4e00',
      url: '/schools/admission/5/12',
      className: 'calendar-entry-application_deadline',
      extendedProps: { source: 'application_deadline', detail: 'Korea University', span: null },
    });
  });

  it('in the list, lasts one row on its first day of the month, with its dates, not a row a day', () => {
    const period = entry({ source: 'application_window', start: '2026-11-05', end: '2026-12-06' });
    expect(toEventInput(period, 'list', '2026-12-01')).toMatchObject({
      start: '2026-12-01',
      extendedProps: { span: '2026-11-05 – 2026-12-05' },
    });
    expect(toEventInput(period, 'list', '2026-12-01').end).toBeUndefined();
    expect(toEventInput(period, 'list', '2026-11-01')).toMatchObject({ start: '2026-11-05' });
    // the month grid draws it across its days
    expect(toEventInput(period, 'basic', '2026-11-29')).toMatchObject({
      start: '2026-11-05',
      end: '2026-12-06',
    });
    // a one-day entry written with its exclusive end is still one day
    const oneDay = toEventInput(entry({ end: '2026-12-11' }), 'list', '2026-12-01');
    expect(oneDay).toMatchObject({ start: '2026-12-10', end: '2026-12-11', extendedProps: { span: null } });
  });

  it('keeps a timed entry’s UTC instant (the calendar shows it in Hong Kong time)', () => {
    const input = toEventInput(
      entry({ source: 'calendar_event', start: '2026-12-10T02:30:00.000Z', all_day: false }),
      'basic',
    );
    expect(input).toMatchObject({ start: '2026-12-10T02:30:00.000Z', allDay: false });
    expect(input.end).toBeUndefined();
  });

  it('without a screen, is neither a link nor a focus stop', () => {
    const input = toEventInput(entry({ url: null }), 'list');
    expect(input.url).toBeUndefined();
    expect(input.interactive).toBe(false);
  });

  it('marks a holiday’s day cells in the month view, and lists it in the list view', () => {
    const holiday = entry({ id: 'holiday:3', source: 'holiday', title: 'Christmas Day', color: '#cf1322' });
    expect(toEventInput(holiday, 'basic').display).toBe('background');
    expect(toEventInput(holiday, 'list').display).toBeUndefined();
    expect(toEventInput(entry(), 'basic').display).toBeUndefined();
  });

  it('opens its screen inside the app on a click or Enter, and leaves a new-tab click to the browser', () => {
    const navigate = jest.fn();
    const preventDefault = jest.fn();
    const click = {
      button: 0,
      ctrlKey: false,
      metaKey: false,
      shiftKey: false,
      altKey: false,
      preventDefault,
    };
    openEntry({ event: { url: '/schools/admission/5/12' }, jsEvent: click }, navigate);
    expect(navigate).toHaveBeenCalledWith('/schools/admission/5/12');
    expect(preventDefault).toHaveBeenCalled();

    navigate.mockClear();
    preventDefault.mockClear();
    openEntry({ event: { url: '/schools/admission/5/12' }, jsEvent: { ...click, ctrlKey: true } }, navigate);
    openEntry({ event: { url: '/schools/admission/5/12' }, jsEvent: { ...click, button: 1 } }, navigate);
    openEntry({ event: { url: '' }, jsEvent: click }, navigate);
    expect(navigate).not.toHaveBeenCalled();
    expect(preventDefault).not.toHaveBeenCalled();
  });
});

describe('the month title', () => {
  it('is in the user’s language', () => {
    expect(monthTitle('2026-12-17', 'en')).toBe('December 2026');
    expect(monthTitle('2026-12-17', 'zh_HK')).toBe('2026年12月');
  });
});
