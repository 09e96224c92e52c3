import type { Knex } from 'knex';
import { PERMISSIONS } from '../../../../shared/permissions';
import type { RequestContext, StaffUser } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { clock, fromDbDateTime, toDbDateTime } from '../../lib/clock';
import { randomToken, sha256 } from '../../lib/crypto';
import { auditService } from '../audit/audit.service';
import { assertGrantable, parsePermissions } from '../access/access-rules';
import { apiTokensRepository, type ApiTokenRow } from './api-tokens.repository';

/** Personal access tokens: the plain token is shown once, only its SHA-256 is kept. */
export function createApiTokensService(db: Knex) {
  function present(row: ApiTokenRow) {
    return {
      id: row.id,
      name: row.name,
      abilities: parsePermissions(row.abilities),
      last_used_at: fromDbDateTime(row.last_used_at),
      expires_at: fromDbDateTime(row.expires_at),
      created_at: fromDbDateTime(row.created_at),
    };
  }

  /** Abilities are a subset of the owner's own permissions (a grant: access-rules.ts), in the shared list's order. */
  function checkAbilities(ctx: RequestContext, abilities: string[]): string {
    assertGrantable(ctx, { permissions: abilities }, 'abilities');
    const chosen = new Set(abilities);
    return JSON.stringify(PERMISSIONS.filter((p) => chosen.has(p)));
  }

  async function mustFind(userId: number, id: number): Promise<ApiTokenRow> {
    const row = await apiTokensRepository.findForUser(db, userId, id);
    if (!row) throw new AppError('not_found');
    return row;
  }

  return {
    async list(user: StaffUser) {
      const rows = await apiTokensRepository.listForUser(db, user.id);
      return { items: rows.map(present), available_abilities: user.permissions };
    },

    async create(
      user: StaffUser,
      input: { name: string; abilities: string[]; expires_at?: string | null },
      ctx: RequestContext,
    ) {
      const abilities = checkAbilities(ctx, input.abilities);
      const plain = `sa_${randomToken(32)}`;
      const expiresMs = input.expires_at ? new Date(input.expires_at).getTime() : null;
      if (expiresMs !== null && expiresMs <= clock.now()) {
        throw AppError.field('validation', 'expires_at', 'tokenExpiryPast');
      }
      const expires = expiresMs !== null ? toDbDateTime(expiresMs) : null;
      const id = await db.transaction(async (trx) => {
        const newId = await apiTokensRepository.insert(trx, {
          user_id: user.id,
          name: input.name,
          token_hash: sha256(plain),
          abilities,
          expires_at: expires,
        });
        await auditService.record(trx, ctx, {
          action: 'create',
          entity: 'api_token',
          entityId: newId,
          before: null,
          after: { name: input.name, abilities: JSON.parse(abilities), expires_at: expires },
        });
        return newId;
      });
      return { token: plain, item: present((await apiTokensRepository.findForUser(db, user.id, id))!) };
    },

    async update(
      user: StaffUser,
      id: number,
      input: { name?: string; abilities: string[] },
      ctx: RequestContext,
    ) {
      const before = await mustFind(user.id, id);
      const abilities = checkAbilities(ctx, input.abilities);
      await db.transaction(async (trx) => {
        await apiTokensRepository.update(trx, id, { abilities, ...(input.name ? { name: input.name } : {}) });
        await auditService.record(trx, ctx, {
          action: 'update',
          entity: 'api_token',
          entityId: id,
          before: { name: before.name, abilities: parsePermissions(before.abilities) },
          after: { name: input.name ?? before.name, abilities: JSON.parse(abilities) },
        });
      });
      return present((await apiTokensRepository.findForUser(db, user.id, id))!);
    },

    async revoke(user: StaffUser, id: number, ctx: RequestContext): Promise<void> {
      const before = await mustFind(user.id, id);
      await db.transaction(async (trx) => {
        await apiTokensRepository.delete(trx, id);
        await auditService.record(trx, ctx, {
          action: 'delete',
          entity: 'api_token',
          entityId: id,
          before: { name: before.name },
          after: null,
        });
      });
    },
  };
}
