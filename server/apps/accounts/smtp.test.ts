import { createApp } from '../../app';
import { smtpMailer, startSmtpSink, type SmtpSink } from '../../testing/smtp-sink';
import { createMember, createTestContext, guestAgent, type TestContext } from '../../testing/test-app';

// The reset email through a real SMTP conversation: an in-process server receives the
// message nodemailer sends, and the test follows the link in it.
describe('password reset by email over SMTP', () => {
  let t: TestContext;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await createTestContext({ SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await smtp.close();
    await t.close();
  });

  test('the message arrives and its link sets a new password', async () => {
    const app = createApp({ ...t.ctx, mailer: smtpMailer(t) });
    const m = await createMember(t.ctx);
    const agent = guestAgent(app);
    const res = await agent.post('/api/v2/profiles/reset-password/').set('X-CSRFToken', agent.csrfToken).send({ email: m.email });
    expect(res.status).toBe(200);
    const received = await smtp.waitFor(1);
    expect(received).toHaveLength(1);
    const raw = received[0].raw.replace(/=\r?\n/g, ''); // undo quoted-printable soft breaks
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
