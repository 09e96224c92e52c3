import { reorderIds } from './reorder';

describe('reorderIds (drag a row onto another)', () => {
  const ids = [10, 20, 30, 40, 50];

  it('puts a row dragged up before the row it is dropped on', () => {
    expect(reorderIds(ids, 50, 10)).toEqual([50, 10, 20, 30, 40]);
    expect(reorderIds(ids, 40, 20)).toEqual([10, 40, 20, 30, 50]);
  });

  it('puts a row dragged down after the row it is dropped on', () => {
    expect(reorderIds(ids, 10, 50)).toEqual([20, 30, 40, 50, 10]);
    expect(reorderIds(ids, 20, 40)).toEqual([10, 30, 40, 20, 50]);
  });

  it('swaps neighbours either way', () => {
    expect(reorderIds(ids, 20, 30)).toEqual([10, 30, 20, 40, 50]);
    expect(reorderIds(ids, 30, 20)).toEqual([10, 30, 20, 40, 50]);
  });

  it('keeps the order for a drop on itself or an id not in the list, and never mutates its input', () => {
    const input = [...ids];
    expect(reorderIds(input, 30, 30)).toEqual(ids);
    expect(reorderIds(input, 99, 10)).toEqual(ids);
    expect(reorderIds(input, 10, 99)).toEqual(ids);
    expect(input).toEqual(ids);
  });

  it('returns every id exactly once (what PUT …/order requires)', () => {
    for (const dragged of ids) {
      for (const target of ids) {
        const order = reorderIds(ids, dragged, target);
        expect([...order].sort((a, b) => a - b)).toEqual(ids);
      }
    }
  });
});
