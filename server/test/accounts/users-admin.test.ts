import bcrypt from 'bcrypt';
import { FIELD_MESSAGES } from '../../../shared/messages';
import { toDbDateTime } from '../../src/lib/clock';
import { Client, createTestApp, createUser, onMysql, type TestApp } from '../harness';
import { auditRows, confirmPassword, enableTwoFactor, signedIn } from './helpers';

/**
 * The admin side of staff accounts: an admin sets a user's password, sees whether 2FA is on and resets it,
 * and the last active admin cannot be demoted, deactivated or deleted — also under two concurrent requests.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const NEW_PASSWORD = 'Fresh2Start';

async function addToken(userId: number, name: string): Promise<void> {
  const now = toDbDateTime();
  await t.db('api_tokens').insert({
    user_id: userId,
    name,
    token_hash: Math.random().toString(16).slice(2).padEnd(64, '0'),
    abilities: '[]',
    created_at: now,
    updated_at: now,
  });
}

/** Every user of the test database loses the admin flag except the ones given (a known starting point). */
async function onlyAdmins(...ids: number[]): Promise<void> {
  await t.db('users').whereNotIn('id', ids).update({ is_admin: false });
  await t.db('users').whereIn('id', ids).update({ is_admin: true, is_active: true });
}

async function activeAdminIds(): Promise<number[]> {
  const rows = await t.db('users').where({ is_admin: true, is_active: true }).select('id');
  return rows.map((r: { id: number }) => Number(r.id)).sort((a, b) => a - b);
}

