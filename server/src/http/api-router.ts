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
  handler: RequestHandler;
}

export interface RegisteredRoute {
  method: Method;
  path: string;
  access: Access;
  permission?: string;
  anyPermission?: string[];
}

export interface ApiHooks {
  onDenied(req: express.Request, permission: string): Promise<void>;
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
    this.routes.push({
      method: spec.method,
      path: spec.path,
      access: spec.access,
      permission: spec.permission,
      ...(spec.anyPermission ? { anyPermission: spec.anyPermission } : {}),
    });
  }

  private authorise(permission: string, any?: string[]): RequestHandler {
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
