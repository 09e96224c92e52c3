import { z } from 'zod';

const minutes = z.coerce.number().positive();

const UNENCODED_URL =
  'is not a valid URL, or its user name or password holds an unencoded @, /, ?, # or % (the value is not repeated ' +
  'here): percent-encode them (encodeURIComponent: @ is %40) or use DB_HOST, DB_USER, DB_PASSWORD, DB_NAME instead';

/**
 * Whether a `mysql://` URL parses with its user name and password percent-encoded: nothing before the last `@`
 * holds another `@`, a `/`, `?` or `#`, or a `%` that is not an escape. An unencoded `@` still parses (the last
 * `@` ends the password) and `#`, `?`, `/` cut it short, but an encoded password and an unencoded one holding
 * `%40` cannot be told apart: the README asks for encoding, and anything else is refused, not guessed at.
 */
function mysqlUrlIsEncoded(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const rest = url.slice('mysql://'.length);
  const at = rest.lastIndexOf('@');
  if (at < 0) return true;
  const userinfo = rest.slice(0, at);
  return !/[@/?#]/.test(userinfo) && !/%(?![0-9A-Fa-f]{2})/.test(userinfo);
}

/** Used outside production when nothing is set; production refuses them (they are in this public source). */
const DEV_SECRET = 'development-only-session-secret-not-for-production';
const DEV_KEY = Buffer.alloc(32, 7);

const ZEnv = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /**
     * the address to listen on: unset, every interface (as `::` does); `127.0.0.1` behind a proxy on the same
     * host (the README's bare-machine install); `0.0.0.0` in the container
     */
    HOST: z
      .string()
      .regex(
        /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|(?=[^:]*:[^:]*:)[0-9A-Fa-f:.]+)$/,
        'must be an address or host name to listen on, without a scheme or port (127.0.0.1, ::1, 0.0.0.0)',
      )
      .optional(),
    DATABASE_URL: z
      .string()
      .regex(/^(sqlite:.+|mysql:\/\/.+)$/, 'must be sqlite:<path> or mysql://user:pass@host:port/db')
      .refine((url) => !url.startsWith('mysql://') || mysqlUrlIsEncoded(url), UNENCODED_URL)
      .optional(),
    /**
     * MySQL/MariaDB as separate settings (what compose passes): the password is taken as it is, so `s3cret/pa@ss`
     * or a base64 `abc+def/ghi=` need no URL encoding. Used when DATABASE_URL is not set.
     */
    DB_HOST: z.string().min(1).optional(),
    DB_PORT: z.coerce.number().int().min(1).max(65535).default(3306),
    DB_USER: z.string().min(1).optional(),
    DB_PASSWORD: z.string().optional(),
    DB_NAME: z.string().min(1).optional(),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\/.+/, 'must be redis://host:port[/db]')
      .optional(),
    /** begins every Redis key of this install: instances of one install share it, two installs on one Redis differ */
    REDIS_PREFIX: z
      .string()
      .regex(/^[\w:.-]{1,64}$/, 'must be 1–64 letters, digits, _ : . or -')
      .default('sa:'),
    SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    APP_KEY: z
      .string()
      .regex(/^base64:[A-Za-z0-9+/]{43}=$/, 'must be base64: followed by 32 random bytes in base64')
      .optional(),
    PORTAL_HOST: z.string().min(1).optional(),
    APP_URL: z.url().optional(),
    TRUST_PROXY: z.string().optional(),
    /**
     * `false` lets the session and CSRF cookies travel over plain HTTP in production: a trusted LAN without TLS,
     * warned about at start. Unset, cookies are Secure exactly in production.
     */
    COOKIE_SECURE: z.enum(['true', 'false']).optional(),
    SESSION_IDLE_MINUTES: minutes.default(120),
    SESSION_ABSOLUTE_MINUTES: minutes.default(720),
    PASSWORD_CONFIRM_MINUTES: minutes.default(180),
    ADMIN_CONFIRM_MINUTES: minutes.default(15),
    BCRYPT_COST: z.coerce.number().int().min(4).max(15).default(12),
    /** how long a list, count or export query may run before it is stopped (503 `query_timeout`) */
    DB_STATEMENT_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(10),
    SMTP_HOST: z.string().optional(),
    SMTP_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    SMTP_USER: z.string().optional(),
    SMTP_PASSWORD: z.string().optional(),
    SMTP_FROM: z.string().optional(),
    SMTP_SECURE: z.enum(['true', 'false']).optional(),
    UPLOAD_DIR: z.string().default('./uploads'),
    LOG_LEVEL: z.enum(['error', 'warn', 'info', 'http', 'debug', 'silent']).default('info'),
    SEED_DEMO: z.enum(['true', 'false']).optional(),
    /**
     * how long an instance told to stop (SIGTERM) keeps answering while /readyz says it is stopping, so that the
     * proxy's health check takes it out before it stops accepting (decision 0015)
     */
    SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(120).default(5),
  })
  .superRefine((env, ctx) => {
    if (env.DB_HOST && !env.DATABASE_URL) {
      for (const key of ['DB_USER', 'DB_NAME'] as const) {
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required with DB_HOST' });
      }
    }
    if (env.NODE_ENV !== 'production') return;
    for (const key of ['SESSION_SECRET', 'APP_KEY'] as const) {
      if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required in production' });
    }
    if (!env.DATABASE_URL && !env.DB_HOST) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_URL'],
        message: 'is required in production (or DB_HOST, DB_USER, DB_PASSWORD and DB_NAME)',
      });
    }
    if (env.SESSION_SECRET === DEV_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['SESSION_SECRET'],
        message: 'is the development secret: set a random one of your own',
      });
    }
    if (env.APP_KEY && Buffer.from(env.APP_KEY.slice('base64:'.length), 'base64').equals(DEV_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: ['APP_KEY'],
        message: 'is the development key: generate a random one of your own',
      });
    }
    if (env.BCRYPT_COST < 10) {
      ctx.addIssue({ code: 'custom', path: ['BCRYPT_COST'], message: 'must be at least 10 in production' });
    }
    if (env.SEED_DEMO === 'true') {
      ctx.addIssue({
        code: 'custom',
        path: ['SEED_DEMO'],
        message: 'the demo data is never seeded in production',
      });
    }
  });

