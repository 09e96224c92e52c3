/**
 * A new `Idempotency-Key` (decision 0016): 128 random bits as 32 hex digits. `crypto.getRandomValues`, not
 * `crypto.randomUUID`: browsers give the latter only to secure contexts, and the trusted-LAN install serves plain HTTP.
 */
export function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
