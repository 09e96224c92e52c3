import type { RequestContext } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { fieldMessage } from '../../../../shared/messages';

/**
 * A caller never grants more than it holds: a non-admin may only give out permission keys it has itself
 * (in a role, through a role assignment, or as an API token's abilities), and never the admin flag.
 */
export function assertGrantable(ctx: RequestContext, permissions: readonly string[], field: string): void {
  if (ctx.access?.isAdmin) return;
  const held = new Set(ctx.access?.permissions ?? []);
  const extra = permissions.filter((p) => !held.has(p));
  if (extra.length) {
    throw AppError.field('validation', field, fieldMessage('grantNotHeld', { keys: extra.join(', ') }));
  }
}

export function assertAdmin(ctx: RequestContext, field: string, message: string): void {
  if (!ctx.access?.isAdmin) throw AppError.field('validation', field, message);
}
