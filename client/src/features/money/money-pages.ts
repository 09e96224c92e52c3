import { DollarOutlined, RollbackOutlined } from '@ant-design/icons';
import type { DeclaredPageOptions } from '../../components/resource/declared-routes';

/**
 * The receipts' and refunds' screens beyond their declarations (shared/resources/money.ts): the spec's routes
 * (`/orders/receipt`, `/orders/refund(/create|/:id)`) under the invoices' menu group, lists, forms, filters,
 * exports, moves and prints derived; this names the icons and the overrides (tags, money cells, page totals,
 * the branch before the invoice).
 */
export const MONEY_PAGES: Readonly<Record<string, DeclaredPageOptions>> = {
  receipt: { icon: DollarOutlined, overrides: () => import('./receipts-overrides') },
  refund: { icon: RollbackOutlined, overrides: () => import('./refunds-overrides') },
};
