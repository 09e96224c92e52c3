import { allIds, reorderIds } from './reorder';

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

describe('allIds (the whole list behind a page)', () => {
  const list = Array.from({ length: 230 }, (_, i) => ({ id: 1000 + i }));
  const pages = (perPage: number) => {
    const asked: number[] = [];
    const readPage = async (page: number) => {
      asked.push(page);
      return { items: list.slice((page - 1) * perPage, page * perPage), total: list.length };
    };
    return { asked, readPage };
  };

  it('reads page after page until the total, in order', async () => {
    const { asked, readPage } = pages(100);
    expect(await allIds(readPage)).toEqual(list.map((r) => r.id));
    expect(asked).toEqual([1, 2, 3]);
  });

  it('stops after one page when it holds the whole list', async () => {
    const { asked, readPage } = pages(500);
    expect(await allIds(readPage)).toHaveLength(230);
    expect(asked).toEqual([1]);
  });

  it('stops at an empty page (a list that shrank meanwhile)', async () => {
    const asked: number[] = [];
    const ids = await allIds(async (page) => {
      asked.push(page);
      return { items: page === 1 ? [{ id: 1 }, { id: 2 }] : [], total: 5 };
    });
    expect(ids).toEqual([1, 2]);
    expect(asked).toEqual([1, 2]);
  });
});
