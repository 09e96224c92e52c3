import express, { type RequestHandler, type Router } from 'express';
import { can } from '../../../shared/permissions';
import { AppError } from '../lib/app-error';
import { contextOf } from './context';
import { validate, type RequestSchemas } from './validate';

/** Who may reach a route: anyone, a signed-in staff user, or a signed-in portal student. */
export type Access = 'public' | 'staff' | 'student';
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteSpec {
  method: Method;
  path: string;
  access: Access;
  /** permission key (`module.action`) a staff route needs */
  permission?: string;
  /** instead of `permission` alone: any one of these keys (`permission` among them) will do */
  anyPermission?: string[];
  schemas?: RequestSchemas;
  /** extra middleware between authorisation and validation (throttles) */
  before?: RequestHandler[];
  /** what the route answers, for the API description (GET /api/openapi.json; http/openapi.ts) */
  answers?: RouteAnswer;
  handler: RequestHandler;
}

/**
 * What a route answers, as the API description states it: a declared resource's list, record or lookup (its
 * rows' schema derived from the declaration), a file download, or nothing (204). A route without one answers JSON
 * of a shape the document does not spell out.
 */
export type RouteAnswer =
  | { kind: 'list' | 'record' | 'lookup' | 'create-form'; resource: string; status?: number }
  | { kind: 'file'; types: readonly string[] }
  | { kind: 'empty' };

export interface RegisteredRoute {
  method: Method;
  path: string;
  access: Access;
  permission?: string;
  anyPermission?: string[];
  /** its request's schemas and guards, as registered (the API description reads them) */
  schemas?: RequestSchemas;
  before?: readonly RequestHandler[];
  answers?: RouteAnswer;
}

export interface ApiHooks {
  onDenied(req: express.Request, permission: string): Promise<void>;
}

/** Sets properties that are there to read, but not enumerable (JSON, `toEqual`, a printed row leave them out). */
function hide(target: object, props: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(props)) {
    if (value !== undefined) Object.defineProperty(target, key, { value, enumerable: false });
  }
}

function requireAccess(access: Access): RequestHandler {
  return (req, _res, next) => {
    if (access === 'public') return next();
    const kind = access === 'staff' ? 'staff' : 'student';
    if (req.auth?.kind === kind) return next();
    throw new AppError(req.authTimedOut ? 'session_timeout' : 'unauthenticated');
  };
}

/**
 * Every API route is declared through this one builder. It binds the middleware in the fixed order
 * authenticate → authorise → validate → controller, and keeps the list of routes the tests walk.
 */
export class ApiRouter {
  readonly router: Router = express.Router();
  readonly routes: RegisteredRoute[] = [];

  constructor(private readonly hooks: ApiHooks) {}

  add(spec: RouteSpec): void {
    const chain: RequestHandler[] = [requireAccess(spec.access)];
    if (spec.permission) chain.push(this.authorise(spec.permission, spec.anyPermission));
    chain.push(...(spec.before ?? []));
    if (spec.schemas) chain.push(validate(spec.schemas));
    chain.push(spec.handler);
    this.router[spec.method](spec.path, ...chain);
    const route: RegisteredRoute = {
      method: spec.method,
      path: spec.path,
      access: spec.access,
      permission: spec.permission,
      ...(spec.anyPermission ? { anyPermission: spec.anyPermission } : {}),
    };
    // kept out of JSON and of a test's equality: what the API description reads
    hide(route, { schemas: spec.schemas, before: spec.before, answers: spec.answers });
    this.routes.push(route);
  }

  /**
   * The authorisation step of a route (a refusal is audited and answered 403): also for a part of a route that needs
   * a key of its own (a report's file needs `reports.export`).
   */
  authorise(permission: string, any?: string[]): RequestHandler {
    const keys = any ?? [permission];
    return async (req, _res, next) => {
      const auth = req.auth;
      if (auth?.kind === 'staff' && keys.some((key) => can(auth.user, key))) return next();
      await this.hooks.onDenied(req, permission);
      throw new AppError('forbidden');
    };
  }
}

export { contextOf };
