import { createApp } from '../../app';
import { readMessage, smtpMailer, smtpSuite } from '../../testing/smtp-sink';
import { createMember, guestAgent } from '../../testing/test-app';

// The reset email through a real SMTP conversation: an in-process server receives the
// message nodemailer sends, and the test follows the link in it.
describe('password reset by email over SMTP', () => {
  const suite = smtpSuite();

  test('the message arrives and its link sets a new password', async () => {
    const { t, smtp } = suite;
    const app = createApp({ ...t.ctx, mailer: smtpMailer(t) });
    const m = await createMember(t.ctx);
    const agent = guestAgent(app);
    const res = await agent.post('/api/v2/profiles/reset-password/').set('X-CSRFToken', agent.csrfToken).send({ email: m.email });
    expect(res.status).toBe(200);
    const received = await smtp.waitFor(1);
    expect(received).toHaveLength(1);
    expect(received[0].raw).toMatch(new RegExp(`^To: ${m.email}`, 'm'));
    const message = readMessage(received[0].raw);
    expect(message.subject).toMatch(/^Reset your .* password/);
    const link = new URL(/http:\/\/\S+?\/accounts\/reset\/[A-Za-z0-9_-]{43}\//.exec(message.body)![0]);
    const form = await agent.get(link.pathname);
    expect(form.status).toBe(200);
    const done = await agent.post(link.pathname).type('form').send({ csrfmiddlewaretoken: agent.csrfToken, new_password: 'ferry-to-the-island', new_password_confirm: 'ferry-to-the-island' });
    expect(done.text).toContain('Your password has been set.');
    const login = await agent.post('/api/v2/profiles/email-login/').set('X-CSRFToken', agent.csrfToken).send({ email: m.email, password: 'ferry-to-the-island' });
    expect(login.status).toBe(200);
  });
});
