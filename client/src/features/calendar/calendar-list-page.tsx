import { CalendarScreen } from './calendar-screen';
import { CalendarView } from './calendar-view';

/** /calendar/list (calendar.view): the month's entries as a list, day by day. */
export default function CalendarListPage() {
  return <CalendarScreen type="list" view={CalendarView} />;
}
