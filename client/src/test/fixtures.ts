import type { User } from '../app/types';

/** antd renders slowly in jsdom on a busy machine: a generous wait for `findBy…`, not a speed target. */
export const SLOW = { timeout: 30_000 };

/** A signed-in staff user as `GET /api/user` answers it: no role, no permissions, unless given. */
export function staffUser(overrides: Partial<User> = {}): User {
  return {
    id: 1,
    name: 'Staff',
    email: 'staff@example.com',
    is_admin: false,
    language: 'en',
    branch_id: null,
    role: null,
    permissions: [],
    two_factor_enabled: false,
    ...overrides,
  };
}
