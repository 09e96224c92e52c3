import {
  AppstoreAddOutlined,
  FileTextOutlined,
  FolderOutlined,
  OrderedListOutlined,
  ShopOutlined,
  StarOutlined,
} from '@ant-design/icons';
import type { MenuGroup } from '../../app/routes/types';
import type { DeclaredPageOptions } from '../../components/resource/declared-routes';

/**
 * The catalogue's screens beyond their declarations (shared/resources/products.ts, special-events.ts,
 * quotation-items.ts): the spec's routes, lists, forms, filters, import and export all derive from them; this names
 * the menu groups (the spec's "service and category"; quotations, whose list a later issue adds) and icons, and the
 * special events' overrides module (their date window, loaded with the screens).
 */
export const CATALOGUE_MENU_GROUPS: MenuGroup[] = [
  { id: 'products', labelKey: 'menu.products', icon: ShopOutlined, order: 110 },
  { id: 'quotations', labelKey: 'menu.quotations', icon: FileTextOutlined, order: 120 },
];

export const CATALOGUE_PAGES: Readonly<Record<string, DeclaredPageOptions>> = {
  product_category: { icon: FolderOutlined },
  product: { icon: AppstoreAddOutlined },
  special_event: { icon: StarOutlined, overrides: () => import('./special-events-overrides') },
  quotation_item: { icon: OrderedListOutlined },
};
