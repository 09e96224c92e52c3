import bcrypt from 'bcrypt';
import type { Response } from 'supertest';
import { PERMISSIONS } from '../../../shared/permissions';
import { toDbDateTime } from '../../src/lib/clock';
import { Client, createBranch, createRole, createTestApp, type TestApp } from '../harness';

/**
 * Nobody acts on an account stronger than its own (quality §31, architecture.md "Access rules"). Every caller ×
 * target × action is tried on a fresh target; the expected outcome comes from the rule written out again below
 * (not from the server's access-rules.ts):
 *
 * - allowed iff the caller holds the route's permission and reaches the target: only an admin reaches an admin;
 *   otherwise every permission of the target's role is the caller's, an `all`-scope target needs an `all`-scope
 *   caller, and a branch-scoped caller reaches only users of its own branch;
 * - refused: 403 without the permission; 404 for a branch-scoped caller and a target outside its branch (records
 *   outside the scope do not exist for it, as in every list); else 403 `insufficient_rights`. A refusal changes
 *   nothing: the target's row and its API tokens are compared before and after.
 *
 * Two actions ask for more than reaching the target, and add their own refusal: moving a user into branch B (404
 * for a caller that sees only branch A) and making it an admin (403 `insufficient_rights` for anyone but an
 * admin). The routes acting on another user's account are the user's PUT and DELETE and the 2FA reset; there are
 * no routes on another user's sessions or API tokens (deactivation and a password set by someone else end them,
 * which the row and token comparison sees). The test fails when a new write route under `/users/:id` appears.
 *
 * A breach is a refused action that answered 2xx or changed the target. The file also proves what a
 * branch-scoped users+roles manager cannot do with roles and grants, and what the user form offers each caller.
 */

type Scope = 'all' | 'branch';
type BranchKey = 'A' | 'B' | 'C' | null;

/** What an account can do, as the rule reads it. */
interface Power {
  admin: boolean;
  permissions: readonly string[];
  scope: Scope;
  branch: BranchKey;
}

const USERS_MANAGER = ['users.view', 'users.create', 'users.update', 'users.delete', 'roles.view'];

interface Spec extends Power {
  key: string;
}

const CALLERS: Spec[] = [
  { key: 'admin', admin: true, permissions: [], scope: 'branch', branch: 'A' },
  { key: 'full staff', admin: false, permissions: [...PERMISSIONS], scope: 'all', branch: 'A' },
  { key: 'users manager (all)', admin: false, permissions: USERS_MANAGER, scope: 'all', branch: 'A' },
  { key: 'users manager (branch A)', admin: false, permissions: USERS_MANAGER, scope: 'branch', branch: 'A' },
  { key: 'weaker staff (users.view)', admin: false, permissions: ['users.view'], scope: 'all', branch: 'A' },
];

/** Targets; `permissions: null` is an account without a role (no permissions, its own branch). */
const TARGETS: (Omit<Spec, 'permissions'> & { permissions: readonly string[] | null })[] = [
  { key: 'in branch B', admin: false, permissions: ['users.view'], scope: 'branch', branch: 'B' },
  {
    key: 'in branch A, subset role',
    admin: false,
    permissions: ['users.view'],
    scope: 'branch',
    branch: 'A',
  },
  {
    key: 'in branch A, a permission the manager lacks',
    admin: false,
    permissions: ['users.view', 'students.delete'],
    scope: 'branch',
    branch: 'A',
  },
  { key: 'all-scope role', admin: false, permissions: ['users.view'], scope: 'all', branch: 'A' },
  { key: 'another admin', admin: true, permissions: [], scope: 'branch', branch: 'A' },
  {
    key: 'an equal (users manager, branch A)',
    admin: false,
    permissions: USERS_MANAGER,
    scope: 'branch',
    branch: 'A',
  },
  { key: 'full staff', admin: false, permissions: [...PERMISSIONS], scope: 'all', branch: 'A' },
  { key: 'no role, branch A', admin: false, permissions: null, scope: 'branch', branch: 'A' },
  { key: 'no branch', admin: false, permissions: ['users.view'], scope: 'branch', branch: null },
];

