import { can } from '../../../../shared/permissions';
import type { Trx } from '../../db/knex';
import type { RequestContext } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { usersRepository } from '../users/users.repository';

/**
 * What a file belongs to (`files.owner_type` → how to check the caller may see or attach to `owner_id`). A
 * download passes the same permission as the owner record plus branch scope (domain.md). Later modules
 * register their own owners (school, student, application document …) with `registerFileOwner`.
 */
export interface FileOwnerType {
  /** The owner record's branch (null: bound to none), or undefined when there is no such record. */
  branchOf(db: Trx, ownerId: number): Promise<number | null | undefined>;
  /** The permission that shows the owner record, and so its files (e.g. `students.view`). */
  viewPermission: string;
  /** The permission that lets the caller attach files to it (e.g. `students.update`). */
  attachPermission: string;
  /** The caller's own record (their profile photo, a student's own document): no permission or scope needed. */
  isOwn?(ctx: RequestContext, ownerId: number): boolean;
}

const OWNERS = new Map<string, FileOwnerType>();

export function registerFileOwner(type: string, owner: FileOwnerType): void {
  OWNERS.set(type, owner);
}

export function fileOwnerTypes(): string[] {
  return [...OWNERS.keys()];
}

/**
 * The owner's branch when the caller may `view` (or `attach` to) the record; otherwise 404 — a record the
 * caller may not see does not exist for them — or 403 when they may see it but not attach. `fileBranchId` is
 * the branch a stored file was filed under: a branch-scoped caller needs that one to be theirs too.
 */
export async function checkOwnerAccess(
  db: Trx,
  ctx: RequestContext,
  ownerType: string,
  ownerId: number,
  mode: 'view' | 'attach',
  fileBranchId: number | null = null,
): Promise<number | null> {
  const owner = OWNERS.get(ownerType);
  if (!owner) throw new AppError('not_found');
  const branchId = await owner.branchOf(db, ownerId);
  if (branchId === undefined) throw new AppError('not_found');
  if (owner.isOwn?.(ctx, ownerId)) return branchId;
  const access = ctx.access ? { is_admin: ctx.access.isAdmin, permissions: ctx.access.permissions } : null;
  if (!can(access, owner.viewPermission)) throw new AppError('not_found');
  const scope = ctx.branchScope;
  if (scope && (branchId !== scope.branchId || (fileBranchId !== null && fileBranchId !== scope.branchId))) {
    throw new AppError('not_found');
  }
  if (mode === 'attach' && !can(access, owner.attachPermission)) throw new AppError('forbidden');
  return branchId;
}

/** A staff user's own files (today: the profile photo). Others see them with `users.view`, in their branch. */
registerFileOwner('user', {
  branchOf: (db, ownerId) => usersRepository.branchOf(db, ownerId),
  viewPermission: 'users.view',
  attachPermission: 'users.update',
  isOwn: (ctx, ownerId) => ctx.actor.type === 'user' && ctx.actor.id === ownerId,
});
