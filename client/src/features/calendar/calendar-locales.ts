import type { LocaleInput } from '@fullcalendar/react';
import zhTw from '@fullcalendar/react/locales/zh-tw';
import type { Locale } from '../../../../shared/features';

/**
 * FullCalendar's words in the interface languages. English is its own default. Traditional Chinese starts from
 * its `zh-tw` locale with Hong Kong wording where Taiwan's differs (全日 not 整天, 列表 not 活動列表, 星期日 not
 * 週日, 項目 not 活動) and the screen-reader hints it leaves in English. Dates are formatted for `zh-HK`. The week
 * starts on Sunday in both (`firstDay` 0 on the calendar too); the month grid's heads read 星期日 … 星期六 (the
 * calendar's `dayHeaderFormat`).
 */
export const ZH_HK_CALENDAR_LOCALE: LocaleInput = {
  ...zhTw,
  code: 'zh-HK',
  prevText: '上一個',
  nextText: '下一個',
  todayText: '今天',
  yearText: '年',
  monthText: '月',
  weekTextLong: '星期',
  weekTextShort: '週',
  dayText: '日',
  listText: '列表',
  allDayText: '全日',
  timedText: '定時',
  moreLinkText: (count: number) => `還有 ${count} 項`,
  moreLinkHint: (count: number) => `顯示另外 ${count} 個項目`,
  noEventsText: '沒有項目',
  closeHint: '關閉',
  eventsHint: '項目',
  todayHint: (unitText: string, unit: string) => (unit === 'day' ? '今天' : `本${unitText}`),
  prevHint: '上一個$0',
  nextHint: '下一個$0',
  viewHint: '$0檢視',
  viewChangeHint: '切換檢視',
  navLinkHint: '前往$0',
};

export const EN_CALENDAR_LOCALE: LocaleInput = { code: 'en' };

export function calendarLocale(lang: Locale): LocaleInput {
  return lang === 'en' ? EN_CALENDAR_LOCALE : ZH_HK_CALENDAR_LOCALE;
}
