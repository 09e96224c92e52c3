import { useEffect, useMemo, useRef } from 'react';
import FullCalendar, {
  type CalendarRef,
  type DayCellInfo,
  type EventDisplayInfo,
  type EventInput,
} from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/react/daygrid';
import listPlugin from '@fullcalendar/react/list';
import classicThemePlugin from '@fullcalendar/react/themes/classic';
import '@fullcalendar/react/skeleton.css';
import '@fullcalendar/react/themes/classic/theme.css';
import '@fullcalendar/react/themes/classic/palette.css';
import type { CalendarEntry, CalendarType } from '../../../../shared/calendar';
import type { Locale } from '../../../../shared/features';
import { BUSINESS_TIME_ZONE } from '../../components/resource/renderers';
import { calendarLocale } from './calendar-locales';
import { FIRST_DAY, openEntry, toEventInput, visibleRange } from './calendar-query';

export interface CalendarViewProps {
  type: CalendarType;
  /** a day of the month shown, `YYYY-MM-DD` */
  date: string;
  entries: CalendarEntry[];
  lang: Locale;
  /** go to an entry's screen (inside the app) */
  onOpen: (url: string) => void;
}

const PLUGINS = [dayGridPlugin, listPlugin, classicThemePlugin];
const VIEWS: Record<CalendarType, string> = { basic: 'dayGridMonth', list: 'listMonth' };
/** 24-hour `HH:mm` in both languages, as every other time of the back-office */
const TIME_FORMAT = { hour: '2-digit', minute: '2-digit', hour12: false } as const;

/** An entry's tooltip: its title, and its detail when the title does not already say it (an entry's remark). */
function tooltip(title: string, detail: string | null): string {
  return detail && !title.includes(detail) ? `${title} — ${detail}` : title;
}

/** A row of the list: the time (or "all day", or an entry's dates when it lasts several days) and the title. */
function listEventContent(info: EventDisplayInfo) {
  const span = info.event.extendedProps.span as string | null;
  return (
    <>
      <div className={info.timeClass}>{span ?? info.timeText}</div>
      <div className={info.titleClass}>{info.event.title}</div>
    </>
  );
}

/**
 * FullCalendar (v7) under the screen's own toolbar: the month grid (six weeks, Sunday first) or the month's
 * list, in Hong Kong time, in the user's language. Its own header is off: the month it shows follows `date`.
 * Entries come from the feed as they are (the screen keeps the last answer on show while the next is read).
 * An entry with a screen is a real link; a click or Enter opens it inside the app. Only this module imports
 * FullCalendar, so only the calendar routes' chunk carries it.
 */
export function CalendarView({ type, date, entries, lang, onOpen }: CalendarViewProps) {
  const ref = useRef<CalendarRef>(null);
  const rangeStart = visibleRange(type, date).start;
  const events: EventInput[] = useMemo(
    () => entries.map((entry) => toEventInput(entry, type, rangeStart)),
    [entries, type, rangeStart],
  );

  useEffect(() => {
    ref.current?.getApi().gotoDate(date);
  }, [date]);

  return (
    <div className={`calendar-view calendar-view-${type}`} data-testid="calendar-view">
      <FullCalendar
        ref={ref}
        plugins={PLUGINS}
        initialView={VIEWS[type]}
        initialDate={date}
        headerToolbar={false}
        locale={calendarLocale(lang)}
        firstDay={FIRST_DAY}
        fixedWeekCount
        showNonCurrentDates
        timeZone={BUSINESS_TIME_ZONE}
        height="auto"
        dayMaxEvents={4}
        eventTimeFormat={TIME_FORMAT}
        {...(lang === 'en' ? {} : { dayHeaderFormat: { weekday: 'long' } })}
        // the day's number alone in both languages (zh-HK's own format reads 29日)
        dayCellTopContent={(info: DayCellInfo) => info.dayNumberText.replace(/\D/g, '')}
        events={events}
        eventClick={(info) => openEntry(info, onOpen)}
        eventDidMount={({ el, event }) => {
          el.title = tooltip(event.title, event.extendedProps.detail as string | null);
        }}
        backgroundEventDidMount={({ el, event }) => {
          el.title = event.title;
        }}
        views={{ listMonth: { eventContent: listEventContent } }}
      />
    </div>
  );
}
