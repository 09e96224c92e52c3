import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { outputPath } from './harness';

const root = resolve(import.meta.dirname, '..');

export interface RunningServer {
  port: number;
  /** Staff host, e.g. http://localhost:41234 */
  staffUrl: string;
  /** Portal host, e.g. http://student.localhost:41234 (Chromium resolves *.localhost to loopback). */
  portalUrl: string;
  /**
   * The server's SQLite file: a journey stands in there for a step of another screen that does not exist yet
   * (a student submitting their information in the portal, issue 14), never for the screen it tests
   */
  databaseFile: string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

async function waitForHeartbeat(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/api/heartbeat`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer ${url}/api/heartbeat within ${timeoutMs / 1000} s`);
}

/**
 * Start the real server on a free port with a fresh SQLite file and upload folder (it migrates and seeds the demo data on
 * first run). Its output goes to test-results/e2e/server-<name>.log.
 */
export async function startServer(name: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), `e2e-${name}-`));
  const databaseFile = join(dir, 'e2e.sqlite');
  const log = createWriteStream(outputPath(`server-${name}.log`));
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'server', 'src', 'main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: `sqlite:${databaseFile}`,
      UPLOAD_DIR: join(dir, 'uploads'),
      PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);

  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        child.kill('SIGTERM');
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 5000);
      await exited;
      clearTimeout(timer);
    }
    log.end();
    rmSync(dir, { recursive: true, force: true });
  };

  const staffUrl = `http://localhost:${port}`;
  try {
    await waitForHeartbeat(staffUrl, child, 90_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, staffUrl, portalUrl: `http://student.localhost:${port}`, databaseFile, stop };
}
