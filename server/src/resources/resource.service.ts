import type { Knex } from 'knex';
import type { ListResponse } from '../../../shared/list';
import { AppError } from '../lib/app-error';
import { fromDbDateTime } from '../lib/clock';
import type { RequestContext } from '../http/context';
import { auditService } from '../modules/audit/audit.service';
import { numberingService } from '../modules/numbering/numbering.service';
import type { Trx } from '../db/knex';
import { can } from '../../../shared/permissions';
import type { ResourceAction, ResourceDefinition, Row } from './resource';
import { resourceRepository } from './resource.repository';
import { fieldMessage } from '../../../shared/messages';

const TIMESTAMPS = ['created_at', 'updated_at'];
const EXPORT_BATCH = 2000;

export interface ListInput {
  page: number;
  per_page: number;
  q?: string;
  sort?: string;
  [filter: string]: unknown;
}

export interface ExportInput {
  q?: string;
  sort?: string;
  [filter: string]: unknown;
}

/** The generic service: list, read, create, update and delete for any declared resource. */
export function createResourceService(db: Knex, def: ResourceDefinition) {
  const toResponse = (row: Row): Row => {
    const out: Row = { ...row };
    for (const column of def.booleans ?? []) if (column in out) out[column] = Boolean(out[column]);
    for (const column of TIMESTAMPS) if (column in out) out[column] = fromDbDateTime(out[column]);
    for (const column of def.hidden ?? []) delete out[column];
    return def.toResponse ? def.toResponse(out) : out;
  };
  const permissionOf = (action: ResourceAction) => def.permissions?.[action] ?? `${def.module}.${action}`;
  const WRITE_ACTIONS = def.readOnly ? [] : (['update', 'delete'] as const);

  /** The caller's permissions as `can` reads them. */
  const holder = (ctx: RequestContext) =>
    ctx.access ? { is_admin: ctx.access.isAdmin, permissions: ctx.access.permissions } : null;

  /**
   * Rows as the API shows them, each with `allowed_actions`: the writes this caller may make on it now (it holds
   * the permission, and the record is not refused by the resource's access rules), and `refusal`: why the
   * access rules refuse it (a catalogued message the client translates), or null.
   */
  const present = async (trx: Trx, rows: Row[], ctx: RequestContext): Promise<Row[]> => {
    const mapped = rows.map(toResponse);
    const expanded = def.expand ? await def.expand(trx, mapped) : mapped;
    const held = WRITE_ACTIONS.filter((action) => can(holder(ctx), permissionOf(action)));
    const refused = held.length && def.refusals ? await def.refusals(trx, rows, ctx) : null;
    return expanded.map((row) => {
      const refusal = refused?.get(row.id) ?? null;
      return { ...row, allowed_actions: refusal ? [] : held, refusal };
    });
  };

  /** A write to a record the access rules keep from this caller: 403 with the reason. */
  async function assertNotRefused(trx: Trx, row: Row, ctx: RequestContext): Promise<void> {
    if (!def.refusals) return;
    const reason = (await def.refusals(trx, [row], ctx)).get(row.id);
    if (reason) throw new AppError('insufficient_rights', reason);
  }

  async function mustFind(trx: Trx, id: number, ctx: RequestContext | null): Promise<Row> {
    const row = await resourceRepository.findById(trx, def, id, ctx?.branchScope ?? null);
    if (!row) throw new AppError('not_found');
    return row;
  }

  /** A branch-scoped caller cannot write a row into another branch: that branch does not exist for them. */
  function checkBranch(data: Row, ctx: RequestContext): void {
    const scope = ctx.branchScope;
    if (!scope || !def.branchColumn || !(def.branchColumn in data)) return;
    if (data[def.branchColumn] !== scope.branchId) throw new AppError('not_found');
  }

  async function checkUnique(trx: Trx, data: Row, existing: Row | null): Promise<void> {
    for (const columns of def.unique ?? []) {
      if (!columns.some((c) => c in data)) continue;
      const values = Object.fromEntries(columns.map((c) => [c, c in data ? data[c] : existing?.[c]]));
      const duplicate = await resourceRepository.findDuplicate(trx, def.table, values, existing?.id ?? null);
      if (duplicate) throw AppError.field('duplicate', columns[columns.length - 1]);
    }
  }

  function parseSort(sort: string | undefined): { column: string; direction: 'asc' | 'desc' } {
    const value = sort ?? def.defaultSort;
    const column = value.replace(/^-/, '');
    if (!def.sortable.includes(column)) {
      throw AppError.field('validation', 'sort', fieldMessage('sortUnsupported', { column }));
    }
    return { column, direction: value.startsWith('-') ? 'desc' : 'asc' };
  }

  return {
    definition: def,

    async list(input: ListInput, ctx: RequestContext): Promise<ListResponse<Row>> {
      const { page, per_page, q, sort, ...filters } = input;
      const { rows, total } = await resourceRepository.list(db, def, {
        page,
        perPage: per_page,
        q,
        sort: parseSort(sort),
        filters,
        scope: ctx.branchScope,
      });
      return { items: await present(db, rows, ctx), total, page, per_page };
    },

    /**
     * Every row matching the list's filter, search and sort (not one page), as the API shows them, read in
     * batches so that a large export never holds the whole table or the connection.
     */
    async *exportRows(input: ExportInput, ctx: RequestContext): AsyncGenerator<Row[]> {
      const { q, sort, ...filters } = input;
      const params = { q, sort: parseSort(sort), filters, scope: ctx.branchScope };
      for (let page = 1; ; page++) {
        const rows = await resourceRepository.batch(db, def, params, page, EXPORT_BATCH);
        if (rows.length) yield await present(db, rows, ctx);
        if (rows.length < EXPORT_BATCH) return;
      }
    },

    async get(id: number, ctx: RequestContext): Promise<Row> {
      const [row] = await present(db, [await mustFind(db, id, ctx)], ctx);
      return row;
    },

    /**
     * The record, when this caller may change it: 404 outside its branch scope, 403 when the access rules keep
     * it from the caller (an action outside the generic routes on a record of this resource: a user's 2FA reset).
     */
    async mustBeChangeable(id: number, ctx: RequestContext): Promise<Row> {
      const row = await mustFind(db, id, ctx);
      await assertNotRefused(db, row, ctx);
      return row;
    },

    async createForm(ctx: RequestContext): Promise<Row> {
      return { defaults: {}, ...(def.createForm ? await def.createForm(db, ctx) : {}) };
    },

    async create(body: Row, ctx: RequestContext): Promise<Row> {
      const input = def.fixed ? { ...body, ...def.fixed } : body;
      return db.transaction(async (trx) => {
        checkBranch(input, ctx);
        await def.beforeWrite?.(trx, input, null, ctx);
        await checkUnique(trx, input, null);
        const data = def.prepare ? await def.prepare(trx, input, null) : input;
        if (def.numbering && data[def.numbering.column] == null) {
          const { column, document, branchColumn } = def.numbering;
          data[column] = await numberingService.next(trx, document, branchColumn ? data[branchColumn] : null);
        }
        const id = await resourceRepository.insert(trx, def, data, ctx.actor.id);
        const row = await mustFind(trx, id, null);
        await def.afterWrite?.(trx, row, null, ctx);
        await auditService.record(trx, ctx, {
          action: 'create',
          entity: def.name,
          entityId: id,
          before: null,
          after: row,
        });
        const [out] = await present(trx, [row], ctx);
        return out;
      });
    },

    async update(id: number, input: Row, ctx: RequestContext): Promise<Row> {
      return db.transaction(async (trx) => {
        const before = await mustFind(trx, id, ctx);
        await assertNotRefused(trx, before, ctx);
        checkBranch(input, ctx);
        await def.beforeWrite?.(trx, input, before, ctx);
        await checkUnique(trx, input, before);
        const data = def.prepare ? await def.prepare(trx, input, before) : input;
        if (Object.keys(data).length) await resourceRepository.update(trx, def, id, data, ctx.actor.id);
        const after = await mustFind(trx, id, null);
        await def.afterWrite?.(trx, after, before, ctx);
        await auditService.record(trx, ctx, {
          action: 'update',
          entity: def.name,
          entityId: id,
          before,
          after,
        });
        const [out] = await present(trx, [after], ctx);
        return out;
      });
    },

    /** Refused with 409 and the count of each kind of record that still refers to it. */
    async remove(id: number, ctx: RequestContext): Promise<void> {
      const afterCommit = await db.transaction(async (trx) => {
        const before = await mustFind(trx, id, ctx);
        await assertNotRefused(trx, before, ctx);
        const references: Record<string, number> = {};
        for (const ref of def.references ?? []) {
          if (ref.whenTableExists && !(await resourceRepository.hasTable(trx, ref.table))) continue;
          const n = await resourceRepository.count(trx, ref.table, ref.column, before[ref.field ?? 'id']);
          if (n > 0) references[ref.key] = (references[ref.key] ?? 0) + n;
        }
        if (Object.keys(references).length) {
          const list = Object.entries(references)
            .map(([key, n]) => `${n} ${key.replace(/_/g, ' ')}`)
            .join(', ');
          const hint = def.referencedHint ? ` ${def.referencedHint}` : '';
          throw new AppError(
            'referenced',
            `This ${def.name.replace(/_/g, ' ')} is still used by ${list}.${hint}`,
            { references },
          );
        }
        await def.beforeDelete?.(trx, before, ctx);
        await resourceRepository.delete(trx, def, id);
        await auditService.record(trx, ctx, {
          action: 'delete',
          entity: def.name,
          entityId: id,
          before,
          after: null,
        });
        return def.afterDelete?.(trx, before, ctx);
      });
      if (afterCommit) await afterCommit();
    },
  };
}

export type ResourceService = ReturnType<typeof createResourceService>;
