import type { Knex } from 'knex';
import type { ListResponse } from '../../../shared/list';
import { AppError } from '../lib/app-error';
import { userIdOf, type RequestContext } from '../http/context';
import { auditService } from '../modules/audit/audit.service';
import { numberingService } from '../modules/numbering/numbering.service';
import type { Trx } from '../db/knex';
import { can } from '../../../shared/permissions';
import type { ResourceAction, ResourceDefinition, Row } from './resource';
import { listLimits, resourceRepository } from './resource.repository';
import { nameIn, resolveLookups } from './relations';
import { apiDateTime, numberOrNull } from './rows';
import { withinUnit, type UnitOfWork } from './unit-of-work';
import { deleteCollections, saveCollections, splitCollections, withCollections } from './collections';
import { msg } from '../../../shared/messages';
import { sortByLabel } from '../../../shared/collation';

const TIMESTAMPS = ['created_at', 'updated_at'];

/** Whether a row's state column holds one of `states`. */
function inState(states: readonly string[], value: unknown): boolean {
  return typeof value === 'string' && states.includes(value);
}

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
    for (const column of TIMESTAMPS) if (column in out) out[column] = apiDateTime(out[column]);
    for (const column of def.hidden ?? []) delete out[column];
    return def.toResponse ? def.toResponse(out) : out;
  };
  const permissionOf = (action: ResourceAction) => def.permissions?.[action] ?? `${def.module}.${action}`;
  const WRITE_ACTIONS = def.readOnly
    ? []
    : def.declaration?.undeletable
      ? (['update'] as const)
      : (['update', 'delete'] as const);
  const collections = def.declaration?.collections;
  /** One record with the collections it owns (a read of one record, a write's answer and audit row). */
  const whole = (trx: Trx, row: Row, ctx: RequestContext): Promise<Row> =>
    withCollections(trx, collections, row, ctx.language);

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
    const named = def.lookups?.length ? await resolveLookups(trx, def.lookups, mapped, ctx.language) : mapped;
    const expanded = def.expand ? await def.expand(trx, named) : named;
    const held = WRITE_ACTIONS.filter((action) => can(holder(ctx), permissionOf(action)));
    const moves = [
      ...Object.entries(def.states?.actions ?? {}),
      ...Object.entries(def.ownActions ?? {}),
    ].filter(([, move]) => can(holder(ctx), move.permission ?? permissionOf('update')));
    const refused = (held.length || moves.length) && def.refusals ? await def.refusals(trx, rows, ctx) : null;
    // the rows are this call's own copies (toResponse): completed in place, not copied again
    for (const row of expanded) {
      const refusal = refused?.get(Number(row.id)) ?? null;
      if (refusal) {
        row.allowed_actions = [];
        row.refusal = refusal;
        continue;
      }
      const state = def.states ? row[def.states.column] : undefined;
      const possible = moves.filter(([, move]) => inState(move.from, state)).map(([name]) => name);
      const lock = def.locked?.(row) ?? null;
      const writes = lock ? held.filter((action) => action !== 'update' && action !== 'delete') : held;
      row.allowed_actions = possible.length ? [...writes, ...possible] : writes;
      row.refusal = null;
      if (def.locked) row.locked = lock;
    }
    return expanded;
  };

  /** A change to a record its own state keeps as it is (a void invoice): 409 with the reason. */
  function assertNotLocked(row: Row): void {
    const lock = def.locked?.(row);
    if (lock) throw new AppError('conflict', lock);
  }

  /** A write to a record the access rules keep from this caller: 403 with the reason. */
  async function assertNotRefused(trx: Trx, row: Row, ctx: RequestContext): Promise<void> {
    if (!def.refusals) return;
    const reason = (await def.refusals(trx, [row], ctx)).get(Number(row.id));
    if (reason) throw new AppError('insufficient_rights', reason);
  }

  async function mustFind(trx: Trx, id: number, ctx: RequestContext | null): Promise<Row> {
    const row = await resourceRepository.findById(trx, def, id, ctx?.branchScope ?? null);
    if (!row) throw new AppError('not_found');
    return row;
  }

  /** The record, locked for the rest of the unit (a read-modify-write: a state move). */
  async function mustLock(uow: UnitOfWork, id: number, ctx: RequestContext): Promise<Row> {
    await resourceRepository.lockById(uow.trx, def.table, id);
    return mustFind(uow.trx, id, ctx);
  }

  /**
   * A branch-scoped caller cannot write a row into another branch: that branch does not exist for them, nor does
   * a record of another branch that a row's branch follows (a registration's student: `branchVia`).
   */
  async function checkBranch(trx: Trx, data: Row, ctx: RequestContext): Promise<void> {
    const scope = ctx.branchScope;
    if (!scope) return;
    if (def.branchColumn) {
      if (def.branchColumn in data && data[def.branchColumn] !== scope.branchId)
        throw new AppError('not_found');
      return;
    }
    const via = def.branchVia;
    if (via && data[via.column] !== undefined && data[via.column] !== null) {
      if (!(await resourceRepository.inBranch(trx, via, data[via.column], scope)))
        throw new AppError('not_found');
    }
  }

  async function checkUnique(trx: Trx, data: Row, existing: Row | null): Promise<void> {
    for (const columns of def.unique ?? []) {
      if (!columns.some((c) => c in data)) continue;
      const values = Object.fromEntries(columns.map((c) => [c, c in data ? data[c] : existing?.[c]]));
      // an empty value is nobody's value: many students have no passport number or email (a set with some
      // columns filled still compares its empty ones as equal: a top-level area's name among top-level areas)
      if (Object.values(values).every((v) => v === null || v === undefined)) continue;
      const duplicate = await resourceRepository.findDuplicate(
        trx,
        def.table,
        values,
        numberOrNull(existing?.id),
      );
      if (duplicate) throw AppError.field('duplicate', columns[columns.length - 1]);
    }
  }

  function parseSort(sort: string | undefined): { column: string; direction: 'asc' | 'desc' } {
    const value = sort ?? def.defaultSort;
    const column = value.replace(/^-/, '');
    if (!def.sortable.includes(column)) {
      throw AppError.field('validation', 'sort', msg('sortUnsupported', { column }));
    }
    return { column, direction: value.startsWith('-') ? 'desc' : 'asc' };
  }

  return {
    definition: def,

    async list(input: ListInput, ctx: RequestContext): Promise<ListResponse<Row>> {
      const { page, per_page, q, sort, ...filters } = input;
      const { rows, total, totalCapped } = await resourceRepository.list(
        db,
        def,
        { page, perPage: per_page, q, sort: parseSort(sort), filters, scope: ctx.branchScope },
        ctx.signal,
      );
      const items = await present(db, rows, ctx);
      return { items, total, ...(totalCapped ? { total_capped: true } : {}), page, per_page };
    },

    /**
     * Every row matching the list's filter, search and sort (not one page), as the API shows them, read in
     * batches by key (each after the last row of the one before, never OFFSET) so that a large export never holds
     * the whole table or the connection; the event loop serves other requests between batches, and a client that
     * goes away (`ctx.signal`) stops the running query. A tree's children are rows of their own here (the list
     * shows them under their parents), each naming its parent.
     */
    async *exportRows(input: ExportInput, ctx: RequestContext, batchSize?: number): AsyncGenerator<Row[]> {
      const { q, sort, ...filters } = input;
      const params = { q, sort: parseSort(sort), filters, scope: ctx.branchScope, everyRow: true };
      const size = batchSize ?? listLimits.exportBatch;
      for (let after: Row | null = null; ;) {
        const rows = await resourceRepository.batch(db, def, params, after, size, ctx.signal);
        if (rows.length) yield await present(db, rows, ctx);
        if (rows.length < size) return;
        after = rows[rows.length - 1];
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    },

    /**
     * The record; with `tab` (a tab of its page: the spec's data call of that tab), the record with `tab` and what
     * the tab shows besides, under keys of their own (`tabData`: its child lists' first pages, its files).
     */
    async get(id: number, ctx: RequestContext, tab?: string): Promise<Row> {
      const [row] = await present(db, [await whole(db, await mustFind(db, id, ctx), ctx)], ctx);
      if (!tab) return row;
      const extra = def.tabData?.[tab] ? await def.tabData[tab](db, row, ctx) : {};
      return { ...row, tab, ...extra };
    },

    /**
     * The record printed (`?format=pdf`, a declaration's `printable`): read as `get` reads it for this caller (404
     * outside its branch scope), then handed to the resource's printer with the tab asked for.
     */
    async print(id: number, ctx: RequestContext, tab?: string): Promise<{ filename: string; pdf: Buffer }> {
      if (!def.print) throw new AppError('not_found');
      const printable = def.declaration?.printable?.tabs;
      if (tab && !printable?.includes(tab)) throw AppError.field('validation', 'tab', 'chooseListed');
      const [row] = await present(db, [await whole(db, await mustFind(db, id, ctx), ctx)], ctx);
      return def.print(db, row, ctx, tab);
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

    async create(body: Row, ctx: RequestContext, uow?: UnitOfWork): Promise<Row> {
      const input: Row = { ...body, ...(def.fixed ?? {}) };
      return withinUnit(db, uow, async (unit) => {
        const trx = unit.trx;
        if (def.states && input[def.states.column] === undefined)
          input[def.states.column] = def.states.initial;
        await checkBranch(trx, input, ctx);
        await def.beforeWrite?.(trx, input, null, ctx);
        const { own, nested } = splitCollections(collections, input);
        await checkUnique(trx, own, null);
        const data = def.prepare ? await def.prepare(trx, own, null) : own;
        if (def.numbering && data[def.numbering.column] == null) {
          const { column, document, branchColumn } = def.numbering;
          data[column] = await numberingService.next(
            trx,
            document,
            branchColumn ? numberOrNull(data[branchColumn]) : null,
          );
        }
        const id = await resourceRepository.insert(trx, def, data, userIdOf(ctx));
        await saveCollections(trx, collections, id, nested);
        const row = await whole(trx, await mustFind(trx, id, null), ctx);
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

    async update(id: number, input: Row, ctx: RequestContext, uow?: UnitOfWork): Promise<Row> {
      return withinUnit(db, uow, async (unit) => {
        const trx = unit.trx;
        const before = await whole(trx, await mustLock(unit, id, ctx), ctx);
        await assertNotRefused(trx, before, ctx);
        assertNotLocked(before);
        await checkBranch(trx, input, ctx);
        await def.beforeWrite?.(trx, input, before, ctx);
        const { own, nested } = splitCollections(collections, input);
        await checkUnique(trx, own, before);
        const data = def.prepare ? await def.prepare(trx, own, before) : own;
        if (Object.keys(data).length) await resourceRepository.update(trx, def, id, data, userIdOf(ctx));
        await saveCollections(trx, collections, id, nested);
        const after = await whole(trx, await mustFind(trx, id, null), ctx);
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
    async remove(id: number, ctx: RequestContext, uow?: UnitOfWork): Promise<void> {
      if (def.declaration?.undeletable) throw new AppError('not_found');
      await withinUnit(db, uow, async (unit) => {
        const trx = unit.trx;
        const before = await whole(trx, await mustLock(unit, id, ctx), ctx);
        await assertNotRefused(trx, before, ctx);
        assertNotLocked(before);
        const references: Record<string, number> = {};
        for (const ref of def.references ?? []) {
          if (ref.whenTableExists && !(await resourceRepository.hasTable(trx, ref.table))) continue;
          const n = await resourceRepository.count(
            trx,
            ref.table,
            ref.column,
            before[ref.field ?? 'id'],
            ref.where,
          );
          if (n > 0) references[ref.key] = (references[ref.key] ?? 0) + n;
        }
        if (Object.keys(references).length) {
          // the entity and the counts in words (English); clients word them from `references` themselves
          const params = {
            entity: def.name.replace(/_/g, ' '),
            references: Object.entries(references)
              .map(([key, n]) => `${n} ${key.replace(/_/g, ' ')}`)
              .join(', '),
          };
          const message = def.referencedHint
            ? msg('stillUsedByHint', { ...params, hint: { key: def.referencedHint } })
            : msg('stillUsedBy', params);
          throw new AppError('referenced', message, { references });
        }
        const released = await def.beforeDelete?.(trx, before, ctx);
        if (released) unit.afterCommit(released);
        await deleteCollections(trx, collections, id);
        await resourceRepository.delete(trx, def, id);
        await auditService.record(trx, ctx, {
          action: 'delete',
          entity: def.name,
          entityId: id,
          before,
          after: null,
        });
        const afterCommit = await def.afterDelete?.(trx, before, ctx);
        if (afterCommit) unit.afterCommit(afterCommit);
      });
    },

    /**
     * A declared move of the record's state (`POST /api/{resource}/{id}/{action}`): refused with 409
     * `state_conflict` unless the record is in one of the move's `from` states; the resource's guard for it
     * may refuse it for its own reasons, and its `moveEffects` write more columns with the state (a timestamp, a
     * file let go); the move's declared `input` (parsed by the route) is written with it, `remember` keeps the
     * state it leaves and `restore` goes back to the state kept; audited as the action's name.
     */
    async act(
      id: number,
      action: string,
      ctx: RequestContext,
      uow?: UnitOfWork,
      input: Row = {},
    ): Promise<Row> {
      const move = def.states?.actions[action];
      if (!def.states || !move) throw new AppError('not_found');
      const states = def.states;
      if (!can(holder(ctx), move.permission ?? permissionOf('update'))) throw new AppError('forbidden');
      return withinUnit(db, uow, async (unit) => {
        const trx = unit.trx;
        const before = await mustLock(unit, id, ctx);
        await assertNotRefused(trx, before, ctx);
        if (!inState(move.from, before[states.column])) {
          throw new AppError('conflict', move.refused ?? 'stateNotAllowed');
        }
        await def.guards?.[action]?.(trx, before, ctx);
        const effects = (await def.moveEffects?.(trx, action, before, ctx, input)) ?? {};
        // the state it goes to: `to`, or the one a move before remembered (unvoid restores what void left)
        const restored = move.restore ? before[move.restore] : null;
        const to = typeof restored === 'string' && inState(states.values, restored) ? restored : move.to;
        await resourceRepository.update(
          trx,
          def,
          id,
          {
            ...input,
            ...effects.set,
            ...(move.remember ? { [move.remember]: before[states.column] } : {}),
            ...(move.restore ? { [move.restore]: null } : {}),
            [states.column]: to,
          },
          userIdOf(ctx),
        );
        if (effects.afterCommit) unit.afterCommit(effects.afterCommit);
        const after = await mustFind(trx, id, null);
        await def.afterWrite?.(trx, after, before, ctx);
        await auditService.record(trx, ctx, { action, entity: def.name, entityId: id, before, after });
        const [out] = await present(trx, [after], ctx);
        return out;
      });
    },

    /**
     * `id` + `label` of the records matching `q` (a lookup field's choices), in the caller's language, active
     * ones only where the resource has `is_active`; at most `limit`.
     */
    async lookup(
      q: string | undefined,
      ctx: RequestContext,
      limit = 20,
      filters: Row = {},
    ): Promise<{ id: number; label: string }[]> {
      if (!def.label) throw new AppError('not_found');
      const label = def.label;
      // the reader's own name first: the choices kept (at most `limit`) are the first in the reader's language
      const own = ctx.language === 'en' ? label.en : label.zh_HK;
      const rows = await resourceRepository.lookup(db, def, {
        q,
        columns: [...new Set([...own, ...label.en, ...label.zh_HK])],
        searchIn: def.lookupSearch ?? [],
        scope: ctx.branchScope,
        activeOnly: def.booleans?.includes('is_active') ?? false,
        limit,
        filters,
      });
      // in the reader's order (zh_HK: the Chinese names by Hong Kong collation), not the database's
      return sortByLabel(
        rows.map((row) => ({ id: Number(row.id), label: nameIn(row, label, ctx.language) })),
        (choice) => choice.label,
        ctx.language,
      );
    },
  };
}

export type ResourceService = ReturnType<typeof createResourceService>;

/**
 * A child resource seen inside one parent (`/api/schools/5/subjects`): its parent column fixed for reads and
 * writes, so that its rows are that parent's only. What the child routes serve, and a parent's tab lists.
 */
export function serviceWithin(db: Knex, def: ResourceDefinition, parentId: number): ResourceService {
  const parent = def.declaration?.parent;
  if (!parent) throw new Error(`${def.name} declares no parent`);
  return createResourceService(db, { ...def, fixed: { ...(def.fixed ?? {}), [parent.column]: parentId } });
}
