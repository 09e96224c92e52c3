import zhTw from '@fullcalendar/react/locales/zh-tw';
import { calendarLocale, ZH_HK_CALENDAR_LOCALE } from './calendar-locales';

describe('FullCalendar’s words', () => {
  it('are Hong Kong’s in Traditional Chinese, where Taiwan’s differ', () => {
    expect(calendarLocale('zh_HK')).toBe(ZH_HK_CALENDAR_LOCALE);
    expect(ZH_HK_CALENDAR_LOCALE).toMatchObject({
      code: 'zh-HK',
      todayText: '今天',
      monthText: '月',
      listText: '列表',
      allDayText: '全日',
      noEventsText: '沒有項目',
      closeHint: '關閉',
    });
    // Taiwan's wording is replaced, not kept
    expect(zhTw.allDayText).toBe('整天');
    expect(zhTw.listText).toBe('活動列表');
    const words = Object.values(ZH_HK_CALENDAR_LOCALE).filter((value) => typeof value === 'string');
    expect(words.join(' ')).not.toMatch(/整天|活動/);
    const more = ZH_HK_CALENDAR_LOCALE.moreLinkText as (count: number) => string;
    expect(more(3)).toBe('還有 3 項');
  });

  it('are FullCalendar’s own in English', () => {
    expect(calendarLocale('en').code).toBe('en');
  });
});
