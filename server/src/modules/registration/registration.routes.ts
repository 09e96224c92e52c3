import { ZRegister } from '../../../../shared/schemas/auth';
import { contextOf } from '../../http/context';
import { ipKey } from '../../http/throttle';
import { AppError } from '../../lib/app-error';
import type { AccountsServices } from '../accounts.module';
import type { ModuleDeps } from '../module';

/** Self-registration: 404 unless an admin switched it on; the account waits inactive for activation. */
export function registerRegistrationRoutes(deps: ModuleDeps, { registration }: AccountsServices): void {
  const { api, throttle } = deps;
  api.add({
    method: 'post',
    path: '/register',
    access: 'public',
    before: [
      async (_req, _res, next) => {
        if (!(await registration.enabled())) throw new AppError('not_found');
        next();
      },
      throttle({ name: 'register', limit: 5, windowMs: 60 * 60_000, key: (req) => ipKey(req) }),
    ],
    schemas: { body: ZRegister },
    handler: async (req, res) => {
      res.status(201).json(await registration.register(req.parsed.body, contextOf(req)));
    },
  });
}
