import { FIELD_MESSAGES } from '../../../shared/messages';
import baseEn from './en.json';
import messagesZhHK from './messages.zh_HK.json';
import baseZhHK from './zh_HK.json';
import resourceEn from '../components/resource/locales/en.json';
import resourceZhHK from '../components/resource/locales/zh_HK.json';
import settingsEn from '../features/settings/locales/en.json';
import settingsZhHK from '../features/settings/locales/zh_HK.json';
import profileEn from '../features/profile/locales/en.json';
import profileZhHK from '../features/profile/locales/zh_HK.json';
import apiTokensEn from '../features/api-tokens/locales/en.json';
import apiTokensZhHK from '../features/api-tokens/locales/zh_HK.json';
import accountsEn from '../features/settings-accounts/locales/en.json';
import accountsZhHK from '../features/settings-accounts/locales/zh_HK.json';
import filesEn from '../features/files/locales/en.json';
import filesZhHK from '../features/files/locales/zh_HK.json';
import calendarEn from '../features/calendar/locales/en.json';
import calendarZhHK from '../features/calendar/locales/zh_HK.json';
import schoolsEn from '../features/schools/locales/en.json';
import schoolsZhHK from '../features/schools/locales/zh_HK.json';
import studentsEn from '../features/students/locales/en.json';
import studentsZhHK from '../features/students/locales/zh_HK.json';
import portalEn from '../features/portal/locales/en.json';
import portalZhHK from '../features/portal/locales/zh_HK.json';
import declaredEn from '../../../shared/resources/locales/en.json';
import declaredZhHK from '../../../shared/resources/locales/zh_HK.json';

type Dictionary = { [key: string]: string | Dictionary };

/** The server's field messages: English from the catalog itself (shared/messages.ts), so it cannot drift. */
const messagesEn: Dictionary = { serverMessages: { ...FIELD_MESSAGES } };

/**
 * Every string a person sees, per language: the shell's (`en.json`, `zh_HK.json` here) and each feature's
 * own `features/<area>/locales/{en,zh_HK}.json`, added to the two lists below, and the declared resources'
 * (`shared/resources/locales`, `resources.<name>.*`). Keys must not collide.
 */
const EN: Dictionary[] = [
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
  studentsEn,
  portalEn,
  declaredEn,
];
const ZH_HK: Dictionary[] = [
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
  studentsZhHK,
  portalZhHK,
  declaredZhHK,
];

function merge(parts: Dictionary[]): Dictionary {
  const out: Dictionary = {};
  const into = (target: Dictionary, source: Dictionary, path: string) => {
    for (const [key, value] of Object.entries(source)) {
      const existing = target[key];
      if (typeof value === 'string') {
        if (existing !== undefined) throw new Error(`Duplicate locale key ${path}${key}`);
        target[key] = value;
      } else {
        if (typeof existing === 'string')
          throw new Error(`Locale key ${path}${key} is both a string and a group`);
        target[key] = existing ?? {};
        into(target[key] as Dictionary, value, `${path}${key}.`);
      }
    }
  };
  for (const part of parts) into(out, part, '');
  return out;
}

export const en = merge(EN) as typeof baseEn;
export const zhHK = merge(ZH_HK) as typeof baseZhHK;
