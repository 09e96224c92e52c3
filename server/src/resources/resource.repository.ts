import type { Knex } from 'knex';
import type { Trx } from '../db/knex';
import { toDbDateTime } from '../lib/clock';
import type { ResourceDefinition, Row } from './resource';

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The branch a branch-scoped caller is limited to; null for callers who see every branch. */
export type BranchScope = { branchId: number | null } | null;

function applyScope(qb: Knex.QueryBuilder, def: ResourceDefinition, scope: BranchScope): void {
  for (const [column, value] of Object.entries(def.fixed ?? {})) qb.where(`${def.table}.${column}`, value);
  if (!scope || !def.branchColumn) return;
  if (scope.branchId === null) qb.whereRaw('1 = 0');
  else qb.where(`${def.table}.${def.branchColumn}`, scope.branchId);
}

export interface ListParams {
  page: number;
  perPage: number;
  q?: string;
  sort: { column: string; direction: 'asc' | 'desc' };
  filters: Row;
  scope: BranchScope;
}

/**
 * The generic repository: the only place resource rows are read and written. Every resource table has
 * `created_at`, `updated_at`, `created_by` and `updated_by` (domain.md conventions).
 */
/** The rows a list shows: branch scope, fixed columns, filters and search, not yet sorted or paged. */
function listQuery(db: Trx, def: ResourceDefinition, params: Omit<ListParams, 'page' | 'perPage'>) {
  const base = db(def.table);
  applyScope(base, def, params.scope);
  def.applyFilters?.(base, params.filters);
  if (params.q && def.searchable.length) {
    const pattern = `%${escapeLike(params.q)}%`;
    base.where((w) => {
      for (const column of def.searchable) w.orWhereRaw('?? like ? escape ?', [column, pattern, '\\']);
    });
  }
  return base;
}

function page(qb: Knex.QueryBuilder, params: Pick<ListParams, 'sort'>, pageNo: number, perPage: number) {
  return qb
    .select('*')
    .orderBy(params.sort.column, params.sort.direction)
    .orderBy('id', params.sort.direction)
    .limit(perPage)
    .offset((pageNo - 1) * perPage);
}

export const resourceRepository = {
  async list(db: Trx, def: ResourceDefinition, params: ListParams): Promise<{ rows: Row[]; total: number }> {
    const base = listQuery(db, def, params);
    const counted = await base.clone().count({ total: '*' }).first();
    const rows = await page(base.clone(), params, params.page, params.perPage);
    return { rows, total: Number(counted?.total ?? 0) };
  },

  /** One batch of an export: the list's rows in its order, without counting. */
  batch(
    db: Trx,
    def: ResourceDefinition,
    params: Omit<ListParams, 'page' | 'perPage'>,
    pageNo: number,
    size: number,
  ): Promise<Row[]> {
    return page(listQuery(db, def, params), params, pageNo, size);
  },

  hasTable(db: Trx, table: string): Promise<boolean> {
    return db.schema.hasTable(table);
  },

  findById(
    db: Trx,
    def: ResourceDefinition,
    id: number,
    scope: BranchScope = null,
  ): Promise<Row | undefined> {
    const qb = db(def.table).where(`${def.table}.id`, id);
    applyScope(qb, def, scope);
    return qb.first();
  },

  findWhere(
    db: Trx,
    table: string,
    where: (qb: Knex.QueryBuilder) => void,
    columns: string[] = ['*'],
  ): Promise<Row[]> {
    const qb = db(table);
    where(qb);
    return qb.select(columns);
  },

  async insert(db: Trx, def: ResourceDefinition, data: Row, actorId: number | null): Promise<number> {
    const now = toDbDateTime();
    const [id] = await db(def.table).insert({
      ...data,
      created_at: now,
      updated_at: now,
      created_by: actorId,
      updated_by: actorId,
    });
    return Number(id);
  },

  async update(
    db: Trx,
    def: ResourceDefinition,
    id: number,
    data: Row,
    actorId: number | null,
  ): Promise<void> {
    await db(def.table)
      .where({ id })
      .update({
        ...data,
        updated_at: toDbDateTime(),
        updated_by: actorId,
      });
  },

  async delete(db: Trx, def: ResourceDefinition, id: number): Promise<void> {
    await db(def.table).where({ id }).delete();
  },

  async count(db: Trx, table: string, column: string, value: unknown): Promise<number> {
    const row = await db(table)
      .where(column, value as never)
      .count({ n: '*' })
      .first();
    return Number(row?.n ?? 0);
  },

  /** A row other than `excludeId` holding the same values in `columns` (NULL equal to NULL). */
  async findDuplicate(
    db: Trx,
    table: string,
    values: Row,
    excludeId: number | null,
  ): Promise<Row | undefined> {
    const qb = db(table);
    for (const [column, value] of Object.entries(values)) {
      if (value === null || value === undefined) qb.whereNull(column);
      else qb.where(column, value);
    }
    if (excludeId !== null) qb.whereNot('id', excludeId);
    return qb.first('id');
  },
};
