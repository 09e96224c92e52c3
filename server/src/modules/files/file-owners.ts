import { DECLARATIONS } from '../../../../shared/resources';
import type { ResourceDeclaration } from '../../../../shared/resources/declaration';
import { schools } from '../../../../shared/resources/schools';
import { can } from '../../../../shared/permissions';
import type { Trx } from '../../db/knex';
import type { RequestContext } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { usersRepository } from '../users/users.repository';
import { filesRepository, type RecordBranchPath } from './files.repository';

export type Language = RequestContext['language'];

/** The columns naming a record, per language (a declaration's `display`). */
export interface LabelColumns {
  en: readonly string[];
  zh_HK: readonly string[];
}

/**
 * What a file belongs to (`files.owner_type` → how to check the caller may see or attach to `owner_id`). A
 * download passes the same permission as the owner record plus branch scope (domain.md). Later modules
 * register their own owners (student, application document …) with `registerFileOwner`.
 */
export interface FileOwnerType {
  /** The owner record's branch (null: bound to none), or undefined when there is no such record. */
  branchOf(db: Trx, ownerId: number): Promise<number | null | undefined>;
  /** The permission that shows the owner record, and so its files (e.g. `students.view`). */
  viewPermission: string;
  /** The permission that lets the caller attach files to it (e.g. `students.update`). */
  attachPermission: string;
  /**
   * The caller's own record (their profile photo, a student's own photo or checklist row): no permission or scope
   * needed. May read the database (a checklist row is the student's through its application).
   */
  isOwn?(ctx: RequestContext, ownerId: number, db: Trx): boolean | Promise<boolean>;
  /**
   * General attachments go to it through `POST /api/files` (a school's); false for owners whose files have their
   * own upload route (a logo, a profile photo)
   */
  attachable: boolean;
  /**
   * How the owner records belong to a branch — their table and branch column, or the column holding their parent
   * record's id and how that one does (a checklist row through its application and student) — so a
   * branch-scoped caller sees its own branch's only, as the records' own list does; null for agency-wide records
   * (a school)
   */
  branchScope: RecordBranchPath | null;
  /**
   * The branch a new file is filed under: the owner's (default), or the uploader's for files added by any branch
   * to an agency-wide record (a school's attachments: another branch's stay theirs, see `fileScopeOf`)
   */
  filedUnder: 'owner' | 'uploader';
  /** The owner records' names in `language` (one query for a page of files), by id. */
  label(db: Trx, ids: readonly number[], language: Language): Promise<Map<number, string>>;
  /** The owner record's screen in the client (`/schools/attachment/5`), or null. */
  screen(ownerId: number): string | null;
  /**
   * The screens of owner records whose screen is their parent's (an application's files are on its student's
   * admission tab), by id, one query for a page of files; ids it leaves out take `screen`'s answer
   */
  screens?(db: Trx, ids: readonly number[]): Promise<Map<number, string>>;
}

const OWNERS = new Map<string, FileOwnerType>();

export function registerFileOwner(type: string, owner: FileOwnerType): void {
  OWNERS.set(type, owner);
}

export function fileOwnerTypes(): string[] {
  return [...OWNERS.keys()];
}

export function fileOwner(type: string): FileOwnerType | undefined {
  return OWNERS.get(type);
}

/** The caller's permissions as `can` reads them. */
export function holderOf(ctx: RequestContext) {
  return ctx.access ? { is_admin: ctx.access.isAdmin, permissions: ctx.access.permissions } : null;
}

/**
 * Which files the caller sees at all (decision 0008): admins and holders of `files.view_all` every file (null);
 * everyone else the files filed under their own branch or under none.
 */
export function fileScopeOf(ctx: RequestContext): { branchId: number | null } | null {
  const access = holderOf(ctx);
  if (can(access, 'files.view_all')) return null;
  return { branchId: ctx.access?.branchId ?? null };
}

export function inFileScope(ctx: RequestContext, fileBranchId: number | null): boolean {
  const scope = fileScopeOf(ctx);
  return !scope || fileBranchId === null || fileBranchId === scope.branchId;
}

export interface OwnerAccess {
  owner: FileOwnerType;
  /** the owner record's branch (null: bound to none) */
  branchId: number | null;
  /** the branch a file stored now for this owner is filed under */
  fileBranchId: number | null;
}

/**
 * The owner when the caller may `view` (or `attach` to) the record; otherwise 404 — a record the caller may not
 * see does not exist for them — or 403 when they may see it but not attach. With `file` (a stored file of the
 * owner), that file must be in the caller's file scope too (`fileScopeOf`), else 404.
 */
export async function checkOwnerAccess(
  db: Trx,
  ctx: RequestContext,
  ownerType: string,
  ownerId: number,
  mode: 'view' | 'attach',
  file: { branch_id: number | null } | null = null,
): Promise<OwnerAccess> {
  const owner = OWNERS.get(ownerType);
  if (!owner) throw new AppError('not_found');
  const branchId = await owner.branchOf(db, ownerId);
  if (branchId === undefined) throw new AppError('not_found');
  const fileBranchId = owner.filedUnder === 'uploader' ? (ctx.access?.branchId ?? null) : branchId;
  const result = { owner, branchId, fileBranchId };
  if (await owner.isOwn?.(ctx, ownerId, db)) return result;
  const access = holderOf(ctx);
  if (!can(access, owner.viewPermission)) throw new AppError('not_found');
  const scope = ctx.branchScope;
  if (scope && owner.branchScope && branchId !== scope.branchId) throw new AppError('not_found');
  if (file && !inFileScope(ctx, file.branch_id)) throw new AppError('not_found');
  if (mode === 'attach' && !can(access, owner.attachPermission)) throw new AppError('forbidden');
  return result;
}

