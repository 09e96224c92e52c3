import { en } from './en';
import { zhHK } from './zh_HK';

export type { Dictionary } from './catalogue';

/**
 * Both languages' catalogues at once, for the tests and the catalogue checks (i18n/locales.test.ts). The app does
 * not import this: it loads each language's catalogue (en.ts, zh_HK.ts) when the language is first used
 * (i18n/i18n.ts), so that the first load carries one language.
 */
export { en, zhHK };
