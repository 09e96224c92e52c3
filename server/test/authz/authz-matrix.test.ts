import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { CRUD_ACTIONS, MODULES, PERMISSIONS } from '../../../shared/permissions';
import type { RegisteredRoute } from '../../src/http/api-router';
import { toDbDateTime } from '../../src/lib/clock';
import { randomToken, sha256 } from '../../src/lib/crypto';
import { settingsRepository } from '../../src/modules/settings/settings.repository';
import { SETTING_KEYS } from '../../src/modules/users/account-settings';
import {
  Client,
  PORTAL_HOST,
  STAFF_HOST,
  createBranch,
  createRole,
  createStudent,
  createTestApp,
  createUser,
  type TestApp,
} from '../harness';

/**
 * The authorisation matrix (quality §14): every registered route × seven kinds of caller → the expected
 * status, kept in `matrix.json`. The test fails on any mismatch, on any registered route missing from the file,
 * and on a row whose permission key differs from the route's. It also holds every row to rules that do not
 * depend on the file (anonymous → 401, staff without the module → 403, admin never 401/403 …), so a row cannot
 * bless a hole.
 *
 * Adding a route: run the test; it prints a ready row for each missing route (what the app answers now) —
 * check the statuses, then paste the row into `matrix.json`. `AUTHZ_MATRIX_WRITE=1` appends those rows itself.
 *
 * Every request is made with `:id` = 1 and the row's `body` (default `{}`), so writes stop at validation.
 * The fixture makes record 1 of users, roles, companies and branches belong to the *other* branch and still be
 * referenced, so deletes answer 409 and a branch-scoped caller gets 404.
 */

export const ROLES = [
  'anonymous',
  'student',
  'no_module',
  'read_only',
  'writer',
  'branch_scoped',
  'admin',
] as const;
type Role = (typeof ROLES)[number];

interface Row {
  route: string;
  permission: string | null;
  /** request body; the text `{role}` inside a string becomes the caller's role name */
  body?: Record<string, unknown>;
  /** after this request the caller signs in again (the route ends the session) */
  relogin?: boolean;
  /** statuses in the order of the file's `roles`, e.g. "401 401 403 200 200 404 200" */
  expect: string;
  note?: string;
}

interface MatrixFile {
  $comment: string[];
  roles: Role[];
  routes: Row[];
}

const FILE = path.join(__dirname, 'matrix.json');
const PUBLIC_ACCESS = 'public';

let t: TestApp;
const clients = new Map<string, Client>();
const logins = new Map<string, { email: string; password: string; host?: string }>();

function routeKey(r: RegisteredRoute): string {
  return `${r.method} ${r.path}`;
}

/** The caller for a role, and for `no_module` the one missing the route's module. */
function callerKey(role: Role, permission: string | null): string {
  if (role !== 'no_module') return role;
  if (!permission) return 'no_module:none';
  // an admin-only route (a key outside the shared list): staff holding every permission, not admin
  if (!PERMISSIONS.includes(permission)) return 'no_module:all';
  return `no_module:${permission.split('.')[0]}`;
}

async function signIn(key: string, index: number): Promise<Client> {
  const login = logins.get(key);
  const c = new Client(t.app, login?.host);
  const ip = `10.77.0.${index + 1}`;
  const send = c.send.bind(c);
  const get = c.get.bind(c);
  c.send = (method, url, body) => send(method, url, body).set('X-Forwarded-For', ip);
  c.get = (url) => get(url).set('X-Forwarded-For', ip);
  if (login) {
    const res = await c.login(login.email, login.password);
    if (res.status !== 200)
      throw new Error(`${key} could not sign in: ${res.status} ${JSON.stringify(res.body)}`);
  } else {
    await c.refreshToken();
  }
  clients.set(key, c);
  return c;
}

