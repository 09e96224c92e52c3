import { rangePartner, rangeReversed } from './date-filter';

describe('date range filters', () => {
  it('pairs the two ends of a range by name', () => {
    expect(rangePartner('date_from')).toEqual({ name: 'date_to', end: 'from' });
    expect(rangePartner('created_at_to')).toEqual({ name: 'created_at_from', end: 'to' });
    expect(rangePartner('year')).toBeNull();
  });

  it('finds a range that ends before it starts, from either end; one day or an open end is a range', () => {
    expect(rangeReversed('date_from', '2026-03-02', '2026-03-01')).toBe(true);
    expect(rangeReversed('date_to', '2026-03-01', '2026-03-02')).toBe(true);
    expect(rangeReversed('date_to', '2026-03-01', '2026-03-01')).toBe(false);
    expect(rangeReversed('date_from', '2026-03-01', '2026-03-02')).toBe(false);
    expect(rangeReversed('date_to', '2026-03-01', undefined)).toBe(false);
    expect(rangeReversed('year', '2027', '2026')).toBe(false);
  });
});
