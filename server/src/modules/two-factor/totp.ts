import speakeasy from 'speakeasy';
import { clock } from '../../lib/clock';
import { randomToken, sha256 } from '../../lib/crypto';

const STEP_SECONDS = 30;
/** One step either side of now: a phone clock may be a little off, never more (quality §4). */
const WINDOW = 1;
export const RECOVERY_CODE_COUNT = 8;

export function currentStep(ms: number = clock.now()): number {
  return Math.floor(ms / 1000 / STEP_SECONDS);
}

/** The time-step a code belongs to, or null when it matches no step within the window. */
export function matchingStep(secretBase32: string, code: string): number | null {
  const counter = currentStep();
  const result = speakeasy.totp.verifyDelta({
    secret: secretBase32,
    encoding: 'base32',
    token: code,
    window: WINDOW,
    counter,
  });
  if (!result || Math.abs(result.delta) > WINDOW) return null;
  return counter + result.delta;
}

/** The code for a secret at a given time: for tests and scripts that act as the authenticator app. */
export function totpCode(secretBase32: string, ms: number = clock.now()): string {
  return speakeasy.totp({ secret: secretBase32, encoding: 'base32', time: Math.floor(ms / 1000) });
}

export function newSecret(): string {
  return speakeasy.generateSecret({ length: 20 }).base32;
}

export function otpauthUrl(secretBase32: string, account: string, issuer: string): string {
  return speakeasy.otpauthURL({
    secret: secretBase32,
    encoding: 'base32',
    label: `${issuer}:${account}`,
    issuer,
  });
}

/** `abcde-fghij`: ten letters and digits, easy to type from paper. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = randomToken(12)
      .replace(/[^a-zA-Z0-9]/g, '')
      .toLowerCase()
      .padEnd(10, '0')
      .slice(0, 10);
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
}

export function hashRecoveryCode(code: string): string {
  return sha256(code.trim().toLowerCase());
}
