import type { MailMessage, Mailer } from '../../mail/mailer';
import { createMember, createTestContext, type TestContext } from '../../testing/test-app';
import { issueKey, runNewsletterSendJob, sendNewsletter } from './newsletter-send-job';
import { waitFor } from '../../testing/wait-for';

// An issue is sent once: again, nothing goes; a send that died carries on after the last
// recipient done; a second send while one runs is refused; a changed issue is a new send.

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ MAIL_POSTAL_ADDRESS: '100 Example Street, Toronto, ON M5V 0A1, Canada' });
});
afterAll(() => t.close());

const db = () => t.ctx.db;

function recordingMailer(failFor: string[] = []): Mailer & { to: string[] } {
  const to: string[] = [];
  return {
    to,
    async send(message: MailMessage) {
      const address = String(message.to);
      if (failFor.includes(address)) throw new Error('mailbox unavailable');
      to.push(address);
    },
  };
}

async function travelSubscribers(n: number) {
  const members = [];
  for (let i = 0; i < n; i++) {
    const m = await createMember(t.ctx);
    await db()('profiles').where({ id: m.id }).update({ settings_receive_newsletter_travel: true });
    members.push(m);
  }
  return members;
}

const issue = (title: string) => ({ subject: 'Travel from the guide', intro: 'Hello.', items: [{ title, url: `http://example.com/${encodeURIComponent(title)}/` }] });

test('the same issue twice: the second run sends nothing and says when it went', async () => {
  const members = await travelSubscribers(3);
  const [guest] = await db()('guest_newsletter_subscriptions').insert({ email: 'travel-guest@example.com', travel: true, unsubscribe_token: 'travel-guest' }).returning('id');
  const first = recordingMailer();
  const outcome = await sendNewsletter({ ...t.ctx, mailer: first }, 'travel', issue('Montreal by train'));
  expect(outcome).toEqual({ status: 'sent', sent: 4, failed: 0, resumed: false });
  expect(first.to).toEqual([...members.map((m) => m.email), 'travel-guest@example.com']);
  const row = await db()('newsletter_sends').where({ type: 'travel', issue_key: issueKey(issue('Montreal by train')) }).first();
  expect(row).toMatchObject({ member_cursor: members[2].id, guest_cursor: guest.id, sent: 4, failed: 0, running_until: null });
  expect(row.finished_at).not.toBeNull();

  const again = recordingMailer();
  const second = await sendNewsletter({ ...t.ctx, mailer: again }, 'travel', issue('Montreal by train'));
  expect(second).toMatchObject({ status: 'already-sent', sent: 4, failed: 0 });
  expect(again.to).toEqual([]);

  // Another item is another issue.
  const next = recordingMailer();
  expect(await sendNewsletter({ ...t.ctx, mailer: next }, 'travel', issue('Quebec City in winter'))).toMatchObject({ status: 'sent', sent: 4 });
  expect(next.to).toHaveLength(4);
});

test('a send that died carries on after the last recipient done, with the counts it had', async () => {
  await db()('profiles').update({ settings_receive_newsletter_travel: false });
  await db()('guest_newsletter_subscriptions').update({ travel: false });
  const members = await travelSubscribers(4);
  const died = issue('Niagara without a car');
  // As a run that had sent to the first two and then died: its lease ran out a minute ago.
  await db()('newsletter_sends').insert({
    type: 'travel',
    issue_key: issueKey(died),
    subject: died.subject,
    member_cursor: members[1].id,
    sent: 2,
    running_until: db().raw(`now() - interval '1 minute'`),
  });
  const mailer = recordingMailer([members[3].email]);
  const outcome = await sendNewsletter({ ...t.ctx, mailer }, 'travel', died);
  expect(outcome).toEqual({ status: 'sent', sent: 3, failed: 1, resumed: true });
  expect(mailer.to).toEqual([members[2].email]);
});

test('a second send while one runs is refused, and sends nothing', async () => {
  await db()('profiles').update({ settings_receive_newsletter_travel: false });
  await travelSubscribers(1);
  const busy = issue('Ottawa for the weekend');
  await db()('newsletter_sends').insert({ type: 'travel', issue_key: issueKey(busy), subject: busy.subject, running_until: db().raw(`now() + interval '4 minutes'`) });
  const mailer = recordingMailer();
  const outcome = await sendNewsletter({ ...t.ctx, mailer }, 'travel', busy);
  expect(outcome).toMatchObject({ status: 'running' });
  expect(mailer.to).toEqual([]);
});

test('a send that died while a message was in flight carries on after that reader: nobody gets a second copy', async () => {
  await db()('profiles').update({ settings_receive_newsletter_travel: false });
  await db()('guest_newsletter_subscriptions').update({ travel: false });
  const members = await travelSubscribers(3);
  const died = issue('Kingston by the lake');
  // The first run dies while its message to the second reader is in flight (the mailer never answers).
  const first = recordingMailer();
  let inFlight = false;
  const stalled: Mailer = {
    async send(message) {
      if (String(message.to) === members[1].email) {
        inFlight = true;
        return new Promise<void>(() => undefined);
      }
      return first.send(message);
    },
  };
  void sendNewsletter({ ...t.ctx, mailer: stalled }, 'travel', died);
  await waitFor('the second message to be in flight', () => inFlight, 30_000);
  // Its lease runs out (the process is gone); the next run carries on after the reader in flight.
  await db()('newsletter_sends').where({ type: 'travel', issue_key: issueKey(died) }).update({ running_until: db().raw(`now() - interval '1 second'`) });
  const second = recordingMailer();
  const outcome = await sendNewsletter({ ...t.ctx, mailer: second }, 'travel', died);
  expect(outcome).toEqual({ status: 'sent', sent: 2, failed: 0, resumed: true });
  expect(first.to).toEqual([members[0].email]);
  expect(second.to).toEqual([members[2].email]);
});

test('the newsletter.send job: bad data is refused (the queue keeps it failed); a newsletter that is off sends nothing', async () => {
  await expect(runNewsletterSendJob(t.ctx, { type: 'gossip' })).rejects.toThrow(/bad job data/);
  await expect(runNewsletterSendJob(t.ctx, null)).rejects.toThrow(/bad job data/);
  const off = { ...t.ctx, config: { ...t.ctx.config, flags: Object.fromEntries(Object.keys(t.ctx.config.flags).map((k) => [k, false])) } } as typeof t.ctx;
  const mailer = recordingMailer();
  expect(await runNewsletterSendJob({ ...off, mailer }, { type: 'events' })).toBeNull();
  expect(mailer.to).toEqual([]);
});
