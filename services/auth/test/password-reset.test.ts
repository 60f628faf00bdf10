import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createLogResetMailer } from '../src/adapters/log-reset-mailer';
import { createSmtpResetMailer } from '../src/adapters/smtp-reset-mailer';
import { MESSAGES } from '../src/domain/messages';
import type { ResetMail } from '../src/domain/ports';
import { internal, outboxEvents, PUBLIC_URL, register, startTestAuth, type TestAuth, uniqueEmail } from './support';

const NEW_PASSWORD = 'a brand new passphrase';

let now = new Date('2026-11-20T10:00:00Z');
let t: TestAuth;
beforeAll(async () => {
  t = await startTestAuth({ clock: { now: () => now } });
});
afterAll(() => t.close());

const forgot = (email: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
const reset = (token: string, password = NEW_PASSWORD) =>
  t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password } });
const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
const verify = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/verify', headers: { token } });

const tokenOf = (link: string) => new URL(link).searchParams.get('token') as string;

/** Asks for a reset of `email` and answers the token of the link that was sent. */
async function requestLink(email: string): Promise<string> {
  const before = t.mails.length;
  const res = await forgot(email);
  expect(res.statusCode).toBe(200);
  // The link is made after the answer.
  await expect.poll(() => t.mails.length).toBe(before + 1);
  return tokenOf(t.mails.at(-1)?.link as string);
}

const INVALID = { code: 'AUTH_RESET_LINK_INVALID', message: MESSAGES.resetLinkInvalid };

describe('asking for a reset', () => {
  test('sends a single link to the reset page of the web app, and stores only its hash', async () => {
    const user = await register(t.app, { name: 'Rita Reset' });
    const before = t.mails.length;
    const res = await forgot(`  ${user.email.toUpperCase()} `);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.resetRequested });
    await expect.poll(() => t.mails.length).toBe(before + 1);
    const mail = t.mails.at(-1);
    expect(mail).toMatchObject({ to: user.email, name: 'Rita Reset' });
    expect(mail?.link.startsWith(`${PUBLIC_URL}/reset-password?token=`)).toBe(true);
    expect(mail?.expiresAt.toISOString()).toBe('2026-11-20T10:30:00.000Z');
    const token = tokenOf(mail?.link as string);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const rows = await t.db('password_resets').where({ user_id: user.user._id });
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  test('never tells whether the email has an account: same status and body, and nothing is sent', async () => {
    const user = await register(t.app);
    const sent = t.mails.length;
    const unknowns = [];
    for (const email of [uniqueEmail('nobody'), 'not an email', '']) unknowns.push(await forgot(email));
    const known = await forgot(user.email);
    for (const unknown of unknowns) {
      expect(unknown.statusCode).toBe(known.statusCode);
      expect(unknown.body).toBe(known.body);
    }
    // The one mail is the known email's, asked for last.
    await expect.poll(() => t.mails.length).toBe(sent + 1);
    expect(t.mails.at(-1)?.to).toBe(user.email);
  });
});