/** Every environment variable the app reads: compose's environment and docker/.env.example are checked against it. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(ZEnv.shape);

export interface Config {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  /** the address to listen on; undefined: every interface */
  host?: string;
  databaseUrl: string;
  databaseClient: 'sqlite' | 'mysql';
  redisUrl?: string;
  redisPrefix: string;
  sessionSecret: string;
  appKey: Buffer;
  portalHost?: string;
  appUrl?: string;
  trustProxy: boolean | number | string;
  /** whether the session and CSRF cookies are `Secure` (and HSTS is sent): production, unless COOKIE_SECURE=false */
  cookieSecure: boolean;
  session: {
    idleMs: number;
    absoluteMs: number;
    /** how long a password confirmation lasts for sensitive actions on one's own account (2FA, tokens …) */
    passwordConfirmMs: number;
    /** how recent it must be for an admin to change mail, security or storage settings */
    adminConfirmMs: number;
  };
  bcryptCost: number;
  /** the statement timeout of list, count and export queries (MariaDB/MySQL) */
  statementTimeoutMs: number;
  smtp?: { host: string; port: number; user?: string; password?: string; from: string; secure: boolean };
  /** SMTP_HOST is set without SMTP_FROM: no mail server from the environment (warned at start) */
  smtpWithoutFrom: boolean;
  uploadDir: string;
  logLevel: string;
  seedDemo: boolean;
  /** SIGTERM: how long /readyz answers 503 while requests are still served, before the instance stops accepting */
  shutdownDrainMs: number;
}

/** Thrown when the environment does not describe a runnable configuration; the message names each setting. */
export class ConfigError extends Error {}

function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value; // 'loopback', an address, or a comma-separated list, as Express understands it
}

