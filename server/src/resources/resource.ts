import type { Knex } from 'knex';
import type { z } from 'zod';
import type { Module } from '../../../shared/permissions';
import type { Trx } from '../db/knex';

export type Row = Record<string, any>;

/** A table whose rows keep this record from being deleted; `key` names it in the 409 body. */
export interface Reference {
  table: string;
  column: string;
  key: string;
}

/**
 * One entity, declared: everything the generic repository, service and routes need to serve its CRUD.
 * An entity writes its own service or routes only for what is really its own.
 */
export interface ResourceDefinition {
  /** entity name in audit rows and messages (singular, snake_case) */
  name: string;
  /** path under /api */
  path: string;
  table: string;
  /** permission module: the routes need `${module}.view|create|update|delete` */
  module: Module;
  schemas: {
    create: z.ZodObject;
    update: z.ZodObject;
    /** per-resource list filters, parsed with the list query */
    filters?: z.ZodObject;
  };
  searchable: string[];
  sortable: string[];
  /** `column` or `-column` */
  defaultSort: string;
  /** column sets that must be unique; the duplicate error is reported on the last column */
  unique?: string[][];
  references?: Reference[];
  /** columns stored as 0/1 that the API shows as booleans */
  booleans?: string[];
  applyFilters?: (qb: Knex.QueryBuilder, filters: Row) => void;
  /** related rows added to list items and single records */
  expand?: (db: Trx, rows: Row[]) => Promise<Row[]>;
  /** what `GET /create` answers besides the defaults */
  createForm?: (db: Trx) => Promise<Row>;
  /** rules that need the database, checked inside the write transaction */
  beforeWrite?: (db: Trx, data: Row, existing: Row | null) => Promise<void>;
}
