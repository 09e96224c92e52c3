/**
 * `npm run admin:create [-- --name "…" --email … --password … --language en|zh_HK --company "…"
 * --company-code … --branch "…" --branch-code … --force]`: the first administrator of a fresh install (a
 * production database starts with no account, role, company or branch). Whatever is not given is asked for on
 * the terminal, the password without echo and twice; `ADMIN_PASSWORD` in the environment serves scripts
 * (a password on the command line stays in the shell's history). Runs the migrations first, so it works
 * before the app has ever started. Refuses, saying so, when an active administrator exists, unless `--force`.
 * Works in the production image too: tsx is a runtime dependency (`docker compose exec app npm run admin:create`).
 */
import readline from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { createDb, migrateLatest, withDatabaseLock } from '../db/knex';
import { STARTUP_LOCK } from '../db/startup';
import { configurePasswords } from '../lib/passwords';
import { firstAdminRepository } from '../modules/users/first-admin.repository';
import {
  activeAdmins,
  alreadyExists,
  createFirstAdmin,
  FirstAdminError,
  type FirstAdminInput,
} from './first-admin';

const USAGE =
  'Usage: npm run admin:create -- [--name NAME] [--email EMAIL] [--password PASSWORD] [--language en|zh_HK]\n' +
  '       [--company NAME] [--company-code CODE] [--branch NAME] [--branch-code CODE] [--force]\n' +
  'Without --name/--email/--password it asks on the terminal; ADMIN_PASSWORD sets the password for scripts.';

/** Reads a line without echoing it (raw mode): a password typed here is never shown or kept. */
function askHidden(prompt: string): Promise<string> {
  const input = process.stdin;
  process.stdout.write(prompt);
  input.setRawMode(true);
  input.resume();
  input.setEncoding('utf8');
  let value = '';
  return new Promise((resolve, reject) => {
    const finish = (err?: Error) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stdout.write('\n');
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return finish();
        if (ch === '\u0003') return finish(new FirstAdminError('Cancelled: nothing was changed.'));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    input.on('data', onData);
  });
}

async function ask(question: string, fallback?: string): Promise<string> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = (await rl.question(fallback ? `${question} [${fallback}]: ` : `${question}: `)).trim();
    return answer || fallback || '';
  } finally {
    rl.close();
  }
}

async function gather(
  values: Record<string, string | boolean | undefined>,
  fresh: { company: boolean; branch: boolean },
): Promise<FirstAdminInput> {
  const text = (key: string) => (typeof values[key] === 'string' ? (values[key] as string) : undefined);
  const interactive = Boolean(process.stdin.isTTY);
  const missing = (['name', 'email'] as const).filter((k) => !text(k));
  let password = text('password') ?? process.env.ADMIN_PASSWORD;
  if (!interactive && (missing.length || !password)) {
    throw new FirstAdminError(
      `No terminal to ask on: give ${[...missing.map((k) => `--${k}`), ...(password ? [] : ['--password (or ADMIN_PASSWORD)'])].join(', ')}.\n${USAGE}`,
    );
  }
  const name = text('name') ?? (await ask('Name'));
  const email = text('email') ?? (await ask('Email (the sign-in)'));
  if (!password) {
    password = await askHidden('Password (8+ characters, upper- and lower-case letters and a digit): ');
    if ((await askHidden('Password again: ')) !== password) {
      throw new FirstAdminError('The passwords do not match: nothing was changed.');
    }
  }
  // a fresh database has no company or branch: asked for on a terminal, the defaults otherwise
  const asked = (key: string, question: string, fallback: string, needed: boolean) =>
    text(key) ?? (interactive && needed ? ask(question, fallback) : undefined);
  return {
    name,
    email,
    password,
    language: (text('language') as FirstAdminInput['language']) ?? undefined,
    companyName: await asked('company', 'Company name', 'Our agency', fresh.company),
    companyCode: await asked('company-code', 'Company code', 'HQ', fresh.company),
    branchName: await asked('branch', 'First branch name', 'Head office', fresh.branch),
    branchCode: await asked('branch-code', 'First branch code', 'HQ', fresh.branch),
  };
}

async function run(): Promise<void> {
  const { values } = parseArgs({
    options: {
      name: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      language: { type: 'string' },
      company: { type: 'string' },
      'company-code': { type: 'string' },
      branch: { type: 'string' },
      'branch-code': { type: 'string' },
      force: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  configurePasswords(config.bcryptCost);
  const db = createDb(config.databaseUrl);
  try {
    await withDatabaseLock(db, STARTUP_LOCK, () => migrateLatest(db));
    // refused before anything is asked: nobody types a password for nothing
    const admins = await activeAdmins(db);
    if (admins.length && !values.force) {
      throw new FirstAdminError(alreadyExists(admins.map((a) => a.email)));
    }
    const fresh = {
      company: !(await firstAdminRepository.anyCompany(db)),
      branch: !(await firstAdminRepository.anyBranch(db)),
    };
    const input = await gather(values, fresh);
    const result = await createFirstAdmin(db, input, { force: values.force });
    const made = Object.entries(result.created)
      .filter(([, yes]) => yes)
      .map(([what]) => what);
    console.log(
      `Administrator ${input.email.trim().toLowerCase()} created (user ${result.userId})` +
        (made.length ? `, with a new ${made.join(', ')}` : '') +
        '. Sign in at the app’s address; add the company’s details and more branches under Settings.',
    );
  } finally {
    await db.destroy();
  }
}

run().catch((err) => {
  if (err instanceof FirstAdminError || err instanceof ConfigError) console.error(err.message);
  else if (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS')) {
    console.error(`${err.message}\n${USAGE}`);
  } else console.error(err);
  process.exit(1);
});
