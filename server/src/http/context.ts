import type { Request } from 'express';
import type { DataScope } from '../../../shared/permissions';
import type { SessionKind } from '../sessions/session';
import { requestScope } from '../lib/logger';

export interface StaffUser {
  id: number;
  name: string;
  email: string;
  is_admin: boolean;
  language: string;
  branch_id: number | null;
  role: { id: number; name: string; data_scope: 'all' | 'branch' } | null;
  permissions: string[];
  two_factor_enabled: boolean;
  /** the profile photo's download URL (`/api/files/:id`), null without one */
  profile_photo_url: string | null;
  /** set when the request is authorised by a bearer API token rather than a session */
  api_token_id?: number;
}

export interface PortalStudent {
  id: number;
  student_no: string;
  surname_en: string | null;
  given_name_en: string | null;
  name_zh: string | null;
  language: string;
  portal_email: string | null;
  branch_id: number;
}

export type Auth = { kind: 'staff'; user: StaffUser } | { kind: 'student'; student: PortalStudent };

export interface Actor {
  type: 'user' | 'student' | 'system';
  id: number | null;
}

/** What a service needs to know about the caller: never `req` itself. */
export interface RequestContext {
  actor: Actor;
  /** the one branch whose records a branch-scoped role may see; null when the caller sees every branch */
  branchScope: { branchId: number | null } | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  /**
   * what a staff caller holds: the measure of the access rules (modules/access/access-rules.ts), which never
   * let it reach an account, role, setting or power stronger than its own. Null for students and anonymous
   * visitors.
   */
  access: CallerAccess | null;
  /**
   * the language the caller reads: the screen's (`Accept-Language`, which the SPA sets to its current language),
   * else the account's own; names of related records and export headers come in it
   */
  language: 'en' | 'zh_HK';
  /** aborts when the client goes away before the answer: a list's or an export's running query is killed */
  signal?: AbortSignal;
}

export interface CallerAccess {
  userId: number;
  isAdmin: boolean;
  permissions: readonly string[];
  /** `all` for admins and roles that see every branch; `branch` otherwise (no role included) */
  dataScope: DataScope;
  branchId: number | null;
  roleId: number | null;
  /** the session confirmed the password within the admins' window (mail, security and storage settings) */
  recentPasswordConfirmation: boolean;
  /** the request is authorised by a bearer API token, not a browser session */
  viaToken: boolean;
}

declare module 'express-serve-static-core' {
  interface Request {
    hostKind: SessionKind;
    auth?: Auth;
    authTimedOut?: boolean;
    /** the session's password confirmation is within the admins' window (set by `authenticate`) */
    recentPasswordConfirmation?: boolean;
  }
}

export function actorOf(auth: Auth | undefined): Actor {
  if (!auth) return { type: 'system', id: null };
  return auth.kind === 'staff'
    ? { type: 'user', id: auth.user.id }
    : { type: 'student', id: auth.student.id };
}

/**
 * The staff user behind a write, for `created_by` / `updated_by` (user ids): null when a portal student or the
 * system writes (the audit row names the student as its actor).
 */
export function userIdOf(ctx: Pick<RequestContext, 'actor'>): number | null {
  return ctx.actor.type === 'user' ? ctx.actor.id : null;
}

/** Admins and roles with data scope `all` see every branch; anyone else (a `branch` role, no role) its own. */
export function dataScopeOf(user: StaffUser): DataScope {
  return user.is_admin || user.role?.data_scope === 'all' ? 'all' : 'branch';
}

export function branchScopeOf(auth: Auth | undefined): RequestContext['branchScope'] {
  if (auth?.kind !== 'staff' || dataScopeOf(auth.user) === 'all') return null;
  return { branchId: auth.user.branch_id };
}

function accessOf(req: Request): CallerAccess | null {
  if (req.auth?.kind !== 'staff') return null;
  const user = req.auth.user;
  return {
    userId: user.id,
    isAdmin: user.is_admin,
    permissions: user.permissions,
    dataScope: dataScopeOf(user),
    branchId: user.branch_id,
    roleId: user.role?.id ?? null,
    recentPasswordConfirmation: req.recentPasswordConfirmation === true,
    viaToken: Boolean(user.api_token_id),
  };
}

export function contextOf(req: Request): RequestContext {
  return {
    actor: actorOf(req.auth),
    branchScope: branchScopeOf(req.auth),
    ip: req.ip ?? null,
    userAgent: req.get('user-agent')?.slice(0, 500) ?? null,
    requestId: requestScope.getStore()?.requestId ?? null,
    access: accessOf(req),
    language: languageOf(req),
  };
}

const signals = new WeakMap<Request, AbortSignal>();

/** Aborts when the response closes before it was fully sent (the client went away). One per request. */
export function abortSignalOf(req: Request): AbortSignal {
  let signal = signals.get(req);
  if (signal) return signal;
  const controller = new AbortController();
  signal = controller.signal;
  signals.set(req, signal);
  const res = req.res;
  if (res?.destroyed && !res.writableFinished) controller.abort();
  else res?.once('close', () => res.writableFinished || controller.abort());
  return signal;
}

/** `Accept-Language` when it names one of ours (`zh…` or `en…` first), else the signed-in account's language. */
export function languageOf(req: Request): 'en' | 'zh_HK' {
  const header = req.get('accept-language')?.trim().toLowerCase() ?? '';
  if (header.startsWith('zh')) return 'zh_HK';
  if (header.startsWith('en')) return 'en';
  const own = req.auth?.kind === 'staff' ? req.auth.user.language : req.auth?.student.language;
  return own?.startsWith('zh') ? 'zh_HK' : 'en';
}

/** The first label of the host decides the front end: `student.…` is the portal, anything else the back-office. */
export function hostKindOf(hostname: string | undefined): SessionKind {
  return (hostname ?? '').toLowerCase().split('.')[0] === 'student' ? 'student' : 'staff';
}
