import { createApp } from '../../app';
import { smtpMailer, startSmtpSink, type SmtpSink } from '../../testing/smtp-sink';
import { createMember, createTestContext, memberAgent, type TestContext } from '../../testing/test-app';
import { createEvent } from '../../testing/fixtures';

/** Quoted-printable bytes (=XX) as UTF-8 text. */
const qp = (text: string) => Buffer.from(text.replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');

/** A received message as headers (unfolded, RFC 2047 words decoded) and a decoded body. */
function readMessage(raw: string): { subject: string; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split).replace(/\r\n[ \t]/g, ' ').replace(/\?=\s+=\?/g, '?==?');
  const subject = /^Subject: (.*)$/im.exec(headers)?.[1] ?? '';
  const decoded = subject.replace(/=\?UTF-8\?Q\?([^?]*)\?=/gi, (_m, word: string) => qp(word.replace(/_/g, ' ')));
  return { subject: decoded, body: qp(raw.slice(split + 4).replace(/=\r?\n/g, '')) };
}

// The member's moderation emails through a real SMTP conversation: an in-process server
// receives what nodemailer sends when staff approve one event and reject another.
describe('event moderation emails over SMTP', () => {
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

  test('the submitter receives the approval with its link, and the rejection with the note', async () => {
    const app = createApp({ ...t.ctx, mailer: smtpMailer(t) });
    const submitter = await createMember(t.ctx, { full_name: 'Pat Submitter' });
    const staff = await memberAgent({ app, ctx: t.ctx }, await createMember(t.ctx, { is_staff: true }));
    const approved = await createEvent(t.ctx.db, { title: 'Harbourfront Lantern Walk', status: 'pending', submitted_by: submitter.id });
    const rejected = await createEvent(t.ctx.db, { title: 'Niagara Day Trip', status: 'pending', submitted_by: submitter.id });

    const a = await staff.post(`/staff/events/${approved}/moderate/`).type('form').send({ csrfmiddlewaretoken: staff.csrfToken, decision: 'approved' });
    expect(a.headers.location).toBe(`/staff/events/?done=approved&event=${approved}&mail=sent`);
    const r = await staff.post(`/staff/events/${rejected}/moderate/`).type('form').send({ csrfmiddlewaretoken: staff.csrfToken, decision: 'rejected', note: 'Niagara Falls is outside the city.' });
    expect(r.headers.location).toBe(`/staff/events/?done=rejected&event=${rejected}&mail=sent`);

    const received = await smtp.waitFor(2);
    expect(received).toHaveLength(2);
    expect(received.map((m) => m.to)).toEqual([[submitter.email], [submitter.email]]);
    const [approval, rejection] = received.map((m) => readMessage(m.raw));
    expect(approval.subject).toBe('Your event "Harbourfront Lantern Walk" is approved');
    const slug = (await t.ctx.db('events').where({ id: approved }).first('slug')).slug as string;
    expect(approval.body).toContain(`${t.config.site.url}/events/${slug}-${approved}/`);
    expect(approval.body).toContain('— The Toronto Guide');
    expect(rejection.subject).toBe('Your event "Niagara Day Trip" was not approved');
    expect(rejection.body).toContain('Niagara Falls is outside the city.');
  });

  test('a mail server that refuses the message leaves the decision made, and says the email failed', async () => {
    const app = createApp({ ...t.ctx, mailer: smtpMailer(t, 'smtp://127.0.0.1:1') });
    const submitter = await createMember(t.ctx);
    const staff = await memberAgent({ app, ctx: t.ctx }, await createMember(t.ctx, { is_staff: true }));
    const id = await createEvent(t.ctx.db, { status: 'pending', submitted_by: submitter.id });
    const res = await staff.post(`/staff/events/${id}/moderate/`).type('form').send({ csrfmiddlewaretoken: staff.csrfToken, decision: 'approved' });
    expect(res.headers.location).toBe(`/staff/events/?done=approved&event=${id}&mail=failed`);
    expect(await t.ctx.db('events').where({ id }).first('status')).toEqual({ status: 'approved' });
    expect((await staff.get(res.headers.location)).text).toContain('The email to the member could not be sent');
  });
});
