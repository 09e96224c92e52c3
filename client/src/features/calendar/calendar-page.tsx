import { CalendarScreen } from './calendar-screen';
import { CalendarView } from './calendar-view';

/** /calendar (calendar.view): the month, as a six-week grid from Sunday. */
export default function CalendarPage() {
  return <CalendarScreen type="basic" view={CalendarView} />;
}
