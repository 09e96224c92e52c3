import { useMemo, type ComponentType } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { CalendarEntry, CalendarType } from '../../../../shared/calendar';
import { isApiError } from '../../app/api';
import { errorSummary, fieldErrors } from '../../components/forms/server-errors';
import { currentLocale } from '../../i18n/i18n';
import { useCalendarFeedQuery } from './calendar-api';
import {
  businessToday,
  calendarSearch,
  feedArgs,
  readCalendarState,
  sourceShown,
  type CalendarState,
} from './calendar-query';
import { CalendarToolbar } from './calendar-toolbar';
import type { CalendarViewProps } from './calendar-view';
import './calendar.css';
import { PageHeader } from '../../components/layout/page-header';

/**
 * What the toolbar says about a failed read: a refusal (422) in the user's language, any other failure the app
 * has not already acted on (§8 navigation) as "could not be read"; nothing while it is fine.
 */
export function feedErrorText(error: unknown, t: TFunction): string | null {
  if (!error) return null;
  if (!isApiError(error)) return t('calendar.loadFailed');
  if (error.handled) return null;
  if (error.status === 422) {
    const fields = fieldErrors(error, t);
    return fields.length > 0 ? fields.flatMap((field) => field.errors).join(' ') : errorSummary(error, t);
  }
  return t('calendar.loadFailed');
}

/**
 * The entries on show: the last answer's (kept while the next month is read), narrowed at once to the sources and
 * branch now asked for, so a filter acts before its answer arrives.
 */
export function entriesShown(items: CalendarEntry[] | undefined, state: CalendarState): CalendarEntry[] {
  return (items ?? []).filter(
    (entry) =>
      sourceShown(state.sources, entry.source) &&
      (state.branchId === null || entry.branch_id === null || entry.branch_id === state.branchId),
  );
}

export interface CalendarScreenProps {
  type: CalendarType;
  /** what draws the entries: FullCalendar (`CalendarView`), given by the page so only the page's chunk holds it */
  view: ComponentType<CalendarViewProps>;
}

/**
 * A calendar screen (`/calendar` month, `/calendar/list` list): its state is the query string (date, sources,
 * branch), its data `GET /api/calendars` for the days it shows. No spinner: the page-progress bar is the loading
 * signal, and the previous answer stays on show until the new one arrives.
 */
export function CalendarScreen({ type, view: View }: CalendarScreenProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const today = useMemo(() => businessToday(), []);
  const state = useMemo(() => readCalendarState(search, today), [search, today]);
  const lang = currentLocale();
  // read again each time the screen opens: an intake or entry saved elsewhere since the last visit shows at once
  const { data, error, isFetching } = useCalendarFeedQuery(feedArgs(type, state, lang), {
    refetchOnMountOrArgChange: true,
  });
  const entries = useMemo(() => entriesShown(data?.items, state), [data, state]);

  return (
    <div className="calendar-screen" data-testid={`calendar-${type}`} aria-busy={isFetching}>
      <PageHeader title={t(type === 'list' ? 'calendar.listTitle' : 'calendar.title')} />
      <CalendarToolbar
        type={type}
        state={state}
        today={today}
        sources={data?.sources ?? []}
        error={feedErrorText(error, t)}
        // the query string as written (`sources=holiday,interview`, commas kept readable)
        onChange={(next) => navigate({ search: calendarSearch(next) })}
      />
      <View type={type} date={state.date} entries={entries} lang={lang} onOpen={(url) => navigate(url)} />
    </div>
  );
}
