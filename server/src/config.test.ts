import { ConfigError, loadConfig, startupWarnings } from './config';

const KEY = `base64:${Buffer.alloc(32, 1).toString('base64')}`;

describe('config', () => {
  it('runs on the embedded default with nothing set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: 'sqlite:./data/app.sqlite',
      databaseClient: 'sqlite',
      seedDemo: true,
      isProduction: false,
    });
    expect(config.redisUrl).toBeUndefined();
    expect(config.session).toEqual({
      idleMs: 7_200_000,
      absoluteMs: 43_200_000,
      passwordConfirmMs: 10_800_000,
      adminConfirmMs: 900_000,
    });
    expect(config.bcryptCost).toBe(12);
  });

  it('reads PORT and a MySQL DATABASE_URL, and never seeds the demo on MySQL by default', () => {
    const config = loadConfig({ PORT: '8080', DATABASE_URL: 'mysql://app:pw@db:3306/agency' });
    expect(config).toMatchObject({ port: 8080, databaseClient: 'mysql', seedDemo: false });
  });

  it('stops start-up naming each missing production setting', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    try {
      loadConfig({ NODE_ENV: 'production' });
    } catch (err) {
      const message = (err as Error).message;
      for (const key of ['DATABASE_URL', 'SESSION_SECRET', 'APP_KEY']) expect(message).toContain(key);
    }
  });

  it('names a malformed setting', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ REDIS_URL: 'localhost:6379' })).toThrow(/REDIS_URL/);
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        DATABASE_URL: 'mysql://a@b/c',
        SESSION_SECRET: 'short',
        APP_KEY: KEY,
      }),
    ).toThrow(/SESSION_SECRET: must be at least 32 characters/);
  });

  it('refuses the development secret and key, and a cheap bcrypt cost, in production', () => {
    const env = {
      NODE_ENV: 'production',
      DATABASE_URL: 'mysql://a@b/c',
      SESSION_SECRET: 's'.repeat(40),
      APP_KEY: KEY,
    };
    expect(loadConfig(env).isProduction).toBe(true);
    const dev = loadConfig({});
    expect(() => loadConfig({ ...env, SESSION_SECRET: dev.sessionSecret })).toThrow(
      /SESSION_SECRET: is the development secret/,
    );
    const devKey = `base64:${dev.appKey.toString('base64')}`;
    expect(() => loadConfig({ ...env, APP_KEY: devKey })).toThrow(/APP_KEY: is the development key/);
    expect(() => loadConfig({ ...env, BCRYPT_COST: '8' })).toThrow(/BCRYPT_COST: must be at least 10/);
    expect(loadConfig({ ...env, BCRYPT_COST: '11' }).bcryptCost).toBe(11);
    // outside production the suite may hash cheaply
    expect(loadConfig({ BCRYPT_COST: '4' }).bcryptCost).toBe(4);
  });

  it('never seeds the demo in production', () => {
    const env = {
      NODE_ENV: 'production',
      DATABASE_URL: 'sqlite:/tmp/x.sqlite',
      SESSION_SECRET: 's'.repeat(40),
      APP_KEY: KEY,
    };
    expect(loadConfig(env).seedDemo).toBe(false);
    expect(() => loadConfig({ ...env, SEED_DEMO: 'true' })).toThrow(/SEED_DEMO/);
  });

  it('treats an empty variable as not set', () => {
    expect(loadConfig({ PORTAL_HOST: '', REDIS_URL: '', SMTP_HOST: '' })).toMatchObject({
      portalHost: undefined,
      redisUrl: undefined,
      smtp: undefined,
    });
  });

  it('builds the MySQL URL from separate DB_* settings, each part encoded', () => {
    const config = loadConfig({
      DB_HOST: 'mysql',
      DB_USER: 'agency',
      DB_PASSWORD: 's3cret/pa@ss+abc=',
      DB_NAME: 'agency',
    });
    expect(config).toMatchObject({ databaseClient: 'mysql', seedDemo: false });
    expect(config.databaseUrl).toBe('mysql://agency:s3cret%2Fpa%40ss%2Babc%3D@mysql:3306/agency');
    expect(() => loadConfig({ DB_HOST: 'mysql' })).toThrow(/DB_USER: is required with DB_HOST/);
  });

  it('names an unencoded password in DATABASE_URL instead of failing later with "Invalid URL"', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://agency:abc+def/ghi=@mysql:3306/agency' })).toThrow(
      /DATABASE_URL: is not a valid URL.*: percent-encode/,
    );
  });

  it('refuses an unencoded @ in the DATABASE_URL password, naming the fix and never the password', () => {
    for (const url of [
      'mysql://agency:pa@ss@mysql:3306/agency',
      'mysql://agency:p@ss:word@mysql/agency',
      'mysql://agency:50%off@mysql:3306/agency',
      'mysql://agency:pa#ss@mysql:3306/agency',
    ]) {
      let message = '';
      try {
        loadConfig({ DATABASE_URL: url });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        message = (err as Error).message;
      }
      expect([url, message]).toEqual([url, expect.stringMatching(/DATABASE_URL: .*percent-encode/)]);
      expect(message).toContain('DB_HOST, DB_USER, DB_PASSWORD');
      expect(message).not.toMatch(/pa@ss|p@ss|50%off|pa#ss/);
    }
    // percent-encoded, as the README says, it is read back to the password as typed
    const encoded = `mysql://agency:${encodeURIComponent('pa@ss/50%off#1')}@mysql:3306/agency`;
    expect(loadConfig({ DATABASE_URL: encoded }).databaseUrl).toBe(encoded);
    expect(loadConfig({ DATABASE_URL: 'mysql://agency@mysql/agency' }).databaseClient).toBe('mysql');
  });

  it('listens on every interface unless HOST names one', () => {
    expect(loadConfig({}).host).toBeUndefined();
    expect(loadConfig({ HOST: '127.0.0.1' }).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '::1' }).host).toBe('::1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(() => loadConfig({ HOST: 'http://127.0.0.1' })).toThrow(/HOST: /);
    expect(() => loadConfig({ HOST: '127.0.0.1:3000' })).toThrow(/HOST: /);
  });

  it('warns at start when mail has a server but no sender (mail stays off), and for the risky settings', () => {
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: 'mysql://app:pw@db:3306/agency',
      SESSION_SECRET: 's'.repeat(40),
      APP_KEY: KEY,
    };
    expect(startupWarnings(loadConfig(production))).toEqual([]);
    const noSender = loadConfig({ ...production, SMTP_HOST: 'smtp.example.com' });
    expect(noSender.smtp).toBeUndefined();
    expect(startupWarnings(noSender)).toEqual([expect.stringMatching(/SMTP_HOST is set without SMTP_FROM/)]);
    const mail = loadConfig({
      ...production,
      SMTP_HOST: 'smtp.example.com',
      SMTP_FROM: 'office@example.com',
    });
    expect(mail.smtp).toMatchObject({ host: 'smtp.example.com', from: 'office@example.com' });
    expect(startupWarnings(mail)).toEqual([]);
    expect(startupWarnings(loadConfig({ ...production, COOKIE_SECURE: 'false' }))).toEqual([
      expect.stringContaining('COOKIE_SECURE=false'),
    ]);
    expect(startupWarnings(loadConfig({ ...production, TRUST_PROXY: 'true' }))).toEqual([
      expect.stringContaining('TRUST_PROXY=true'),
    ]);
  });

  it('makes cookies Secure in production unless COOKIE_SECURE=false (the trusted-LAN mode)', () => {
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: 'mysql://app:pw@db:3306/agency',
      SESSION_SECRET: 's'.repeat(40),
      APP_KEY: KEY,
    };
    expect(loadConfig(production).cookieSecure).toBe(true);
    expect(loadConfig({ ...production, COOKIE_SECURE: 'false' }).cookieSecure).toBe(false);
    expect(loadConfig({}).cookieSecure).toBe(false);
  });

  it('trusts X-Forwarded-For only from a configured proxy', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toBe('loopback');
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
  });
});
