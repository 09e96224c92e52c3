import { toDbDateTime } from '../../src/lib/clock';
import type { TestApp } from '../harness';

type Row = Record<string, any>;

let seq = 0;

/** A student inserted straight into the table, in `branchId`, with names in three languages. */
export async function insertStudent(t: TestApp, branchId: number, extra: Row = {}): Promise<number> {
  const now = toDbDateTime();
  const n = ++seq;
  const [id] = await t.db('students').insert({
    student_no: `SL-${n}-${Math.random().toString(36).slice(2, 8)}`,
    branch_id: branchId,
    surname_en: 'CHAN',
    given_name_en: `Tai Man ${n}`,
    language: 'zh_HK',
    created_at: now,
    updated_at: now,
    ...extra,
  });
  return Number(id);
}

/** A service priced in `currency` (its category made once). */
export async function insertProduct(t: TestApp, currency: string, price = 100_000): Promise<number> {
  const now = toDbDateTime();
  let category = await t.db('product_categories').first('id');
  if (!category) {
    const [cid] = await t.db('product_categories').insert({
      name_en: 'Fees',
      name_zh: '費用',
      created_at: now,
      updated_at: now,
    });
    category = { id: cid };
  }
  const n = ++seq;
  const [id] = await t.db('products').insert({
    category_id: category.id,
    code: `SV${n}${Math.random().toString(36).slice(2, 6).toUpperCase()}`,
    name_en: `Service ${n}`,
    name_zh: `服務 ${n}`,
    price,
    currency,
    created_at: now,
    updated_at: now,
  });
  return Number(id);
}

/** A line of `quantity` × `unit_price` minor units less `discount_rate` basis points. */
export function line(quantity: number, unit_price: number, discount_rate = 0, extra: Row = {}): Row {
  return { description: `Line ${++seq}`, quantity, unit_price, discount_rate, ...extra };
}
