import type { CSSProperties } from 'react';

/**
 * How every list draws its columns so that nothing is cut off at 1366 px in either language (issue 31): a header
 * stays on one line (never one character per line in a narrow column), and a row's actions are a column fixed
 * at the table's right edge: when the other columns need more than the screen, they scroll under it while Edit
 * and Delete stay in view. Used by the declared lists, the media manager, the collections and the checklist.
 */
const ONE_LINE: CSSProperties = { whiteSpace: 'nowrap' };

/** A header cell kept on one line (a column's `onHeaderCell`). */
export const oneLineHeader = () => ({ style: ONE_LINE });

/** The actions column's own settings: fixed at the right edge, its header and buttons on one line. */
export const ACTIONS_COLUMN = {
  fixed: 'right' as const,
  onHeaderCell: oneLineHeader,
  onCell: () => ({ style: ONE_LINE }),
};