const powerOf = (s: {
  admin: boolean;
  permissions: readonly string[] | null;
  scope: Scope;
  branch: BranchKey;
}) =>
  ({
    admin: s.admin,
    permissions: s.permissions ?? [],
    scope: s.permissions === null ? 'branch' : s.scope,
    branch: s.branch,
  }) satisfies Power;

/** The rule (quality §31), independent of the server's code. */
function reaches(caller: Power, target: Power): boolean {
  if (target.admin) return caller.admin;
  if (caller.admin) return true;
  if (target.permissions.some((p) => !caller.permissions.includes(p))) return false;
  if (target.scope === 'all' && caller.scope !== 'all') return false;
  if (caller.scope === 'branch' && (target.branch === null || target.branch !== caller.branch)) return false;
  return true;
}
const holds = (caller: Power, permission: string) => caller.admin || caller.permissions.includes(permission);
const seesOnlyBranch = (caller: Power) => !caller.admin && caller.scope === 'branch';

type Expected = { allowed: true } | { allowed: false; status: 403 | 404; code?: string };

interface Action {
  key: string;
  permission: string;
  send(c: Client, id: number, caller: Power): Promise<Response>;
  /** a refusal this action adds to the rule (the body asks for more than reaching the target) */
  extra?(caller: Power): Expected | null;
}

let t: TestApp;
let hash = '';
const branches = {} as Record<'A' | 'B' | 'C', number>;
const branchId = (b: BranchKey) => (b ? branches[b] : null);
let grantRoleId = 0;
let counter = 0;

const ACTIONS: Action[] = [
  {
    key: 'PUT {name}',
    permission: 'users.update',
    send: (c, id) => c.put(`/api/users/${id}`, { name: 'Renamed by the test' }),
  },
  {
    key: 'PUT {email}',
    permission: 'users.update',
    send: (c, id) => c.put(`/api/users/${id}`, { email: `changed-${++counter}@stronger.example.com` }),
  },
  {
    key: 'PUT {role_id}',
    permission: 'users.update',
    // a role every caller holding users.update may grant (users.view, own branch)
    send: (c, id) => c.put(`/api/users/${id}`, { role_id: grantRoleId }),
  },
  {
    key: 'PUT {branch_id} (a branch the caller sees)',
    permission: 'users.update',
    send: (c, id, caller) =>
      c.put(`/api/users/${id}`, { branch_id: seesOnlyBranch(caller) ? branchId(caller.branch) : branches.C }),
  },
  {
    key: 'PUT {branch_id: B}',
    permission: 'users.update',
    send: (c, id) => c.put(`/api/users/${id}`, { branch_id: branches.B }),
    // moving a user into another branch: that branch does not exist for a branch-scoped caller
    extra: (caller) =>
      seesOnlyBranch(caller) && caller.branch !== 'B' ? { allowed: false, status: 404 } : null,
  },
  {
    key: 'PUT {is_active:false}',
    permission: 'users.update',
    send: (c, id) => c.put(`/api/users/${id}`, { is_active: false }),
  },
  {
    key: 'PUT {password,password_confirmation}',
    permission: 'users.update',
    send: (c, id) =>
      c.put(`/api/users/${id}`, { password: 'Changed123', password_confirmation: 'Changed123' }),
  },
  {
    key: 'PUT {is_admin:true}',
    permission: 'users.update',
    send: (c, id) => c.put(`/api/users/${id}`, { is_admin: true }),
    // only an admin makes an admin
    extra: (caller) => (caller.admin ? null : { allowed: false, status: 403, code: 'insufficient_rights' }),
  },
  {
    key: 'DELETE 2FA (reset)',
    permission: 'users.update',
    send: (c, id) => c.delete(`/api/users/${id}/two-factor-authentication`),
  },
  {
    key: 'DELETE',
    permission: 'users.delete',
    send: (c, id) => c.delete(`/api/users/${id}`),
  },
];

/** The routes that act on another user's account; each must be one of the actions above. */
const COVERED_ROUTES = ['put /users/:id', 'delete /users/:id', 'delete /users/:id/two-factor-authentication'];

