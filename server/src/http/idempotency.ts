import type { RequestHandler, Response } from 'express';
import { AppError } from '../lib/app-error';
import { sha256 } from '../lib/crypto';
import type { IdempotencyService } from '../modules/idempotency/idempotency.service';

const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * `Idempotency-Key` on any signed-in JSON POST (quality.md 25; decision 0016): the first answer is kept and
 * replayed (`Idempotent-Replayed: true`) to a repeat with the same key and body; the same key with another body
 * is 422 `idempotency_key_reused`. A POST without the header runs as always. Uploads (multipart) are not covered:
 * their body is a file, not JSON.
 */
export function idempotency(service: IdempotencyService): RequestHandler {
  return async (req, res, next) => {
    const key = req.get('idempotency-key');
    if (req.method !== 'POST' || key === undefined || !req.auth || req.is('multipart/form-data'))
      return next();
    if (!KEY.test(key)) throw new AppError('validation', 'idempotencyKeyInvalid');
    const scope = req.auth.kind === 'staff' ? `user:${req.auth.user.id}` : `student:${req.auth.student.id}`;
    const requestHash = sha256(JSON.stringify([req.method, req.originalUrl, req.body ?? null]));
    const start = await service.begin(scope, key, requestHash);
    if (start.kind === 'replay') {
      res.setHeader('Idempotent-Replayed', 'true');
      res.status(start.status);
      if (start.body) res.type('application/json').send(start.body);
      else res.end();
      return;
    }
    keepAnswer(res, (status, body) => service.finish(start.id, status, body));
    next();
  };
}

/** The answer is recorded before it is sent, so a repeat never finds the work done and the answer missing. */
function keepAnswer(res: Response, record: (status: number, body: string) => Promise<void>): void {
  let recorded = false;
  const json = res.json.bind(res);
  res.json = ((body: unknown) => {
    recorded = true;
    void record(res.statusCode, JSON.stringify(body)).then(() => json(body));
    return res;
  }) as Response['json'];
  // an answer without a JSON body (204, a file): its status is what is replayed
  res.on('finish', () => {
    if (!recorded) void record(res.statusCode, '');
  });
}
