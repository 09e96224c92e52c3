import messagesZhHK from './messages.zh_HK.json';
import baseZhHK from './zh_HK.json';
import resourceZhHK from '../components/resource/locales/zh_HK.json';
import settingsZhHK from '../features/settings/locales/zh_HK.json';
import profileZhHK from '../features/profile/locales/zh_HK.json';
import apiTokensZhHK from '../features/api-tokens/locales/zh_HK.json';
import accountsZhHK from '../features/settings-accounts/locales/zh_HK.json';
import filesZhHK from '../features/files/locales/zh_HK.json';
import calendarZhHK from '../features/calendar/locales/zh_HK.json';
import schoolsZhHK from '../features/schools/locales/zh_HK.json';
import catalogueZhHK from '../features/catalogue/locales/zh_HK.json';
import studentsZhHK from '../features/students/locales/zh_HK.json';
import portalZhHK from '../features/portal/locales/zh_HK.json';
import declaredZhHK from '../../../shared/resources/locales/zh_HK.json';
import reportsZhHK from '../../../shared/reports/locales/zh_HK.json';
import reportZhHK from '../components/report/locales/zh_HK.json';
import dashboardZhHK from '../features/dashboard/locales/zh_HK.json';
import salesZhHK from '../features/sales/locales/zh_HK.json';
import moneyZhHK from '../features/money/locales/zh_HK.json';
import { merge } from './catalogue';

/**
 * Every Traditional Chinese (Hong Kong) string a person sees, from the same parts as en.ts. A chunk of its own:
 * the browser loads only the language in use (i18n/i18n.ts).
 */
export const zhHK = merge([
  baseZhHK,
  messagesZhHK,
  resourceZhHK,
  settingsZhHK,
  profileZhHK,
  apiTokensZhHK,
  accountsZhHK,
  filesZhHK,
  calendarZhHK,
  schoolsZhHK,
  catalogueZhHK,
  studentsZhHK,
  portalZhHK,
  declaredZhHK,
  reportsZhHK,
  reportZhHK,
  dashboardZhHK,
  salesZhHK,
  moneyZhHK,
]) as typeof baseZhHK;