async function fixture(): Promise<void> {
  const now = toDbDateTime();
  // record 1 of each: in the other branch, and still referenced
  const other = await createBranch(t.db, 'OTHER');
  const own = await createBranch(t.db, 'OWN');
  const roleOne = await createRole(t.db, ['students.view']);
  const userOne = await createUser(t.db, { email: 'record-one@example.com' });
  await t.db('users').where({ id: userOne.id }).update({ role_id: roleOne, branch_id: other });
  await t.db('students').insert({
    student_no: 'MATRIX-1',
    branch_id: other,
    consultant_user_id: userOne.id,
    created_at: now,
    updated_at: now,
  });
  const staff = async (key: string, permissions: string[], scope: 'all' | 'branch', isAdmin = false) => {
    const u = await createUser(t.db, {
      email: `${key.replace(':', '-')}@matrix.example.com`,
      is_admin: isAdmin,
    });
    const roleId = await createRole(t.db, permissions, scope);
    await t.db('users').where({ id: u.id }).update({ role_id: roleId, branch_id: own });
    logins.set(key, { email: u.email, password: u.password });
  };
  await staff(
    'read_only',
    PERMISSIONS.filter((p) => p.endsWith('.view')),
    'all',
  );
  await staff('writer', [...PERMISSIONS], 'all');
  await staff('branch_scoped', [...PERMISSIONS], 'branch');
  await staff('admin', [], 'branch', true);
  await staff('no_module:none', [], 'all');
  await staff('no_module:all', [...PERMISSIONS], 'all');
  for (const m of MODULES)
    await staff(
      `no_module:${m}`,
      PERMISSIONS.filter((p) => !p.startsWith(`${m}.`)),
      'all',
    );
  const student = await createStudent(t.db);
  logins.set('student', { email: student.email, password: student.password, host: PORTAL_HOST });
}

function fill(value: unknown, role: Role): unknown {
  if (typeof value === 'string') return value.replaceAll('{role}', role.replace('_', '-'));
  if (Array.isArray(value)) return value.map((v) => fill(v, role));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, role)]));
  }
  return value;
}

async function call(route: RegisteredRoute, row: Row | undefined, role: Role): Promise<number> {
  const key = callerKey(role, route.permission ?? null);
  const index = ROLES.indexOf(role);
  const c = clients.get(key) ?? (await signIn(key, index));
  const url = `/api${route.path.replace(/:[a-z_]+/g, '1')}`;
  const res =
    route.method === 'get'
      ? await c.get(url)
      : await c.send(route.method, url, (fill(row?.body ?? {}, role) as object) ?? {});
  if (row?.relogin || routeKey(route) === 'post /logout') await signIn(key, index);
  return res.status;
}

/** Rules every row must keep, whatever the file says. */
function invariantProblems(route: RegisteredRoute, observed: Record<Role, number>): string[] {
  const problems: string[] = [];
  const key = routeKey(route);
  const denied = (s: number) => s === 401 || s === 403;
  if (route.access === PUBLIC_ACCESS) return problems;
  if (observed.anonymous !== 401) problems.push(`${key}: anonymous answered ${observed.anonymous}, not 401`);
  const adminOnly = Boolean(route.permission && !PERMISSIONS.includes(route.permission));
  if (adminOnly) {
    for (const role of ['no_module', 'read_only', 'writer', 'branch_scoped'] as const) {
      if (observed[role] !== 403)
        problems.push(`${key}: ${role} answered ${observed[role]} on an admin-only route`);
    }
    if (denied(observed.admin)) problems.push(`${key}: admin was refused (${observed.admin})`);
    return problems;
  }
  if (route.access === 'staff') {
    if (observed.student !== 401) problems.push(`${key}: a student answered ${observed.student}, not 401`);
    for (const role of ['writer', 'admin'] as const) {
      if (denied(observed[role])) problems.push(`${key}: ${role} was refused (${observed[role]})`);
    }
    if (observed.branch_scoped === 401) problems.push(`${key}: branch-scoped staff answered 401`);
  }
  if (route.permission) {
    if (observed.no_module !== 403) {
      problems.push(`${key}: staff without the module answered ${observed.no_module}, not 403`);
    }
    const action = route.permission.split('.')[1];
    if (action === 'view' && denied(observed.read_only)) {
      problems.push(`${key}: read-only staff was refused a view route (${observed.read_only})`);
    }
    if (action !== 'view' && observed.read_only !== 403) {
      problems.push(`${key}: read-only staff answered ${observed.read_only} on a ${action} route, not 403`);
    }
  }
  return problems;
}

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: 'loopback' });
  await fixture();
});
afterAll(() => t.close());

