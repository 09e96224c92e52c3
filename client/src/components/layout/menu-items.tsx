import type { MenuProps } from 'antd';
import type { MenuNode } from '../../app/routes/menu';

type MenuItems = NonNullable<MenuProps['items']>;

/** The route table's menu as antd Menu items, labels translated. */
export function toMenuItems(nodes: MenuNode[], t: (key: string) => string): MenuItems {
  return nodes.map((node) => {
    const Icon = node.icon;
    const icon = Icon ? <Icon /> : undefined;
    if ('children' in node) {
      return { key: node.key, icon, label: t(node.labelKey), children: toMenuItems(node.children, t) };
    }
    return { key: node.key, icon, label: t(node.labelKey) };
  });
}
