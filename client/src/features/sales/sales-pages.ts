import { AccountBookOutlined, FileDoneOutlined, FileProtectOutlined } from '@ant-design/icons';
import type { MenuGroup } from '../../app/routes/types';
import type { DeclaredPageOptions } from '../../components/resource/declared-routes';

/**
 * The sales documents' screens beyond their declarations (shared/resources/sales.ts): the spec's routes
 * (`/quotations`, `/quotations/basic/create`, `/quotations/{basic,contract}/:id`, `/orders/order(/create|/:id)`),
 * lists, forms, filters, exports, moves and prints all derive from them; this names the invoices' menu group
 * (quotations go under the catalogue's), the icons and the overrides modules (the lines editor, the list's totals
 * per currency, convert and e-mail), loaded with the screens.
 */
export const SALES_MENU_GROUPS: MenuGroup[] = [
  { id: 'orders', labelKey: 'menu.orders', icon: AccountBookOutlined, order: 125 },
];

export const SALES_PAGES: Readonly<Record<string, DeclaredPageOptions>> = {
  quotation: { icon: FileProtectOutlined, overrides: () => import('./quotations-overrides') },
  order: { icon: FileDoneOutlined, overrides: () => import('./orders-overrides') },
};