describe('an admin sets a user’s password', () => {
  it('sets it by the password rule, ends the user’s sessions and API tokens, audits it without the password', async () => {
    const admin = await signedIn(t, { is_admin: true });
    const { user, client } = await signedIn(t, { permissions: ['students.view'] });
    await client.get('/api/user').expect(200);
    await addToken(user.id, 'cli');

    const weak = await admin.client.put(`/api/users/${user.id}`, {
      password: 'weakpass',
      password_confirmation: 'weakpass',
    });
    expect(weak.status).toBe(422);
    expect(weak.body.errors.password.join(' ')).toMatch(/uppercase/);
    const mismatch = await admin.client.put(`/api/users/${user.id}`, {
      password: NEW_PASSWORD,
      password_confirmation: 'Other2Start',
    });
    expect(mismatch.status).toBe(422);
    expect(Object.keys(mismatch.body.errors)).toEqual(['password_confirmation']);
    // refused attempts changed nothing
    await client.get('/api/user').expect(200);

    const res = await admin.client.put(`/api/users/${user.id}`, {
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('password');
    expect(res.body).not.toHaveProperty('password_hash');

    expect((await client.get('/api/user')).status).toBe(401);
    expect(await t.db('user_sessions').where({ user_id: user.id }).first()).toBeUndefined();
    expect(await t.db('api_tokens').where({ user_id: user.id }).first()).toBeUndefined();
    const row = await t.db('users').where({ id: user.id }).first();
    expect(await bcrypt.compare(NEW_PASSWORD, row.password_hash)).toBe(true);

    const old = new Client(t.app);
    expect((await old.login(user.email, user.password)).status).toBe(422);
    const fresh = new Client(t.app);
    expect((await fresh.login(user.email, NEW_PASSWORD)).status).toBe(200);

    const audit = await auditRows(t, { entity: 'user', entity_id: user.id, action: 'password_set' });
    expect(audit).toHaveLength(1);
    expect(Number(audit[0].actor_id)).toBe(admin.user.id);
    const all = await t.db('audit_logs').where({ entity: 'user', entity_id: user.id });
    for (const a of all)
      expect(String(a.changes)).not.toMatch(/Fresh2Start|\$2b\$|password_hash|"password":/);
    // the admin's own session is untouched
    await admin.client.get('/api/user').expect(200);
  });

  it('refuses the caller’s own password here (the profile asks for the current one)', async () => {
    const admin = await signedIn(t, { is_admin: true });
    const res = await admin.client.put(`/api/users/${admin.user.id}`, {
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.password).toEqual([FIELD_MESSAGES.ownPasswordOnProfile]);
    const row = await t.db('users').where({ id: admin.user.id }).first();
    expect(await bcrypt.compare(admin.user.password, row.password_hash)).toBe(true);
  });

  it('does not let a non-admin set an admin’s password, or that of a user holding more than it does', async () => {
    const manager = await signedIn(t, { permissions: ['users.view', 'users.update', 'students.view'] });
    const anAdmin = await createUser(t.db, { is_admin: true });
    const body = { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD };
    const onAdmin = await manager.client.put(`/api/users/${anAdmin.id}`, body);
    expect(onAdmin.status).toBe(403);
    expect(onAdmin.body).toMatchObject({
      code: 'insufficient_rights',
      message: FIELD_MESSAGES.accountStronger,
    });

    const stronger = await createUser(t.db, { permissions: ['students.view', 'orders.void'] });
    const onStronger = await manager.client.put(`/api/users/${stronger.id}`, body);
    expect(onStronger.status).toBe(403);
    expect(onStronger.body).toMatchObject({
      code: 'insufficient_rights',
      message: FIELD_MESSAGES.accountStronger,
    });

    for (const id of [anAdmin.id, stronger.id]) {
      const row = await t.db('users').where({ id }).first();
      expect(await bcrypt.compare(NEW_PASSWORD, row.password_hash)).toBe(false);
    }

    const weaker = await createUser(t.db, { permissions: ['students.view'] });
    await manager.client.put(`/api/users/${weaker.id}`, body).expect(200);
    expect((await new Client(t.app).login(weaker.email, NEW_PASSWORD)).status).toBe(200);
  });
});

describe('two-factor authentication on the user record', () => {
  it('shows two_factor_enabled (never the secret); the admin’s reset turns it off and the next sign-in needs no code', async () => {
    const admin = await signedIn(t, { is_admin: true });
    const { user, client } = await signedIn(t);
    const before = await admin.client.get(`/api/users/${user.id}`).expect(200);
    expect(before.body.two_factor_enabled).toBe(false);

    await enableTwoFactor(client, user.password);
    const on = await admin.client.get(`/api/users/${user.id}`).expect(200);
    expect(on.body.two_factor_enabled).toBe(true);
    for (const secret of [
      'two_factor_secret',
      'two_factor_recovery_codes',
      'two_factor_confirmed_at',
      'two_factor_last_step',
    ])
      expect(on.body).not.toHaveProperty(secret);
    const list = await admin.client.get(`/api/users?q=${encodeURIComponent(user.email)}`).expect(200);
    expect(list.body.items).toEqual([expect.objectContaining({ id: user.id, two_factor_enabled: true })]);
    const challenged = new Client(t.app);
    expect((await challenged.login(user.email, user.password)).body).toEqual({ two_factor: true });

    await admin.client.delete(`/api/users/${user.id}/two-factor-authentication`).expect(204);
    expect((await admin.client.get(`/api/users/${user.id}`)).body.two_factor_enabled).toBe(false);
    const row = await t.db('users').where({ id: user.id }).first();
    expect(row.two_factor_secret).toBeNull();
    expect(row.two_factor_recovery_codes).toBeNull();
    const signIn = await new Client(t.app).login(user.email, user.password);
    expect(signIn.body.user.id).toBe(user.id);
  });

  it('refuses an admin’s reset of their own 2FA (the profile asks for the password first)', async () => {
    const admin = await signedIn(t, { is_admin: true });
    await enableTwoFactor(admin.client, admin.user.password);
    const res = await admin.client.delete(`/api/users/${admin.user.id}/two-factor-authentication`);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(FIELD_MESSAGES.ownTwoFactorOnProfile);
    expect((await admin.client.get(`/api/users/${admin.user.id}`)).body.two_factor_enabled).toBe(true);
  });
});

describe('the last active admin', () => {
  it('cannot be demoted, deactivated or deleted; another active admin makes each possible', async () => {
    const a = await signedIn(t, { is_admin: true });
    await onlyAdmins(a.user.id);

    const demote = await a.client.put(`/api/users/${a.user.id}`, { is_admin: false });
    expect(demote.status).toBe(422);
    expect(demote.body.errors).toEqual({ is_admin: [FIELD_MESSAGES.lastAdminDemote] });
    const deactivate = await a.client.put(`/api/users/${a.user.id}`, { is_admin: true, is_active: false });
    expect(deactivate.status).toBe(422);
    expect(deactivate.body.errors).toEqual({ is_active: [FIELD_MESSAGES.lastAdminDeactivate] });
    const remove = await a.client.delete(`/api/users/${a.user.id}`);
    expect(remove.status).toBe(422);
    expect(remove.body.message).toBe(FIELD_MESSAGES.lastAdminDelete);
    // deleting one's own account (the profile) is the same delete
    await confirmPassword(a.client, a.user.password);
    const own = await a.client.delete('/api/user');
    expect(own.status).toBe(422);
    expect(own.body.message).toBe(FIELD_MESSAGES.lastAdminDelete);
    expect(await activeAdminIds()).toEqual([a.user.id]);
    await a.client.get('/api/user').expect(200);

    // an inactive admin is no stand-in
    const sleeping = await createUser(t.db, { is_admin: true, is_active: false });
    expect((await a.client.put(`/api/users/${a.user.id}`, { is_admin: false })).status).toBe(422);
    // an active one is: each of the three goes through
    await a.client.put(`/api/users/${sleeping.id}`, { is_active: true }).expect(200);
    await a.client.put(`/api/users/${a.user.id}`, { is_admin: false }).expect(200);
    expect(await activeAdminIds()).toEqual([sleeping.id]);
    await onlyAdmins(a.user.id, sleeping.id);
    await a.client.put(`/api/users/${sleeping.id}`, { is_active: false }).expect(200);
    await onlyAdmins(a.user.id, sleeping.id);
    await a.client.delete(`/api/users/${sleeping.id}`).expect(204);
    expect(await activeAdminIds()).toEqual([a.user.id]);
  });

  it('lets a non-admin account be demoted or deactivated as before, whoever the admins are', async () => {
    const a = await signedIn(t, { is_admin: true });
    await onlyAdmins(a.user.id);
    const clerk = await createUser(t.db);
    await a.client.put(`/api/users/${clerk.id}`, { is_admin: false, is_active: false }).expect(200);
    await a.client.delete(`/api/users/${clerk.id}`).expect(204);
  });

  it('survives two admins taking each other’s admin flag at the same moment: one of them stays', async () => {
    const a = await signedIn(t, { is_admin: true });
    const b = await signedIn(t, { is_admin: true });
    const rounds = 5;
    const outcomes: number[][] = [];
    for (let i = 0; i < rounds; i++) {
      await onlyAdmins(a.user.id, b.user.id);
      // the flag is read on every request: the loser is refused either by the last-admin rule (both requests
      // were under way as admins) or, when the winner's change committed before it began, as a non-admin
      const answers = await Promise.all([
        a.client.put(`/api/users/${b.user.id}`, { is_admin: false }),
        b.client.put(`/api/users/${a.user.id}`, { is_admin: false }),
      ]);
      outcomes.push(answers.map((r) => r.status).sort());
      expect(await activeAdminIds()).toHaveLength(1);
      const refused = answers.find((r) => r.status !== 200);
      if (refused?.status === 422) {
        expect(refused.body.errors).toEqual({ is_admin: [FIELD_MESSAGES.lastAdminDemote] });
      } else {
        expect(refused?.status).toBe(403);
      }
    }
    for (const outcome of outcomes)
      expect([
        [200, 422],
        [200, 403],
      ]).toContainEqual(outcome);
    console.log(
      `last-admin race on ${onMysql ? 'MariaDB' : 'SQLite'}: ${rounds} rounds of two concurrent demotions, ` +
        `each left 1 active admin`,
    );
  });

  it('survives the other ways two admins can take each other away at once: one of them stays', async () => {
    const pair = async () => {
      const a = await signedIn(t, { is_admin: true });
      const b = await signedIn(t, { is_admin: true });
      await onlyAdmins(a.user.id, b.user.id);
      return [a, b] as const;
    };
    // whichever lands first goes through; the other finds the last admin (or, deleted, no session)
    const races: [string, () => Promise<{ status: number }[]>][] = [
      [
        'demote vs delete',
        async () => {
          const [a, b] = await pair();
          return Promise.all([
            a.client.put(`/api/users/${b.user.id}`, { is_admin: false }),
            b.client.delete(`/api/users/${a.user.id}`),
          ]);
        },
      ],
      [
        'deactivate vs demote',
        async () => {
          const [a, b] = await pair();
          return Promise.all([
            a.client.put(`/api/users/${b.user.id}`, { is_active: false }),
            b.client.put(`/api/users/${a.user.id}`, { is_admin: false }),
          ]);
        },
      ],
      [
        'both delete their own accounts',
        async () => {
          const [a, b] = await pair();
          await confirmPassword(a.client, a.user.password);
          await confirmPassword(b.client, b.user.password);
          return Promise.all([a.client.delete('/api/user'), b.client.delete('/api/user')]);
        },
      ],
    ];
    for (const [name, race] of races) {
      const answers = await race();
      expect({ name, succeeded: answers.filter((r) => r.status < 300).length }).toEqual({
        name,
        succeeded: 1,
      });
      expect({ name, admins: (await activeAdminIds()).length }).toEqual({ name, admins: 1 });
    }
  });
});
