import { BRANCH_PICK, invoiceFromQuery, newOfInvoicePath } from './money-common';

describe('a receipt or refund opened from its invoice', () => {
  it('carries the invoice, its branch and currency in the address, and the form starts from them', () => {
    const path = newOfInvoicePath('/orders/receipt', {
      id: 12,
      branch_id: 3,
      currency: 'KRW',
      order_no: 'INV-MK-2026-0007',
      branch_name: 'Mong Kok',
    });
    expect(path).toBe(
      '/orders/receipt/create?order_id=12&branch_id=3&currency=KRW&order_no=INV-MK-2026-0007&branch_name=Mong+Kok',
    );
    const query = Object.fromEntries(new URL(path, 'http://x').searchParams);
    expect(invoiceFromQuery(query)).toEqual({ [BRANCH_PICK]: 3, order_id: 12, currency: 'KRW' });
  });

  it('starts empty (branch first) without a whole invoice in the address', () => {
    expect(invoiceFromQuery({})).toEqual({});
    expect(invoiceFromQuery({ order_id: '12' })).toEqual({});
    expect(invoiceFromQuery({ order_id: 'x', branch_id: '3' })).toEqual({});
    expect(invoiceFromQuery({ order_id: '-1', branch_id: '3' })).toEqual({});
  });
});
