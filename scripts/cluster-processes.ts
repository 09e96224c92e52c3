/**
 * App instances and Caddy as child processes, as production runs them: `node server/dist/main.js` (the server built
 * by scripts/build-server.ts from this checkout's sources) per instance, and Debian's `caddy run` with the repository's own `docker/Caddyfile` (its reverse proxy block, health
 * checks and retries unchanged; only the upstreams, the address and the admin endpoint come from the environment).
 * `npm run cluster` (scripts/cluster.ts) and the two-instance tests (server/test/instances*.test.ts) use these.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildServer, SERVER_NODE_OPTIONS } from './build-server';

export const ROOT = path.resolve(__dirname, '..');

/** A TCP port nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** GET `url` → its status, or 0 when nothing answered. */
export function probe(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(url, { headers, timeout: 2000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

async function waitFor(what: string, ready: () => Promise<boolean>, dead: () => string | null, ms: number) {
  for (let waited = 0; ; waited += 250) {
    const died = dead();
    if (died !== null) throw new Error(`${what} exited:\n${died}`);
    if (await ready()) return;
    if (waited > ms) throw new Error(`${what} did not answer within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export interface Instance {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  /** everything the process wrote so far */
  output(): string;
  /** SIGTERM (the drain, as `docker stop` sends it) or SIGINT; resolves when the process has exited */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

let built: string | undefined;

/**
 * One app instance (main.ts, built: `server/dist/main.js`) on `port` (default: a free one), answering once its `/readyz` says ready. `env` is
 * the whole environment besides PATH and HOME (no setting of the caller's own leaks in).
 */
export async function startInstance(
  name: string,
  env: Record<string, string>,
  options: { port?: number; inheritOutput?: boolean } = {},
): Promise<Instance> {
  const port = options.port ?? (await freePort());
  // the server built as production runs it, once per process (a build of this checkout's sources)
  built ??= buildServer();
  const child = spawn(process.execPath, [...SERVER_NODE_OPTIONS, built], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (options.inheritOutput) process.stdout.write(chunk.toString().replace(/^(?=.)/gm, `[${name}] `));
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  try {
    await waitFor(
      `instance ${name}`,
      async () => (await probe(`${url}/readyz`)) === 200,
      () => (child.exitCode !== null ? output : null),
      120_000,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { name, port, url, child, output: () => output, stop };
}

/** Debian's caddy (`apt-get install caddy`), or null when this machine has none. */
export function caddyBinary(): string | null {
  return (
    [process.env.CADDY_PATH, '/usr/bin/caddy', '/usr/local/bin/caddy'].find(
      (p): p is string => Boolean(p) && fs.existsSync(p!),
    ) ?? null
  );
}

export interface Proxy {
  port: number;
  /** `http://localhost:<port>`: Caddy's site is `localhost` and `student.localhost` */
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Caddy on `port` with `docker/Caddyfile` in front of `upstreams` (`127.0.0.1:3001`…): plain HTTP for the site
 * `localhost` (and `student.localhost`), no admin endpoint (several may run on one machine), its storage in a
 * temporary folder. Answers once a request through it reaches an instance.
 */
export async function startCaddy(
  upstreams: readonly string[],
  options: { port?: number; inheritOutput?: boolean } = {},
): Promise<Proxy> {
  const binary = caddyBinary();
  if (!binary) throw new Error('caddy is not installed (apt-get install caddy)');
  const port = options.port ?? (await freePort());
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sa-caddy-'));
  const child = spawn(
    binary,
    ['run', '--config', path.join(ROOT, 'docker/Caddyfile'), '--adapter', 'caddyfile'],
    {
      cwd: home,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        XDG_DATA_HOME: path.join(home, 'data'),
        XDG_CONFIG_HOME: path.join(home, 'config'),
        DOMAIN: `localhost:${port}`,
        SITE_SCHEME: 'http',
        UPSTREAMS: upstreams.join(' '),
        CADDY_ADMIN: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (options.inheritOutput) process.stdout.write(chunk.toString().replace(/^(?=.)/gm, '[caddy] '));
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    fs.rmSync(home, { recursive: true, force: true });
  };
  const url = `http://localhost:${port}`;
  try {
    await waitFor(
      'caddy',
      async () => (await probe(`http://127.0.0.1:${port}/api/heartbeat`, { Host: 'localhost' })) === 200,
      () => (child.exitCode !== null ? output : null),
      30_000,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { port, url, output: () => output, stop };
}
