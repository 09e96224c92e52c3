import bcrypt from 'bcrypt';

/**
 * The one place passwords are hashed and checked (bcrypt). The cost comes from the config (`BCRYPT_COST`,
 * 12 by default, at least 10 in production; the test suite runs at 4 to stay fast).
 */
let cost = 12;
let dummy: Promise<string> | null = null;

export function configurePasswords(rounds: number): void {
  if (rounds === cost) return;
  cost = rounds;
  dummy = null;
}

export function passwordCost(): number {
  return cost;
}

export function hashPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, cost);
}

/**
 * Whether `plain` is the password of `hash`. Without a hash (an unknown account) it still compares against a
 * hash of the same cost, so that a known and an unknown address take as long.
 */
export async function verifyPassword(plain: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    dummy ??= bcrypt.hash('not-a-real-password', cost);
    await bcrypt.compare(plain, await dummy);
    return false;
  }
  return bcrypt.compare(plain, hash);
}
