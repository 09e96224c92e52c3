/**
 * GET /healthz and GET /readyz (issue 30, item 4): what compose's healthchecks and Caddy's active health checks ask.
 * /healthz: the process answers. /readyz: the database answers, every migration is applied, Redis answers when it is
 * configured, and the instance is not stopping — else 503 naming what is not. Neither makes a session or a cookie.
 */
import { Redis } from 'ioredis';
import request from 'supertest';
import { createApp } from '../src/app';
import { createDb } from '../src/db/knex';
import { createTestApp, FIXTURE_DIST, STAFF_HOST, type TestApp } from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const sessionRows = async () => Number((await t.db('sessions').count({ n: '*' }).first())?.n);
const redisSessions = async () => (t.redis ? (await t.redis.keys(`${t.redisPrefix}sess:*`)).length : 0);

describe('GET /healthz and GET /readyz', () => {
  it('answer without a session, a cookie or a request to sign in', async () => {
    const before = [await sessionRows(), await redisSessions()];
    const health = await request(t.app).get('/healthz').set('Host', STAFF_HOST);
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    const ready = await request(t.app).get('/readyz').set('Host', STAFF_HOST);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      checks: {
        database: 'ok',
        migrations: 'current',
        redis: t.redis ? 'ok' : 'not configured',
        instance: 'serving',
      },
    });
    for (const res of [health, ready]) {
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
    expect([await sessionRows(), await redisSessions()]).toEqual(before);
  });

  it('/readyz answers 503 while the instance stops, and every answer then closes its connection', async () => {
    const other = t.restart();
    expect((await request(other.app).get('/readyz')).status).toBe(200);
    other.lifecycle.stop();
    const ready = await request(other.app).get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks.instance).toBe('stopping');
    expect(ready.headers.connection).toBe('close');
    // still serving meanwhile: the process answers, and so does the API
    const health = await request(other.app).get('/healthz');
    expect(health.status).toBe(200);
    expect(health.headers.connection).toBe('close');
    const api = await request(other.app).get('/api/heartbeat').set('Host', STAFF_HOST);
    expect(api.status).toBe(200);
    expect(api.headers.connection).toBe('close');
  });

  it('/readyz answers 503 when a migration is not applied', async () => {
    const last = await t.db('knex_migrations').orderBy('id', 'desc').first();
    await t.db('knex_migrations').where({ id: last.id }).delete();
    try {
      const fresh = t.restart();
      const ready = await request(fresh.app).get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body.checks).toMatchObject({ database: 'ok', migrations: '1 pending' });
    } finally {
      await t.db('knex_migrations').insert(last);
    }
  });

  it('/readyz answers 503 when the database does not answer, and when Redis does not', async () => {
    const gone = createDb(t.config.databaseUrl);
    await gone.destroy();
    const noDatabase = createApp({ config: t.config, db: gone, clientDist: FIXTURE_DIST });
    const down = await request(noDatabase.app).get('/readyz');
    expect(down.status).toBe(503);
    expect(down.body.checks.database).toBe('unreachable');
    expect((await request(noDatabase.app).get('/healthz')).status).toBe(200);

    // a Redis nobody listens at
    const nowhere = new Redis('redis://127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: 0 });
    const noRedis = createApp({ config: t.config, db: t.db, redis: nowhere, clientDist: FIXTURE_DIST });
    const away = await request(noRedis.app).get('/readyz');
    expect(away.status).toBe(503);
    expect(away.body.checks).toMatchObject({ database: 'ok', redis: 'unreachable' });
    nowhere.disconnect();
  });
});