it('answers every route × role as the matrix says, and the matrix lists every route', async () => {
  const file: MatrixFile = JSON.parse(fs.readFileSync(FILE, 'utf8'));
  expect(file.roles).toEqual([...ROLES]);
  const rows = new Map(file.routes.map((r) => [r.route, r]));
  const expected = (row: Row): Record<Role, number> => {
    const statuses = row.expect.trim().split(/\s+/).map(Number);
    if (statuses.length !== ROLES.length)
      throw new Error(`${row.route}: expect needs ${ROLES.length} statuses`);
    return Object.fromEntries(ROLES.map((role, i) => [role, statuses[i]])) as Record<Role, number>;
  };
  const routes = t.api.routes;
  expect(routes.length).toBeGreaterThan(0);

  const mismatches: string[] = [];
  const problems: string[] = [];
  const missing: Row[] = [];
  let checks = 0;
  for (const route of routes) {
    const key = routeKey(route);
    const row = rows.get(key);
    const observed = {} as Record<Role, number>;
    for (const role of ROLES) observed[role] = await call(route, row, role);
    problems.push(...invariantProblems(route, observed));
    if (!row) {
      missing.push({
        route: key,
        permission: route.permission ?? null,
        expect: ROLES.map((role) => observed[role]).join(' '),
      });
      continue;
    }
    if (row.permission !== (route.permission ?? null)) {
      mismatches.push(
        `${key}: the file says permission ${row.permission}, the route declares ${route.permission ?? null}`,
      );
    }
    const want = expected(row);
    for (const role of ROLES) {
      checks++;
      if (want[role] !== observed[role]) {
        mismatches.push(`${key} as ${role}: expected ${want[role]}, got ${observed[role]}`);
      }
    }
  }
  const registered = new Set(routes.map(routeKey));
  const stale = file.routes.filter((r) => !registered.has(r.route)).map((r) => r.route);

  if (missing.length && process.env.AUTHZ_MATRIX_WRITE === '1') {
    file.routes.push(...missing);
    const lines = file.routes.map((r) => `    ${JSON.stringify(r)}`);
    fs.writeFileSync(
      FILE,
      `{\n  "$comment": ${JSON.stringify(file.$comment)},\n  "roles": ${JSON.stringify(file.roles)},\n  "routes": [\n${lines.join(',\n')}\n  ]\n}\n`,
    );
  }
  console.log(
    [
      `authz matrix: ${routes.length - missing.length} routes × ${ROLES.length} roles = ${checks} checks` +
        ` (${routes.length} routes registered, ${missing.length} missing from matrix.json, ${mismatches.length} mismatches)`,
      ...(stale.length ? [`rows for routes no longer registered (remove them): ${stale.join(', ')}`] : []),
      ...(missing.length
        ? [
            'routes missing from server/test/authz/matrix.json — check these rows (what the app answers now) and add them:',
            ...missing.map((m) => `  ${JSON.stringify(m)},`),
          ]
        : []),
    ].join('\n'),
  );
  expect(problems).toEqual([]);
  expect(mismatches).toEqual([]);
  expect(missing.map((m) => m.route)).toEqual([]);
  expect(checks).toBeGreaterThan(0);
  // every CRUD key of this modules is exercised by at least one route
  for (const m of ['users', 'roles', 'companies', 'branches'] as const) {
    for (const a of CRUD_ACTIONS) expect(routes.some((r) => r.permission === `${m}.${a}`)).toBe(true);
  }
}, 300_000);
