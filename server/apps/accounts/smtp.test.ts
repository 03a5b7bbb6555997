import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { createApp } from '../../app';
import { createMailer } from '../../mail/mailer';
import { createMember, createTestContext, guestAgent, type TestContext } from '../../testing/test-app';

// The reset email through a real SMTP conversation: an in-process server receives the
// message nodemailer sends, and the test follows the link in it.
describe('password reset by email over SMTP', () => {
  let t: TestContext;
  let smtp: SMTPServer;
  const received: string[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push(Buffer.concat(chunks).toString('utf8'));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    t = await createTestContext({ SMTP_URL: `smtp://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await t.close();
  });

  test('the message arrives and its link sets a new password', async () => {
    const config = t.config;
    const mailer = createMailer({ smtpUrl: config.mail.smtpUrl, from: config.mail.from, outboxDir: path.join(t.tmpDir, 'outbox'), logger: t.ctx.logger });
    const app = createApp({ ...t.ctx, mailer });
    const m = await createMember(t.ctx);
    const agent = guestAgent(app);
    const res = await agent.post('/api/v2/profiles/reset-password/').set('X-CSRFToken', agent.csrfToken).send({ email: m.email });
    expect(res.status).toBe(200);
    for (let i = 0; i < 100 && !received.length; i++) await new Promise((r) => setTimeout(r, 50));
    expect(received).toHaveLength(1);
    const raw = received[0].replace(/=\r?\n/g, ''); // undo quoted-printable soft breaks
    expect(raw).toMatch(new RegExp(`^To: ${m.email}`, 'm'));
    expect(raw).toMatch(/^Subject: Reset your .* password/m);
    const link = new URL(/http:\/\/\S+?\/accounts\/reset\/[A-Za-z0-9_-]{43}\//.exec(raw)![0]);
    const form = await agent.get(link.pathname);
    expect(form.status).toBe(200);
    const done = await agent.post(link.pathname).type('form').send({ csrfmiddlewaretoken: agent.csrfToken, new_password: 'ferry-to-the-island', new_password_confirm: 'ferry-to-the-island' });
    expect(done.text).toContain('Your password has been set.');
    const login = await agent.post('/api/v2/profiles/email-login/').set('X-CSRFToken', agent.csrfToken).send({ email: m.email, password: 'ferry-to-the-island' });
    expect(login.status).toBe(200);
  });
});
