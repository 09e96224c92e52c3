import type { Knex } from 'knex';
import { fileUrl } from '../../../../shared/files';
import { PERMISSIONS } from '../../../../shared/permissions';
import { AppError } from '../../lib/app-error';
import type { Auth, PortalStudent, RequestContext, StaffUser } from '../../http/context';
import { auditService } from '../audit/audit.service';
import { usersRepository, type UserRow } from '../users/users.repository';
import { studentsRepository, type StudentRow } from '../portal/students.repository';
import { apiTokensRepository } from '../api-tokens/api-tokens.repository';
import { isTwoFactorRequired, loadFeatures } from '../users/account-settings';
import { clock, toDbDateTime } from '../../lib/clock';
import { verifyPassword } from '../../lib/passwords';
import { userSessionsRepository } from './user-sessions.repository';
import { parsePermissions } from '../access/access-rules';
import { authCacheFor, type CachedSession, type SecuritySettings } from '../../sessions/auth-cache';
import { logger } from '../../lib/logger';

/** user_sessions.last_active_at is written at most this often per session. */
const TOUCH_INTERVAL_MS = 60_000;

/** NFKC and lower case: look-alike spellings of one address are one address (throttling, look-ups). */
export function normaliseEmail(email: string): string {
  return email.normalize('NFKC').trim().toLowerCase();
}

