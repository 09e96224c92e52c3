import { FIELD_MESSAGES } from '../../../shared/messages';
import { Client, createTestApp, createUser, signedInAdmin, type TestApp } from '../harness';
import { confirmPassword, enableTwoFactor, signedIn } from './helpers';

let t: TestApp;
let admin: Client;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
});
afterAll(() => t.close());

describe('account settings', () => {
  it('reads the defaults: no 2FA requirement, registration off, every feature on', async () => {
    const res = await admin.get('/api/settings/accounts').expect(200);
    expect(res.body.require_two_factor).toBe(false);
    expect(res.body.registration_enabled).toBe(false);
    expect(Object.values(res.body.features).every((on) => on === true)).toBe(true);
  });

  it('saves what is given and audits only what changed, in one row', async () => {
    const res = await admin
      .put('/api/settings/accounts', { registration_enabled: true, features: { hasApiFeatures: false } })
      .expect(200);
    expect(res.body.registration_enabled).toBe(true);
    expect(res.body.features.hasApiFeatures).toBe(false);
    expect(res.body.require_two_factor).toBe(false);
    const rows = await t.db('audit_logs').where({ entity: 'settings', action: 'update' });
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0].changes)).toEqual({
      before: { registration_enabled: false, features: expect.objectContaining({ hasApiFeatures: true }) },
      after: { registration_enabled: true, features: expect.objectContaining({ hasApiFeatures: false }) },
    });
    expect((await new Client(t.app).get('/api/app-config')).body.registration_enabled).toBe(true);
  });

  it('refuses unknown flags and fields, and writes nothing', async () => {
    const res = await admin.put('/api/settings/accounts', { features: { canFly: true }, is_admin: true });
    expect(res.status).toBe(422);
    expect(await t.db('settings').where({ key: 'feature_canFly' }).first()).toBeUndefined();
  });

  it('refuses to require 2FA while its management is off (nobody could set it up), and writes nothing', async () => {
    // an admin with 2FA of its own, so that the requirement does not lock it out
    const { user, client } = await signedIn(t, { is_admin: true });
    await enableTwoFactor(client, user.password);
    const both = await client.put('/api/settings/accounts', {
      require_two_factor: true,
      features: { canManageTwoFactorAuthentication: false },
    });
    expect(both.status).toBe(422);
    expect(both.body.errors).toEqual({ require_two_factor: [FIELD_MESSAGES.twoFactorRequiredNeedsFeature] });
    expect((await client.get('/api/settings/accounts')).body).toMatchObject({
      require_two_factor: false,
      features: { canManageTwoFactorAuthentication: true },
    });
    await client.put('/api/settings/accounts', { require_two_factor: true }).expect(200);
    const off = await client.put('/api/settings/accounts', {
      features: { canManageTwoFactorAuthentication: false },
    });
    expect(off.status).toBe(422);
    expect(off.body.errors).toEqual({
      'features.canManageTwoFactorAuthentication': [FIELD_MESSAGES.twoFactorRequiredNeedsFeature],
    });
    const now = await client.put('/api/settings/accounts', { require_two_factor: false }).expect(200);
    expect(now.body.features.canManageTwoFactorAuthentication).toBe(true);
  });

  it('is for admins only: settings.update is not enough to open registration or drop the 2FA requirement', async () => {
    const manager = await createUser(t.db, { permissions: ['settings.view', 'settings.update'] });
    const c = new Client(t.app);
    await c.login(manager.email, manager.password);
    await confirmPassword(c, manager.password);
    const before = (await admin.get('/api/settings/accounts').expect(200)).body;
    expect((await c.get('/api/settings/accounts')).status).toBe(403);
    const open = await c.put('/api/settings/accounts', {
      registration_enabled: !before.registration_enabled,
      require_two_factor: false,
    });
    expect(open.status).toBe(403);
    expect((await admin.get('/api/settings/accounts')).body).toEqual(before);
  });
});