function expectedOf(caller: Power, target: Power, action: Action): Expected {
  if (!holds(caller, action.permission)) return { allowed: false, status: 403 };
  if (seesOnlyBranch(caller) && (target.branch === null || target.branch !== caller.branch)) {
    return { allowed: false, status: 404 };
  }
  if (!reaches(caller, target)) return { allowed: false, status: 403, code: 'insufficient_rights' };
  return action.extra?.(caller) ?? { allowed: true };
}

async function insertUser(opts: {
  admin: boolean;
  roleId: number | null;
  branch: BranchKey;
  email?: string;
}) {
  const now = toDbDateTime();
  const email = opts.email ?? `target-${++counter}@stronger.example.com`;
  const [id] = await t.db('users').insert({
    name: 'Target',
    email,
    password_hash: hash,
    role_id: opts.roleId,
    branch_id: branchId(opts.branch),
    is_admin: opts.admin,
    is_active: true,
    language: 'en',
    created_at: now,
    updated_at: now,
  });
  return { id: Number(id), email };
}

async function signIn(email: string): Promise<Client> {
  const c = new Client(t.app);
  const res = await c.login(email, 'Secret123');
  if (res.status !== 200)
    throw new Error(`${email} could not sign in: ${res.status} ${JSON.stringify(res.body)}`);
  return c;
}

/** Each target's row and API tokens, by id: what a refused action must leave as it was. */
async function snapshots(ids: readonly number[]): Promise<Map<number, string>> {
  const rows: { id: number }[] = await t.db('users').whereIn('id', [...ids]);
  const tokens: { id: number; user_id: number; token_hash: string }[] = await t
    .db('api_tokens')
    .whereIn('user_id', [...ids])
    .orderBy('id')
    .select('id', 'user_id', 'token_hash');
  return new Map(
    ids.map((id) => [
      id,
      JSON.stringify({
        row: rows.find((r) => Number(r.id) === id) ?? null,
        tokens: tokens.filter((k) => Number(k.user_id) === id),
      }),
    ]),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  hash = await bcrypt.hash('Secret123', 4);
  branches.A = await createBranch(t.db, 'BR-A');
  branches.B = await createBranch(t.db, 'BR-B');
  branches.C = await createBranch(t.db, 'BR-C');
  grantRoleId = await createRole(t.db, ['users.view'], 'branch');
});
afterAll(() => t.close());

