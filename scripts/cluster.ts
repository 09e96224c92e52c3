/**
 * `npm run cluster`: two app instances on one MariaDB/MySQL database and one Redis, and Caddy in front of them with
 * the repository's own docker/Caddyfile, on this machine — what compose runs, for a person to try (decision 0015).
 *
 *   http://localhost:3000          the back-office, through Caddy (fewest requests under way, health checks on /readyz)
 *   http://student.localhost:3000  the student portal
 *   127.0.0.1:3001, 127.0.0.1:3002 the two instances themselves
 *
 * Environment: CLUSTER_DATABASE_URL (default mysql://root@127.0.0.1:3306/agency_cluster, created when missing),
 * REDIS_URL (default redis://127.0.0.1:6379), PORT (Caddy's, default 3000), CLUSTER_PORTS (default 3001,3002),
 * and any setting of the app's own (SMTP_*, …), handed to both instances. The demo data is seeded on the first
 * start. Ctrl-C stops all three; `kill -TERM <pid of an instance>` shows a graceful stop while Caddy keeps serving.
 */
import knex, { type Knex } from 'knex';
import { caddyBinary, startCaddy, startInstance, type Instance, type Proxy } from './cluster-processes';

const DATABASE_URL = process.env.CLUSTER_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/agency_cluster';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PORT = Number(process.env.PORT ?? 3000);
const PORTS = (process.env.CLUSTER_PORTS ?? '3001,3002').split(',').map(Number);

const running: { instances: Instance[]; proxy?: Proxy } = { instances: [] };
let stopping = false;

/** Ctrl-C: everything at once; SIGTERM: the instances drain first, as in production. */
async function stopAll(signal: NodeJS.Signals, code = 0): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping Caddy and the instances …');
  await Promise.all([running.proxy?.stop(), ...running.instances.map((i) => i.stop(signal))]);
  process.exit(code);
}

/** Creates the cluster's database when the server does not have it yet (the instances migrate it). */
async function ensureDatabase(url: string): Promise<void> {
  if (!url.startsWith('mysql://'))
    throw new Error('CLUSTER_DATABASE_URL must be mysql://… (one database, two instances)');
  const parsed = new URL(url);
  const name = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (!/^\w+$/.test(name))
    throw new Error(`CLUSTER_DATABASE_URL names the database "${name}": letters, digits, _`);
  parsed.pathname = '/';
  const server: Knex = knex({ client: 'mysql2', connection: { uri: parsed.toString() } } as Knex.Config);
  try {
    await server.raw(
      `CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
  } finally {
    await server.destroy();
  }
}

async function main(): Promise<void> {
  if (!caddyBinary()) {
    console.error('caddy is not installed: apt-get install caddy (Debian 12 has 2.6), or set CADDY_PATH.');
    process.exit(1);
  }
  await ensureDatabase(DATABASE_URL);
  const { PORT: _port, CLUSTER_DATABASE_URL: _url, CLUSTER_PORTS: _ports, ...settings } = process.env;
  const env: Record<string, string> = {
    ...(Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >),
    NODE_ENV: process.env.NODE_ENV ?? 'development',
    DATABASE_URL,
    REDIS_URL,
    REDIS_PREFIX: process.env.REDIS_PREFIX ?? 'cluster:',
    HOST: '127.0.0.1',
    SEED_DEMO: process.env.SEED_DEMO ?? 'true',
    // the address people type: Caddy's (the portal is student.<that host>, same port)
    APP_URL: process.env.APP_URL ?? `http://localhost:${PORT}`,
  };
  process.on('SIGINT', () => void stopAll('SIGINT'));
  process.on('SIGTERM', () => void stopAll('SIGTERM'));
  // the first instance migrates and seeds alone; the second finds it done (they would take turns anyway)
  running.instances.push(await startInstance('app 1', env, { port: PORTS[0], inheritOutput: true }));
  running.instances.push(await startInstance('app 2', env, { port: PORTS[1], inheritOutput: true }));
  for (const instance of running.instances) {
    instance.child.once('exit', (code, signal) => {
      if (!stopping)
        console.log(
          `[${instance.name}] stopped (${signal ?? `exit ${code}`}); Caddy sends everything to the other`,
        );
    });
  }
  running.proxy = await startCaddy(
    running.instances.map((i) => `127.0.0.1:${i.port}`),
    { port: PORT },
  );
  console.log(
    [
      '',
      `Two instances behind Caddy: http://localhost:${PORT} (back-office), http://student.localhost:${PORT} (portal)`,
      `  ${running.instances.map((i) => `${i.name}: ${i.url} (pid ${i.child.pid})`).join('\n  ')}`,
      `  database ${DATABASE_URL.replace(/\/\/[^@]*@/, '//…@')}, Redis ${REDIS_URL}`,
      'Ctrl-C stops all three.',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  void stopAll('SIGINT', 1);
});
