import { BankOutlined } from '@ant-design/icons';
import type { DeclaredPageOptions } from '../../components/resource/declared-routes';

/**
 * The schools' screens beyond their declarations (shared/resources/schools.ts): the spec's routes, tabs, list
 * filters, subject import and export all derive from them; this names the menu icon and the overrides module
 * (loaded with the screens).
 */
export const SCHOOL_PAGE: DeclaredPageOptions = {
  icon: BankOutlined,
  overrides: () => import('./schools-overrides'),
};
