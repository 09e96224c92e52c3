import { lazy, Suspense } from 'react';
import { formatMinor } from '../../../../shared/money';
import type { ResourceDeclaration } from '../../../../shared/resources/declaration';
import { collectionRows, type DeclarationOverrides } from '../../components/resource/from-declaration';
import { StateTag } from '../../components/resource/renderers';
import type { ResourceField, ResourceRow } from '../../components/resource/types';

const LinesInput = lazy(() => import('../../components/resource/lines-input'));

/** The `lines` collection of a sales document edited with the lines editor (its preview, its sources). */
export function linesField(decl: ResourceDeclaration): Partial<ResourceField> {
  const collection = decl.collections!.lines;
  return {
    input: {
      type: 'group',
      body: (value) => collectionRows(collection, value),
      render: (p) => (
        <Suspense fallback={null}>
          <LinesInput {...p} resource={decl.name} collection={collection} />
        </Suspense>
      ),
    },
  };
}

/** A money cell in its currency's decimals, written from the integer (no float): `1,234.50`, `KRW 1,500,000`. */
export function moneyCell(field: string) {
  return (row: ResourceRow) => {
    const value = row[field];
    if (typeof value !== 'number') return null;
    return (
      <span style={{ whiteSpace: 'nowrap' }} data-money={field}>
        {String(row.currency ?? '')} {formatMinor(value, row.currency as string)}
      </span>
    );
  };
}

/** What both documents' screens change: the lines editor, the status as a tag, money cells, page totals. */
export function salesOverrides(
  decl: ResourceDeclaration,
  totals: readonly string[],
): Pick<DeclarationOverrides, 'fields' | 'columns' | 'pageTotals' | 'formMaxWidth'> {
  const columns: NonNullable<Exclude<DeclarationOverrides['columns'], (...args: never[]) => unknown>> = {
    status: {
      render: (row) => <StateTag resource={decl.name} values={decl.states!.values} value={row.status} />,
    },
  };
  for (const field of totals) columns[field] = { render: moneyCell(field) };
  return {
    // subtotal, discount and total: under the lines, kept in step as they are typed, not a second time below them
    fields: { lines: linesField(decl), subtotal: false, discount_total: false, total: false },
    columns,
    pageTotals: { fields: totals },
    // the lines' table takes the width of the screen
    formMaxWidth: 1240,
  };
}