it('lets no caller act on an account stronger than its own (every caller × target × action)', async () => {
  // every route that acts on another user's account is one of the actions tried here
  const onAnotherUser = t.api.routes
    .filter((r) => r.method !== 'get' && r.path.startsWith('/users/:id'))
    .map((r) => `${r.method} ${r.path}`);
  expect(onAnotherUser.sort()).toEqual([...COVERED_ROUTES].sort());

  const callers: { spec: Spec; power: Power; client: Client }[] = [];
  for (const spec of CALLERS) {
    const roleId = spec.admin ? null : await createRole(t.db, [...spec.permissions], spec.scope);
    const { email } = await insertUser({ admin: spec.admin, roleId, branch: spec.branch });
    callers.push({ spec, power: powerOf(spec), client: await signIn(email) });
  }
  const targetRoles = new Map<string, number | null>();
  for (const target of TARGETS) {
    targetRoles.set(
      target.key,
      target.permissions === null || target.admin
        ? null
        : await createRole(t.db, [...target.permissions], target.scope),
    );
  }

  // a fresh target for every case, with 2FA on and an API token, so that any change shows (inserted in bulk)
  const cases = callers.flatMap((caller) =>
    TARGETS.flatMap((target) => ACTIONS.map((action) => ({ caller, target, action, id: 0 }))),
  );
  const now = toDbDateTime();
  const emails = cases.map((_, i) => `case-${i}@stronger.example.com`);
  const targetRows = cases.map(({ target }, i) => ({
    name: 'Target',
    email: emails[i],
    password_hash: hash,
    role_id: targetRoles.get(target.key) ?? null,
    branch_id: branchId(target.branch),
    is_admin: target.admin,
    is_active: true,
    language: 'en',
    two_factor_secret: 'not-a-real-secret',
    two_factor_recovery_codes: 'not-real-codes',
    two_factor_confirmed_at: now,
    created_at: now,
    updated_at: now,
  }));
  for (let i = 0; i < targetRows.length; i += 100) await t.db('users').insert(targetRows.slice(i, i + 100));
  const idOf = new Map(
    (await t.db('users').whereIn('email', emails).select('id', 'email')).map((r) => [r.email, Number(r.id)]),
  );
  cases.forEach((c, i) => (c.id = idOf.get(emails[i])!));
  const tokenRows = cases.map(({ id }) => ({
    user_id: id,
    name: 'target token',
    token_hash: `hash-of-target-${id}`,
    abilities: '[]',
    created_at: now,
    updated_at: now,
  }));
  for (let i = 0; i < tokenRows.length; i += 100)
    await t.db('api_tokens').insert(tokenRows.slice(i, i + 100));
  const before = await snapshots(cases.map((c) => c.id));

  let pairs = 0;
  let allowedPairs = 0;
  const breaches: string[] = [];
  const wrong: string[] = [];
  const started = Date.now();
  for (const { caller, target, action, id } of cases) {
    const res = await action.send(caller.client, id, caller.power);
    pairs++;
    const want = expectedOf(caller.power, powerOf(target), action);
    const label = `${caller.spec.key} → ${target.key}: ${action.key}`;
    const answer = `${res.status} ${res.body?.code ?? ''}`.trim();
    if (want.allowed) {
      allowedPairs++;
      if (res.status === 403 && res.body?.code === 'insufficient_rights') {
        wrong.push(`${label}: allowed by the rule, refused as insufficient_rights`);
      } else if (res.status < 200 || res.status >= 300) {
        wrong.push(`${label}: allowed by the rule, answered ${answer} ${JSON.stringify(res.body)}`);
      }
      continue;
    }
    const after = (await snapshots([id])).get(id);
    if (res.status >= 200 && res.status < 300)
      breaches.push(`${label}: answered ${answer}, should be refused`);
    else if (before.get(id) !== after) breaches.push(`${label}: refused (${answer}) but the target changed`);
    if (res.status !== want.status || (want.code && res.body?.code !== want.code)) {
      wrong.push(`${label}: expected ${want.status} ${want.code ?? ''}, got ${answer}`.replace(/ {2}/g, ' '));
    }
  }
  console.log(
    [
      `stronger accounts: ${pairs} pairs (caller × target × action) tried, ${breaches.length} breaches` +
        ` (${callers.length} callers × ${TARGETS.length} targets × ${ACTIONS.length} actions: ${allowedPairs} allowed, ${pairs - allowedPairs} refused; ${Date.now() - started} ms)`,
      ...breaches.map((b) => `  BREACH ${b}`),
      ...wrong.map((w) => `  wrong answer: ${w}`),
    ].join('\n'),
  );
  expect(pairs).toBe(CALLERS.length * TARGETS.length * ACTIONS.length);
  expect(breaches).toEqual([]);
  expect(wrong).toEqual([]);
}, 120_000);