/** The caller may attach to (and so delete the files of) an owner of this type, by permission alone. */
export function mayAttach(ctx: RequestContext, owner: FileOwnerType): boolean {
  return can(holderOf(ctx), owner.attachPermission);
}

/**
 * Names of records by id, in `language` (the other language's when that is empty), one query: the owner's
 * name of a page of files, the branch's, the uploader's.
 */
export async function labelsOf(
  db: Trx,
  table: string,
  ids: readonly number[],
  columns: LabelColumns,
  language: Language,
): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const unique = [...new Set(ids)];
  if (!unique.length) return out;
  const rows = await filesRepository.namedRows(db, table, unique, [...columns.en, ...columns.zh_HK]);
  const join = (row: Record<string, unknown>, cols: readonly string[]) =>
    cols
      .map((c) => row[c])
      .filter((v) => v !== null && v !== undefined && v !== '')
      .join(' ');
  const other: Language = language === 'en' ? 'zh_HK' : 'en';
  for (const row of rows) out.set(Number(row.id), join(row, columns[language]) || join(row, columns[other]));
  return out;
}

/** A declared resource's record page (its first tab when it has tabs), or null when it has no page. */
export function recordScreen(decl: ResourceDeclaration, id: number): string | null {
  if (!decl.page) return null;
  return decl.tabs?.length ? `${decl.page.route}/${decl.tabs[0]}/${id}` : `${decl.page.route}/${id}`;
}

/**
 * How a declared resource's records are in a branch: by their own branch column, or — a child without one —
 * through their parents' (a grade report through its student); null for agency-wide records.
 */
export function declaredBranchPath(decl: ResourceDeclaration): RecordBranchPath | null {
  if (decl.branchColumn) return { table: decl.table, column: decl.branchColumn };
  if (!decl.parent) return null;
  const parent = DECLARATIONS.find((d) => d.name === decl.parent!.resource);
  const above = parent ? declaredBranchPath(parent) : null;
  return above ? { table: decl.table, column: decl.parent.column, parent: above } : null;
}

/** The branch of a declared resource's record (null when it names none), undefined when it does not exist. */
export function declaredBranchOf(decl: ResourceDeclaration) {
  const path = declaredBranchPath(decl);
  return (db: Trx, id: number) =>
    path
      ? filesRepository.branchThrough(db, path, id)
      : filesRepository.recordBranch(db, decl.table, id, null);
}

/** A staff user's own files (today: the profile photo). Others see them with `users.view`, in their branch. */
registerFileOwner('user', {
  branchOf: (db, ownerId) => usersRepository.branchOf(db, ownerId),
  viewPermission: 'users.view',
  attachPermission: 'users.update',
  isOwn: (ctx, ownerId) => ctx.actor.type === 'user' && ctx.actor.id === ownerId,
  attachable: false,
  branchScope: { table: 'users', column: 'branch_id' },
  filedUnder: 'owner',
  label: (db, ids, language) => labelsOf(db, 'users', ids, { en: ['name'], zh_HK: ['name'] }, language),
  screen: (id) => `/settings/users/${id}`,
});

/**
 * A school's attachments (its attachment tab). Schools are agency-wide, so each file is filed under the branch
 * of the user who attached it: another branch's attachments are theirs unless the caller has `files.view_all`.
 */
registerFileOwner('school', {
  branchOf: declaredBranchOf(schools),
  viewPermission: 'schools.view',
  attachPermission: 'schools.update',
  attachable: true,
  branchScope: null,
  filedUnder: 'uploader',
  label: (db, ids, language) => labelsOf(db, schools.table, ids, schools.display, language),
  screen: (id) => `/schools/attachment/${id}`,
});

/**
 * One owner type per declared `file` field (`schools.logo_file_id` → `school_logo`): the record's own picture or
 * document, seen with the record (`${module}.view`, its branch when it has one, a child's through its parents:
 * a grade report's through its student) and set with `${module}.update` through the field's own route. It is
 * filed under the record's branch (none for a school), so everyone who sees the record sees its logo.
 */
for (const decl of DECLARATIONS) {
  for (const field of Object.values(decl.fields)) {
    if (field.type !== 'file') continue;
    registerFileOwner(field.owner, {
      branchOf: declaredBranchOf(decl),
      viewPermission: `${decl.module}.view`,
      attachPermission: `${decl.module}.update`,
      attachable: false,
      branchScope: declaredBranchPath(decl),
      filedUnder: 'owner',
      label: (db, ids, language) => labelsOf(db, decl.table, ids, decl.display, language),
      screen: (id) => recordScreen(decl, id),
    });
  }
}
