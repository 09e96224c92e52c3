import type { Request } from 'express';
import { z } from 'zod';
import { MESSAGES } from '../../../../shared/errors';
import type { ApiRouter } from '../../http/api-router';
import { ipKey, type Throttle } from '../../http/throttle';
import type { createAuthController } from './auth.controller';
import { normaliseEmail } from './auth.service';

export const ZLogin = z.strictObject({
  email: z.email({ error: MESSAGES.invalidEmail }).max(191),
  password: z.string().min(1).max(200),
  remember: z.boolean().optional(),
});

export function loginKeys() {
  return {
    perAccount: (req: Request) => `${normaliseEmail(String(req.body?.email ?? ''))}|${ipKey(req)}`,
    perIp: (req: Request) => ipKey(req),
  };
}

export function registerAuthRoutes(
  api: ApiRouter,
  controller: ReturnType<typeof createAuthController>,
  throttles: { perAccount: Throttle; perIp: Throttle },
): void {
  api.add({ method: 'get', path: '/heartbeat', access: 'public', handler: controller.heartbeat });
  api.add({ method: 'get', path: '/csrf-token', access: 'public', handler: controller.csrfToken });
  api.add({ method: 'get', path: '/app-config', access: 'public', handler: controller.appConfig });
  api.add({
    method: 'post',
    path: '/login',
    access: 'public',
    before: [throttles.perIp, throttles.perAccount],
    schemas: { body: ZLogin },
    handler: controller.login,
  });
  api.add({ method: 'post', path: '/logout', access: 'public', handler: controller.logout });
  api.add({ method: 'get', path: '/user', access: 'staff', handler: controller.user });
}