it('keeps a branch-scoped users+roles manager to its own power over roles and grants, and the user form to what each caller may grant', async () => {
  const managerPermissions = [...USERS_MANAGER, 'roles.create', 'roles.update', 'roles.delete'];
  const ownRole = await createRole(t.db, managerPermissions, 'branch');
  const manager = await insertUser({ admin: false, roleId: ownRole, branch: 'A' });
  const client = await signIn(manager.email);

  const weakRole = await createRole(t.db, ['users.view'], 'branch'); // held in branch A only
  const elsewhereRole = await createRole(t.db, ['users.view'], 'branch'); // held in branch B
  const strongerRole = await createRole(t.db, ['users.view', 'students.delete'], 'branch');
  const allRole = await createRole(t.db, ['users.view'], 'all');
  const emptyRole = await createRole(t.db, [], 'branch');
  const targetA = await insertUser({ admin: false, roleId: emptyRole, branch: 'A' });
  await insertUser({ admin: false, roleId: weakRole, branch: 'A' });
  await insertUser({ admin: false, roleId: elsewhereRole, branch: 'B' });

  const state = async () =>
    JSON.stringify({
      roles: await t.db('roles').orderBy('id'),
      users: await t.db('users').orderBy('id'),
    });
  const newUser = (extra: object) => ({
    name: 'New',
    email: `new-${++counter}@stronger.example.com`,
    password: 'Secret123',
    password_confirmation: 'Secret123',
    ...extra,
  });
  const roleBody = (extra: object) => ({ name: `role ${++counter}`, permissions: ['users.view'], ...extra });

  const refused: [string, () => Promise<Response>, number, string?][] = [
    [
      'widen its own role to all branches',
      () => client.put(`/api/roles/${ownRole}`, { data_scope: 'all' }),
      403,
    ],
    ['rename the role it holds', () => client.put(`/api/roles/${ownRole}`, { name: 'mine now' }), 403],
    [
      'add a permission to the role it holds',
      () => client.put(`/api/roles/${ownRole}`, { permissions: [...managerPermissions, 'students.view'] }),
      403,
    ],
    ['delete the role it holds', () => client.delete(`/api/roles/${ownRole}`), 403],
    [
      'create an all-scope role',
      () => client.post('/api/roles', roleBody({ data_scope: 'all' })),
      422,
      'data_scope',
    ],
    [
      'create a role with a permission it lacks',
      () => client.post('/api/roles', roleBody({ data_scope: 'branch', permissions: ['students.delete'] })),
      422,
      'permissions',
    ],
    [
      'widen a weaker role to all branches',
      () => client.put(`/api/roles/${weakRole}`, { data_scope: 'all' }),
      422,
    ],
    [
      'add a permission it lacks to a weaker role',
      () => client.put(`/api/roles/${weakRole}`, { permissions: ['users.view', 'students.delete'] }),
      422,
      'permissions',
    ],
    [
      'edit a role held in another branch',
      () => client.put(`/api/roles/${elsewhereRole}`, { name: 'x' }),
      403,
    ],
    ['delete a role held in another branch', () => client.delete(`/api/roles/${elsewhereRole}`), 403],
    [
      'edit a role with a permission it lacks',
      () => client.put(`/api/roles/${strongerRole}`, { name: 'y' }),
      403,
    ],
    ['edit an all-scope role', () => client.put(`/api/roles/${allRole}`, { name: 'z' }), 403],
    [
      'grant a role holding a permission it lacks',
      () => client.put(`/api/users/${targetA.id}`, { role_id: strongerRole }),
      422,
      'role_id',
    ],
    [
      'grant an all-scope role',
      () => client.put(`/api/users/${targetA.id}`, { role_id: allRole }),
      422,
      'role_id',
    ],
    [
      'take an all-scope role itself',
      () => client.put(`/api/users/${manager.id}`, { role_id: allRole }),
      422,
      'role_id',
    ],
    [
      'take a role with a permission it lacks itself',
      () => client.put(`/api/users/${manager.id}`, { role_id: strongerRole }),
      422,
      'role_id',
    ],
    ['make itself an admin', () => client.put(`/api/users/${manager.id}`, { is_admin: true }), 403],
    [
      'create a user with a role holding a permission it lacks',
      () => client.post('/api/users', newUser({ role_id: strongerRole })),
      422,
      'role_id',
    ],
    [
      'create a user with an all-scope role',
      () => client.post('/api/users', newUser({ role_id: allRole })),
      422,
    ],
    [
      'create a user in another branch',
      () => client.post('/api/users', newUser({ branch_id: branches.B })),
      404,
    ],
    ['create an admin', () => client.post('/api/users', newUser({ is_admin: true })), 403],
    [
      'make a weaker user of its branch an admin',
      () => client.put(`/api/users/${targetA.id}`, { is_admin: true }),
      403,
    ],
  ];
  const allowed: [string, () => Promise<Response>][] = [
    [
      'rename a weaker role of its branch',
      () => client.put(`/api/roles/${weakRole}`, { name: `weak ${++counter}` }),
    ],
    [
      'create a branch role within its permissions',
      () => client.post('/api/roles', roleBody({ data_scope: 'branch' })),
    ],
    ['grant a weaker role', () => client.put(`/api/users/${targetA.id}`, { role_id: weakRole })],
    ['create a user with a weaker role', () => client.post('/api/users', newUser({ role_id: weakRole }))],
  ];

  const breaches: string[] = [];
  const wrong: string[] = [];
  for (const [what, send, status, field] of refused) {
    const before = await state();
    const res = await send();
    const changed = (await state()) !== before;
    const answer = `${res.status} ${res.body?.code ?? ''} ${JSON.stringify(res.body?.errors ?? {})}`;
    if (res.status >= 200 && res.status < 300) breaches.push(`${what}: answered ${answer}`);
    else if (changed) breaches.push(`${what}: refused (${answer}) but roles or users changed`);
    if (res.status !== status || (field && !res.body?.errors?.[field])) {
      wrong.push(`${what}: expected ${status}${field ? ` on ${field}` : ''}, got ${answer}`);
    }
  }
  for (const [what, send] of allowed) {
    const res = await send();
    if (res.status < 200 || res.status >= 300)
      wrong.push(`${what}: answered ${res.status} ${JSON.stringify(res.body)}`);
  }

  // the user form offers only the roles a caller may grant, and a branch-scoped caller only its branch
  const managerPower: Power = { admin: false, permissions: managerPermissions, scope: 'branch', branch: 'A' };
  const formCallers: [string, Power, Client][] = [['users+roles manager (branch A)', managerPower, client]];
  for (const spec of CALLERS) {
    const roleId = spec.admin ? null : await createRole(t.db, [...spec.permissions], spec.scope);
    const { email } = await insertUser({ admin: spec.admin, roleId, branch: spec.branch });
    formCallers.push([spec.key, powerOf(spec), await signIn(email)]);
  }
  const allRoles: { id: number; permissions: string; data_scope: Scope }[] = await t.db('roles');
  const allBranches: { id: number }[] = await t.db('branches');
  let forms = 0;
  for (const [key, power, c] of formCallers) {
    const res = await c.get('/api/users/create');
    forms++;
    if (!holds(power, 'users.create')) {
      if (res.status !== 403)
        breaches.push(`${key}: the user form answered ${res.status} without users.create`);
      continue;
    }
    if (res.status !== 200) {
      wrong.push(`${key}: the user form answered ${res.status}`);
      continue;
    }
    const grantable = allRoles
      .filter((r) => {
        const grant = {
          admin: false,
          permissions: JSON.parse(r.permissions) as string[],
          scope: r.data_scope,
        };
        if (power.admin) return true;
        return (
          grant.permissions.every((p) => power.permissions.includes(p)) &&
          (grant.scope !== 'all' || power.scope === 'all')
        );
      })
      .map((r) => Number(r.id))
      .sort((a, b) => a - b);
    const listed = (res.body.roles as { id: number }[]).map((r) => Number(r.id)).sort((a, b) => a - b);
    const extraRoles = listed.filter((id) => !grantable.includes(id));
    if (extraRoles.length)
      breaches.push(`${key}: the user form offers roles it may not grant: ${extraRoles.join(', ')}`);
    if (listed.length !== grantable.length)
      wrong.push(`${key}: the user form lists ${listed.join(',')}, not ${grantable.join(',')}`);
    const wantBranches = seesOnlyBranch(power)
      ? [branchId(power.branch)]
      : allBranches.map((b) => Number(b.id)).sort((a, b) => a - b);
    const listedBranches = (res.body.branches as { id: number }[])
      .map((b) => Number(b.id))
      .sort((a, b) => a - b);
    if (JSON.stringify(listedBranches) !== JSON.stringify(wantBranches)) {
      const outside = listedBranches.filter((id) => !wantBranches.includes(id));
      (outside.length ? breaches : wrong).push(
        `${key}: the user form offers branches ${listedBranches.join(',')}, not ${wantBranches.join(',')}`,
      );
    }
  }

  console.log(
    [
      `roles and grants: ${refused.length} refusals and ${allowed.length} allowed controls tried for a branch-scoped users+roles manager, ${forms} user forms checked, ${breaches.length} breaches`,
      ...breaches.map((b) => `  BREACH ${b}`),
      ...wrong.map((w) => `  wrong answer: ${w}`),
    ].join('\n'),
  );
  expect(breaches).toEqual([]);
  expect(wrong).toEqual([]);
}, 60_000);
