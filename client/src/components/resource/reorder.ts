/**
 * The order after dropping the row `dragged` on the row `target` (the list page's drag to reorder): dragged
 * down, it lands after the target; dragged up, before it. An unknown id or a drop on itself changes nothing.
 */
export function reorderIds(ids: readonly number[], dragged: number, target: number): number[] {
  const from = ids.indexOf(dragged);
  const to = ids.indexOf(target);
  if (from < 0 || to < 0 || from === to) return [...ids];
  const order = ids.filter((id) => id !== dragged);
  order.splice(order.indexOf(target) + (from < to ? 1 : 0), 0, dragged);
  return order;
}

/**
 * Every id of a list in its order, read page by page until the list's total (`PUT …/order` takes the whole
 * list, while the screen shows one page, perhaps filtered).
 */
export async function allIds(
  readPage: (page: number) => Promise<{ items: { id: number }[]; total: number }>,
): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const { items, total } = await readPage(page);
    ids.push(...items.map((item) => item.id));
    if (items.length === 0 || ids.length >= total) return ids;
  }
}
