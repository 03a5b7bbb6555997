import { createApp } from '../../app';
import { readMessage, smtpMailer, smtpSuite } from '../../testing/smtp-sink';
import { createMember, memberAgent } from '../../testing/test-app';
import { createEvent } from '../../testing/fixtures';

// The member's moderation emails through a real SMTP conversation: an in-process server
// receives what nodemailer sends when staff approve one event and reject another.
describe('event moderation emails over SMTP', () => {
  const suite = smtpSuite();

  test('the submitter receives the approval with its link, and the rejection with the note', async () => {
    const { t, smtp } = suite;
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
    const { t } = suite;
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