function bool(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

/** The profile photo's URL (the column is read with the row; files.module manages it). */
function photoUrl(row: UserRow): string | null {
  return row.profile_photo_file_id ? fileUrl(Number(row.profile_photo_file_id)) : null;
}

export type StaffLoginResult = { kind: 'user'; user: StaffUser } | { kind: 'two_factor'; userId: number };

export function toPortalStudent(row: StudentRow): PortalStudent {
  return {
    id: row.id,
    student_no: row.student_no,
    surname_en: row.surname_en,
    given_name_en: row.given_name_en,
    name_zh: row.name_zh,
    language: row.language,
    portal_email: row.portal_email,
    branch_id: row.branch_id,
  };
}

function dbTimeMs(value: string | Date): number {
  return value instanceof Date ? value.getTime() : new Date(`${value.replace(' ', 'T')}Z`).getTime();
}

/** A copy per request: a handler never changes what the next request is given. */
function copyAuth(user: StaffUser): StaffUser {
  return { ...user, role: user.role ? { ...user.role } : null, permissions: [...user.permissions] };
}

export function createAuthService(db: Knex) {
  const cache = authCacheFor(db);

  /** Activity stamps are written at most once a minute, after the reply (they decide nothing for this request). */
  function background(work: Promise<unknown>, what: string): void {
    work.catch((err: unknown) => logger.warn(`${what} failed`, { error: String(err) }));
  }

  async function liveSession(sessionHash: string): Promise<CachedSession | null> {
    return cache.sessions.get(sessionHash, async () => {
      const row = await userSessionsRepository.findByHash(db, sessionHash);
      return row
        ? {
            id: row.id,
            user_id: row.user_id,
            student_id: row.student_id,
            lastActiveMs: dbTimeMs(row.last_active_at),
          }
        : null;
    });
  }

  /** The user with role and permissions as the next request must see them (cached; see sessions/auth-cache.ts). */
  async function staffUser(userId: number): Promise<StaffUser | null> {
    const entry = await cache.staff.get(userId, async () => {
      const row = await usersRepository.findById(db, userId);
      return row ? { user: await toStaffUser(row, bool(row.is_admin)), active: bool(row.is_active) } : null;
    });
    return entry?.active ? copyAuth(entry.user) : null;
  }

  function securitySettings(): Promise<SecuritySettings> {
    return cache.settings.get('security', async () => {
      const [twoFactorRequired, features] = await Promise.all([isTwoFactorRequired(db), loadFeatures(db)]);
      return { twoFactorRequired, features };
    }) as Promise<SecuritySettings>;
  }

  async function toStaffUser(row: UserRow, isAdmin: boolean): Promise<StaffUser> {
    const role = row.role_id ? await usersRepository.findRole(db, row.role_id) : undefined;
    return {
      id: row.id,
      name: row.name,
      email: row.email,
      is_admin: isAdmin,
      language: row.language,
      branch_id: row.branch_id,
      role: role ? { id: role.id, name: role.name, data_scope: role.data_scope } : null,
      permissions: isAdmin ? [...PERMISSIONS] : parsePermissions(role?.permissions),
      two_factor_enabled: Boolean(row.two_factor_confirmed_at),
      profile_photo_url: photoUrl(row),
    };
  }

  return {
    /** The password step of staff sign-in. A wrong password, an unknown address and an inactive account answer alike. */
    async attemptStaffLogin(email: string, password: string, ctx: RequestContext): Promise<StaffLoginResult> {
      const row = await usersRepository.findByEmail(db, normaliseEmail(email));
      const ok = await verifyPassword(password, row?.password_hash);
      if (!row || !ok || !bool(row.is_active)) {
        await auditService.record(db, ctx, {
          action: 'login_failed',
          entity: 'user',
          entityId: row?.id ?? null,
          detail: { email: normaliseEmail(email), reason: !row ? 'unknown' : !ok ? 'password' : 'inactive' },
        });
        throw AppError.field('invalid_credentials', 'email', 'credentials');
      }
      if (row.two_factor_confirmed_at) return { kind: 'two_factor', userId: row.id };
      return { kind: 'user', user: await toStaffUser(row, bool(row.is_admin)) };
    },

    /** Records a completed staff sign-in against the new session id. */
    async startStaffSession(user: StaffUser, sessionHash: string, ctx: RequestContext): Promise<void> {
      await db.transaction(async (trx) => {
        await userSessionsRepository.create(trx, {
          session_id_hash: sessionHash,
          user_id: user.id,
          ip: ctx.ip,
          user_agent: ctx.userAgent,
        });
        await usersRepository.touchLastLogin(trx, user.id);
        await auditService.record(
          trx,
          { ...ctx, actor: { type: 'user', id: user.id } },
          {
            action: 'login',
            entity: 'user',
            entityId: user.id,
          },
        );
      });
    },

    /**
     * The portal's sign-in. `mustChangePassword`: the password was set by staff (students' portal access), so the
     * portal sends the student to change it first.
     */
    async attemptStudentLogin(
      email: string,
      password: string,
      ctx: RequestContext,
    ): Promise<{ student: PortalStudent; mustChangePassword: boolean }> {
      const row = await studentsRepository.findByPortalEmail(db, normaliseEmail(email));
      const ok = await verifyPassword(password, row?.portal_password_hash);
      if (!row || !ok || !bool(row.portal_enabled)) {
        await auditService.record(db, ctx, {
          action: 'login_failed',
          entity: 'student',
          entityId: row?.id ?? null,
          detail: { email: normaliseEmail(email) },
        });
        throw AppError.field('invalid_credentials', 'email', 'portalCredentials');
      }
      return { student: toPortalStudent(row), mustChangePassword: bool(row.portal_must_change_password) };
    },

    async startStudentSession(
      student: PortalStudent,
      sessionHash: string,
      ctx: RequestContext,
    ): Promise<void> {
      await db.transaction(async (trx) => {
        await userSessionsRepository.create(trx, {
          session_id_hash: sessionHash,
          student_id: student.id,
          ip: ctx.ip,
          user_agent: ctx.userAgent,
        });
        await auditService.record(
          trx,
          { ...ctx, actor: { type: 'student', id: student.id } },
          {
            action: 'login',
            entity: 'student',
            entityId: student.id,
          },
        );
      });
    },

    /**
     * Who a live session belongs to, or null when its browser-session row is gone (logged out elsewhere,
     * account deactivated) or the account may no longer sign in.
     */
    async resolveSession(
      session: { kind: 'staff' | 'student'; userId?: number; studentId?: number },
      sessionHash: string,
      ctx: { ip: string | null; now: number },
    ): Promise<Auth | null> {
      const live = await liveSession(sessionHash);
      if (!live) return null;
      if (ctx.now - live.lastActiveMs > TOUCH_INTERVAL_MS) {
        live.lastActiveMs = ctx.now;
        background(userSessionsRepository.touch(db, live.id, ctx.ip), 'session touch');
      }
      if (session.kind === 'staff') {
        if (!session.userId || live.user_id !== session.userId) return null;
        // cached, and dropped whenever users or roles change: a change to the admin flag, the role, the branch
        // or the active flag applies to the account's very next request (a demoted admin keeps nothing of it)
        const user = await staffUser(session.userId);
        return user ? { kind: 'staff', user } : null;
      }
      if (!session.studentId || live.student_id !== session.studentId) return null;
      const studentId = session.studentId;
      const entry = await cache.students.get(studentId, async () => {
        const row = await studentsRepository.findById(db, studentId);
        return row ? { student: toPortalStudent(row), enabled: bool(row.portal_enabled) } : null;
      });
      return entry?.enabled ? { kind: 'student', student: { ...entry.student } } : null;
    },

    /**
     * A bearer API token: its abilities ∩ the user's permissions, never the admin bypass (a token never widens
     * the role). Null when the token is unknown, expired or revoked, the account inactive, or API features off.
     */
    async resolveToken(tokenHash: string): Promise<Auth | null> {
      const token = await apiTokensRepository.findByHash(db, tokenHash);
      if (!token) return null;
      if (token.expires_at && token.expires_at <= toDbDateTime(clock.now())) return null;
      const user = await staffUser(token.user_id);
      if (!user) return null;
      if (!(await securitySettings()).features.hasApiFeatures) return null;
      const abilities = new Set(parsePermissions(token.abilities));
      if (!token.last_used_at || clock.now() - dbTimeMs(token.last_used_at) > TOUCH_INTERVAL_MS) {
        background(apiTokensRepository.touch(db, token.id), 'token touch');
      }
      return {
        kind: 'staff',
        user: {
          ...user,
          is_admin: false,
          // an admin's token sees every branch, as its owner does
          role: user.role
            ? { ...user.role, data_scope: user.is_admin ? 'all' : user.role.data_scope }
            : user.is_admin
              ? { id: 0, name: 'admin', data_scope: 'all' }
              : null,
          permissions: user.permissions.filter((p) => abilities.has(p)),
          api_token_id: token.id,
        },
      };
    },

    /** The user a completed 2FA challenge signs in, as at a password sign-in. */
    async staffUserAfterChallenge(userId: number): Promise<StaffUser | null> {
      const row = await usersRepository.findById(db, userId);
      if (!row || !bool(row.is_active)) return null;
      return toStaffUser(row, bool(row.is_admin));
    },

    async twoFactorRequired(): Promise<boolean> {
      return (await securitySettings()).twoFactorRequired;
    },

    async endSession(sessionHash: string): Promise<void> {
      await userSessionsRepository.deleteByHash(db, sessionHash);
    },

    async recordLogout(ctx: RequestContext, sessionHash: string): Promise<void> {
      await userSessionsRepository.deleteByHash(db, sessionHash);
      await auditService.record(db, ctx, {
        action: 'logout',
        entity: ctx.actor.type === 'student' ? 'student' : 'user',
        entityId: ctx.actor.id,
      });
    },

    async recordDenied(ctx: RequestContext, permission: string, path: string): Promise<void> {
      await auditService.record(db, ctx, { action: 'permission_denied', detail: { permission, path } });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
