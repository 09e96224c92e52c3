import request from 'supertest';
import type { Instance } from '../../scripts/cluster-processes';
import { STAFF_HOST } from './harness';

/** A browser: its cookies and CSRF token, sent to whichever instance the load balancer picks. */
export class Browser {
  private readonly cookies = new Map<string, string>();
  private token = '';

  constructor(readonly host: string = STAFF_HOST) {}

  async send(
    on: Pick<Instance, 'url'>,
    method: 'get' | 'post' | 'put' | 'delete',
    url: string,
    body?: object,
    headers: Record<string, string> = {},
  ) {
    const req = request(on.url)[method](url).set('Host', this.host);
    for (const [name, value] of Object.entries(headers)) req.set(name, value);
    if (this.cookies.size) req.set('Cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    if (method !== 'get' && this.token) req.set('X-CSRF-Token', this.token);
    const res = body ? await req.send(body) : await req;
    const set = res.headers['set-cookie'] as unknown as string[] | undefined;
    for (const line of set ?? []) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1));
    }
    return res;
  }

  async refreshToken(on: Pick<Instance, 'url'>): Promise<void> {
    this.token = (await this.send(on, 'get', '/api/csrf-token')).body.token;
  }

  async signIn(on: Pick<Instance, 'url'>, email: string, password: string): Promise<void> {
    await this.refreshToken(on);
    const res = await this.send(on, 'post', '/api/login', { email, password });
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
    await this.refreshToken(on);
  }
}
