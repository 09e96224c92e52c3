import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { Client, createUser, type TestApp, type UserOptions } from '../harness';
import { totpCode } from '../../src/modules/two-factor/totp';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** the decoded subject and plain-text body (mailparser: encoded words, quoted-printable, UTF-8) */
  subject: string;
  text: string;
}

/** A real SMTP server in this process (nodemailer's smtp-server): the app's mail lands here. */
export class TestSmtp {
  readonly mails: ReceivedMail[] = [];
  private server!: SMTPServer;
  port = 0;
  /** when set, every message is refused with this SMTP error */
  refuse = false;
  /** the credentials clients signed in with (AUTH), in order */
  readonly auths: { username: string; password: string }[] = [];
  private gate: Promise<void> | null = null;

  /** Keeps every message waiting (not accepted, not refused) until the answered function is called. */
  hold(): () => void {
    let release!: () => void;
    this.gate = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.gate = null;
      release();
    };
  }

  async start(): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      // AUTH over plain loopback, so that a test can see which password a client sends where
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth: (auth, _session, callback) => {
        this.auths.push({ username: auth.username ?? '', password: auth.password ?? '' });
        callback(null, { user: auth.username });
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', async () => {
          if (this.gate) await this.gate;
          if (this.refuse) {
            const err = new Error('Mailbox unavailable') as Error & { responseCode: number };
            err.responseCode = 550;
            return callback(err);
          }
          const raw = Buffer.concat(chunks);
          simpleParser(raw).then(
            (parsed) => {
              this.mails.push({
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((r) => r.address),
                raw: raw.toString('utf8'),
                subject: parsed.subject ?? '',
                text: parsed.text ?? '',
              });
              callback();
            },
            (error: Error) => callback(error),
          );
        });
      },
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  /** Waits until a mail to `to` has arrived (mail may be sent after the response). */
  async waitFor(to: string, count = 1, timeoutMs = 5000): Promise<ReceivedMail> {
    const started = Date.now();
    for (;;) {
      const mine = this.mails.filter((m) => m.to.includes(to.toLowerCase()) || m.to.includes(to));
      if (mine.length >= count) return mine[count - 1];
      if (Date.now() - started > timeoutMs) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  for(to: string): ReceivedMail[] {
    return this.mails.filter((m) => m.to.includes(to));
  }

  env(): Record<string, string> {
    return { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(this.port), SMTP_FROM: 'office@example.com' };
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export async function signedIn(t: TestApp, opts: UserOptions = {}) {
  const user = await createUser(t.db, opts);
  const client = new Client(t.app);
  const res = await client.login(user.email, user.password);
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { user, client };
}

export async function confirmPassword(client: Client, password: string): Promise<void> {
  const res = await client.post('/api/user/confirm-password', { password });
  if (res.status !== 200) throw new Error(`confirm failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** Enrols 2FA for a signed-in client and returns the secret and recovery codes. */
export async function enableTwoFactor(client: Client, password: string) {
  await confirmPassword(client, password);
  const enabled = await client.post('/api/user/two-factor-authentication');
  if (enabled.status !== 200)
    throw new Error(`enable failed: ${enabled.status} ${JSON.stringify(enabled.body)}`);
  const secret: string = enabled.body.secret;
  const confirmed = await client.post('/api/user/confirmed-two-factor-authentication', {
    code: totpCode(secret),
  });
  if (confirmed.status !== 200)
    throw new Error(`confirm 2FA failed: ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
  return { secret, recoveryCodes: confirmed.body.recovery_codes as string[], enableBody: enabled.body };
}

export async function auditRows(t: TestApp, where: Record<string, unknown>) {
  return t.db('audit_logs').where(where).orderBy('id');
}