/** The separate DB_* settings as a mysql:// URL, each part percent-encoded (mysql2 decodes them again). */
export function mysqlUrlFromParts(parts: {
  host: string;
  port: number;
  user: string;
  password?: string;
  database: string;
}): string {
  const auth = `${encodeURIComponent(parts.user)}${parts.password ? `:${encodeURIComponent(parts.password)}` : ''}`;
  const host = parts.host.includes(':') ? `[${parts.host}]` : parts.host;
  return `mysql://${auth}@${host}:${parts.port}/${encodeURIComponent(parts.database)}`;
}

/** Parses the environment once. A missing or malformed setting stops start-up with a message naming it. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  // an empty variable (`SMTP_HOST=` in a compose file) means "not set"
  const present = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = ZEnv.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const databaseUrl =
    env.DATABASE_URL ??
    (env.DB_HOST && env.DB_USER && env.DB_NAME
      ? mysqlUrlFromParts({
          host: env.DB_HOST,
          port: env.DB_PORT,
          user: env.DB_USER,
          password: env.DB_PASSWORD,
          database: env.DB_NAME,
        })
      : 'sqlite:./data/app.sqlite');
  const databaseClient = databaseUrl.startsWith('mysql://') ? 'mysql' : 'sqlite';
  const smtp =
    env.SMTP_HOST && env.SMTP_FROM
      ? {
          host: env.SMTP_HOST,
          port: env.SMTP_PORT ?? 587,
          user: env.SMTP_USER,
          password: env.SMTP_PASSWORD,
          from: env.SMTP_FROM,
          secure: env.SMTP_SECURE === 'true',
        }
      : undefined;
  return {
    env: env.NODE_ENV,
    isProduction: env.NODE_ENV === 'production',
    port: env.PORT,
    host: env.HOST,
    databaseUrl,
    databaseClient,
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_PREFIX,
    sessionSecret: env.SESSION_SECRET ?? DEV_SECRET,
    appKey: env.APP_KEY ? Buffer.from(env.APP_KEY.slice('base64:'.length), 'base64') : DEV_KEY,
    portalHost: env.PORTAL_HOST,
    appUrl: env.APP_URL,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    cookieSecure: env.COOKIE_SECURE ? env.COOKIE_SECURE === 'true' : env.NODE_ENV === 'production',
    session: {
      idleMs: env.SESSION_IDLE_MINUTES * 60_000,
      absoluteMs: env.SESSION_ABSOLUTE_MINUTES * 60_000,
      passwordConfirmMs: env.PASSWORD_CONFIRM_MINUTES * 60_000,
      adminConfirmMs: Math.min(env.ADMIN_CONFIRM_MINUTES, env.PASSWORD_CONFIRM_MINUTES) * 60_000,
    },
    bcryptCost: env.BCRYPT_COST,
    statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_SECONDS * 1000,
    smtp,
    smtpWithoutFrom: Boolean(env.SMTP_HOST && !env.SMTP_FROM),
    uploadDir: env.UPLOAD_DIR,
    logLevel: env.LOG_LEVEL,
    seedDemo:
      env.SEED_DEMO !== undefined
        ? env.SEED_DEMO === 'true'
        : env.NODE_ENV !== 'production' && databaseClient === 'sqlite',
    shutdownDrainMs: env.SHUTDOWN_DRAIN_SECONDS * 1000,
  };
}

/**
 * What the operator should know about a configuration that runs but may not do what was meant, logged as warnings
 * at every start (main.ts).
 */
export function startupWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (config.isProduction && !config.cookieSecure) {
    warnings.push(
      'COOKIE_SECURE=false: session cookies travel over plain HTTP. Use this only on a trusted LAN; anyone on ' +
        'the network can read and reuse a session. Put TLS in front (docker/compose.yaml has Caddy) instead.',
    );
  }
  if (config.trustProxy === true) {
    warnings.push('TRUST_PROXY=true believes X-Forwarded-For from anyone: name the proxy’s address instead.');
  }
  if (config.smtpWithoutFrom) {
    warnings.push(
      'SMTP_HOST is set without SMTP_FROM: mail from the environment stays off (password resets, invitations, ' +
        'verification). Set SMTP_FROM to the sender address, e.g. office@agency.example, or complete the mail ' +
        'settings in Settings → Mail.',
    );
  }
  return warnings;
}
