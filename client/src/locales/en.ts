import { FIELD_MESSAGES } from '../../../shared/messages';
import baseEn from './en.json';
import resourceEn from '../components/resource/locales/en.json';
import settingsEn from '../features/settings/locales/en.json';
import profileEn from '../features/profile/locales/en.json';
import apiTokensEn from '../features/api-tokens/locales/en.json';
import accountsEn from '../features/settings-accounts/locales/en.json';
import filesEn from '../features/files/locales/en.json';
import calendarEn from '../features/calendar/locales/en.json';
import schoolsEn from '../features/schools/locales/en.json';
import catalogueEn from '../features/catalogue/locales/en.json';
import studentsEn from '../features/students/locales/en.json';
import portalEn from '../features/portal/locales/en.json';
import declaredEn from '../../../shared/resources/locales/en.json';
import reportsEn from '../../../shared/reports/locales/en.json';
import reportEn from '../components/report/locales/en.json';
import dashboardEn from '../features/dashboard/locales/en.json';
import salesEn from '../features/sales/locales/en.json';
import moneyEn from '../features/money/locales/en.json';
import { merge, type Dictionary } from './catalogue';

/** The server's field messages: English from the catalog itself (shared/messages.ts), so it cannot drift. */
const messagesEn: Dictionary = { serverMessages: { ...FIELD_MESSAGES } };

/**
 * Every English string a person sees: the shell's (`en.json` here), each feature's own
 * `features/<area>/locales/en.json` (add a new one here and in zh_HK.ts) and the declared resources'
 * (`shared/resources/locales`, `resources.<name>.*`). A chunk of its own: the browser loads only the language in
 * use (i18n/i18n.ts).
 */
export const en = merge([
  baseEn,
  messagesEn,
  resourceEn,
  settingsEn,
  profileEn,
  apiTokensEn,
  accountsEn,
  filesEn,
  calendarEn,
  schoolsEn,
  catalogueEn,
  studentsEn,
  portalEn,
  declaredEn,
  reportsEn,
  reportEn,
  dashboardEn,
  salesEn,
  moneyEn,
]) as typeof baseEn;