describe('the answer comes before any work on the email', () => {
  /** Holds `table` locked against everything, reads included, until the returned function is called. */
  async function lockTable(table: string): Promise<() => Promise<void>> {
    const trx = await t.db.transaction();
    await trx.raw(`lock table ${table} in access exclusive mode`);
    return async () => {
      await trx.commit();
    };
  }

  /** The reply, or a failure if none came while the tables are locked (the handler waited on them). */
  async function answeredWhileLocked(email: string) {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer for ${email} while the tables were locked`)), 3000);
    });
    try {
      return await Promise.race([forgot(email), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  test('known and unknown emails are answered without reading users or writing a reset; the link follows', async () => {
    const user = await register(t.app, { name: 'Lou Locked' });
    const sent = t.mails.length;
    const unlockUsers = await lockTable('users');
    const unlockResets = await lockTable('password_resets');
    let released = false;
    try {
      const known = await answeredWhileLocked(user.email);
      const unknown = await answeredWhileLocked(uniqueEmail('nobody'));
      expect(known.statusCode).toBe(200);
      expect(unknown.statusCode).toBe(200);
      expect(unknown.body).toBe(known.body);
      expect(t.mails).toHaveLength(sent);
      await unlockUsers();
      await unlockResets();
      released = true;
    } finally {
      if (!released) {
        await unlockUsers();
        await unlockResets();
      }
    }
    // The work carries on once the tables are free: one row, one mail, for the known email only.
    await expect.poll(() => t.mails.length, { timeout: 15_000 }).toBe(sent + 1);
    expect(t.mails.at(-1)).toMatchObject({ to: user.email, name: 'Lou Locked' });
    expect(await t.db('password_resets').where({ user_id: user.user._id })).toHaveLength(1);
  }, 20_000);
});

describe('using the link', () => {
  test('sets the new password and ends every session', async () => {
    const user = await register(t.app);
    expect((await verify(user.token)).statusCode).toBe(200);
    const token = await requestLink(user.email);

    const res = await reset(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.passwordReset });

    expect((await verify(user.token)).json()).toMatchObject({ code: 'AUTH_TOKEN_REVOKED' });
    expect((await login(user.email, user.password)).statusCode).toBe(401);
    const fresh = await login(user.email, NEW_PASSWORD);
    expect(fresh.statusCode).toBe(200);
    expect((await verify((fresh.json() as { token: string }).token)).statusCode).toBe(200);
    // Other services hear of the new token version, so their caches drop the old sessions too.
    const events = (await outboxEvents(t.db)).filter((e) => e.key === user.user._id);
    expect(events.at(-1)?.value).toMatchObject({ id: user.user._id, tokenVersion: 2 });
  });

  test('works once', async () => {
    const user = await register(t.app);
    const token = await requestLink(user.email);
    expect((await reset(token)).statusCode).toBe(200);
    const again = await reset(token, 'yet another passphrase');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(INVALID);
    expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  test('a reset retires every other link the user was sent', async () => {
    const user = await register(t.app);
    const first = await requestLink(user.email);
    const second = await requestLink(user.email);
    expect((await reset(second)).statusCode).toBe(200);
    expect((await reset(first, 'yet another passphrase')).json()).toEqual(INVALID);
  });

  test('expires after 30 minutes', async () => {
    const user = await register(t.app);
    const start = now;
    const late = await requestLink(user.email);
    const inTime = await requestLink(user.email);
    try {
      now = new Date(start.getTime() + 30 * 60_000);
      expect((await reset(late)).json()).toEqual(INVALID);
      now = new Date(start.getTime() + 29 * 60_000);
      expect((await reset(inTime)).statusCode).toBe(200);
    } finally {
      now = start;
    }
  });

  test('a password the registration would refuse is refused, and the link stays usable', async () => {
    const user = await register(t.app);
    const token = await requestLink(user.email);
    const short = await reset(token, 'short');
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ code: 'AUTH_WEAK_PASSWORD', message: MESSAGES.passwordTooShort });
    const blank = await reset(token, '        ');
    expect(blank.json()).toEqual({ code: 'AUTH_FIELDS_MISSING', message: MESSAGES.fieldsMissing });
    expect((await reset(token)).statusCode).toBe(200);
  });

  test('an unknown or empty token is refused', async () => {
    expect((await reset('a'.repeat(43))).json()).toEqual(INVALID);
    expect((await reset('')).json()).toEqual(INVALID);
  });
});

describe('a link issued for an admin to hand over', () => {
  test('the internal route answers a working link and sends nothing', async () => {
    const user = await register(t.app);
    const sent = t.mails.length;
    const res = await internal(t.app, 'POST', `/internal/users/${user.user._id}/reset-link`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { link: string; expiresAt: string };
    expect(body.expiresAt).toBe('2026-11-20T10:30:00.000Z');
    expect(t.mails).toHaveLength(sent);
    expect((await reset(tokenOf(body.link))).statusCode).toBe(200);
    expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  test('needs the internal secret, and names a missing user', async () => {
    const user = await register(t.app);
    const outside = await t.app.inject({ method: 'POST', url: `/internal/users/${user.user._id}/reset-link` });
    expect(outside.statusCode).toBe(403);
    const missing = await internal(t.app, 'POST', '/internal/users/00000000-0000-4000-8000-000000000000/reset-link');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 'USER_NOT_FOUND', message: MESSAGES.userNotFound });
  });
});

describe('delivery', () => {
  test('through a real SMTP server when SMTP_URL is set', async () => {
    const received: { from: string; to: string[]; raw: string }[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, done) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          done();
        });
      },
    });
    smtp.listen(0, '127.0.0.1');
    await once(smtp.server, 'listening');
    const port = (smtp.server.address() as AddressInfo).port;
    const mailer = createSmtpResetMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'Flatship <no-reply@ship.test>',
    });
    const s = await startTestAuth({ mailer });
    try {
      const user = await register(s.app);
      const res = await s.app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        payload: { email: user.email },
      });
      expect(res.json()).toEqual({ message: MESSAGES.resetRequested });
      await expect.poll(() => received.length, { timeout: 15_000 }).toBe(1);
      const mail = received[0]!;
      expect(mail.from).toBe('no-reply@ship.test');
      expect(mail.to).toEqual([user.email]);
      expect(mail.raw).toContain('Subject: Reset your Flatship password');
      // Quoted-printable may fold long lines: unfold before reading the link.
      const body = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      const link = /http:\/\/ship\.test:8080\/reset-password\?token=[A-Za-z0-9_-]+/.exec(body)?.[0];
      expect(link).toBeDefined();
      const used = await s.app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { token: tokenOf(link as string), password: NEW_PASSWORD },
      });
      expect(used.statusCode).toBe(200);
    } finally {
      mailer.close();
      await s.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });

  test('without SMTP, the log says who asked and where an admin makes a link, never the link', async () => {
    const lines: { obj: Record<string, unknown>; msg?: string }[] = [];
    const logger = {
      info: () => {},
      error: () => {},
      warn: (obj: object, msg?: string) => lines.push({ obj: obj as Record<string, unknown>, msg }),
    };
    let sent: ResetMail | undefined;
    const logMailer = createLogResetMailer(logger);
    const s = await startTestAuth({
      mailer: {
        async send(mail) {
          sent = mail;
          await logMailer.send(mail);
        },
      },
    });
    try {
      const user = await register(s.app);
      await s.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: user.email } });
      await expect.poll(() => lines.length).toBe(1);
      const line = lines[0]!;
      expect(line.msg).toBe(
        'password reset asked for; SMTP_URL is not set, so no email was sent: an admin can make a link on User Management (Reset password)',
      );
      expect(line.obj.to).toBe(user.email);
      const written = JSON.stringify(line);
      expect(written).not.toContain(tokenOf(sent!.link));
      expect(written).not.toContain('reset-password?');
    } finally {
      await s.close();
    }
  });
});
