import request from 'supertest';
import { smtpMailer, startSmtpSink, type SmtpSink } from '../../testing/smtp-sink';
import { createMember, createTestContext, guestAgent, memberAgent, type TestContext } from '../../testing/test-app';
import { createArticle } from '../../testing/fixtures';
import { readUnsubscribeToken, unsubscribeToken } from './unsubscribe-token';
import { newsletterEmail, unsubscribeUrl } from './newsletter-email';
import { currentIssue } from './newsletter-issue-queries';
import { sendNewsletter } from './newsletter-send-job';

// One-click unsubscribe (CASL, RFC 8058): every newsletter email carries a signed link and the
// List-Unsubscribe headers; the link works without login, a GET changes nothing, the mail
// client's one-click POST works without a CSRF token, and a tampered token is refused.

let t: TestContext;
let smtp: SmtpSink;

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await createTestContext({ SMTP_URL: smtp.url, MAIL_POSTAL_ADDRESS: '100 Example Street, Toronto, ON M5V 0A1, Canada' });
});
afterAll(async () => {
  await smtp.close();
  await t.close();
});

const secret = () => t.config.sessionSecret;
const db = () => t.ctx.db;
const flags = async (id: number) => db()('profiles').where({ id }).first('settings_receive_newsletter_news', 'settings_receive_newsletter_foods');
const issue = { subject: 'Top Stories', intro: 'Hello.', items: [{ title: 'A story', url: 'http://example.com/a/' }] };

async function subscribedMember(fields: Record<string, boolean> = { settings_receive_newsletter_news: true, settings_receive_newsletter_foods: true }) {
  const m = await createMember(t.ctx);
  await db()('profiles').where({ id: m.id }).update(fields);
  return m;
}

describe('the signed unsubscribe token', () => {
  test('reads back what it was made of, and nothing else', () => {
    const token = unsubscribeToken(secret(), { kind: 'member', id: 42, newsletter: 'foods' });
    expect(readUnsubscribeToken(secret(), token)).toEqual({ kind: 'member', id: 42, newsletter: 'foods' });
    expect(readUnsubscribeToken(secret(), token.replace('m.42.', 'm.43.'))).toBeNull();
    expect(readUnsubscribeToken(secret(), token.replace('.foods.', '.news.'))).toBeNull();
    expect(readUnsubscribeToken(secret(), token.replace('m.42.', 'g.42.'))).toBeNull();
    expect(readUnsubscribeToken(secret(), `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    expect(readUnsubscribeToken('another-secret-of-at-least-32-characters!!', token)).toBeNull();
    for (const junk of [undefined, '', ['x'], 'm.1.news', 'x'.repeat(500)]) expect(readUnsubscribeToken(secret(), junk)).toBeNull();
  });
});

describe('the newsletter email', () => {
  test('carries both RFC 8058 headers, the links and the CASL footer', () => {
    const message = newsletterEmail(t.config, { email: 'reader@example.com', recipient: { kind: 'guest', id: 7 } }, 'news', issue);
    const link = unsubscribeUrl(t.config, { kind: 'guest', id: 7 }, 'news');
    expect(message.headers).toMatchObject({ 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    expect(link).toMatch(new RegExp(`^${t.config.site.url}/newsletters/unsubscribe/\\?token=g\\.7\\.news\\.[A-Za-z0-9_-]{43}$`));
    expect(message.text).toContain(`Unsubscribe from Top Stories: ${link}`);
    expect(message.text).toContain('Unsubscribe from all our newsletters: ');
    expect(message.text).toContain(`${t.config.site.name}, 100 Example Street, Toronto, ON M5V 0A1, Canada`);
    expect(message.text).toContain(`Contact us: ${t.config.site.url}/contact/`);
    expect(message.html).toContain(`href="${link}"`);
  });

  test('production refuses to send one without a mailing address', () => {
    const config = { ...t.config, isProduction: true, mail: { ...t.config.mail, postalAddress: undefined } };
    expect(() => newsletterEmail(config, { email: 'x@example.com', recipient: { kind: 'guest', id: 1 } }, 'news', issue)).toThrow(/MAIL_POSTAL_ADDRESS/);
  });
});

describe('sending an issue over SMTP, then unsubscribing from its link', () => {
  test('the subscribers get it once each with the headers; the link works without login', async () => {
    await createArticle(db(), { name: 'Patios open early this year', type_slug: 'food', date_published: new Date(Date.now() - 3600_000) });
    const member = await subscribedMember();
    const notSubscribed = await subscribedMember({ settings_receive_newsletter_foods: false });
    const closed = await subscribedMember();
    await db()('profiles').where({ id: closed.id }).update({ is_active: false });
    // A guest subscription of a member's address: that reader gets one copy, as the member.
    await db()('guest_newsletter_subscriptions').insert({ email: member.email.toUpperCase(), foods: true, unsubscribe_token: `t-${member.id}` });
    const [guest] = await db()('guest_newsletter_subscriptions').insert({ email: `guest-${member.id}@example.com`, foods: true, news: true, unsubscribe_token: `g-${member.id}` }).returning('id');

    const foods = await currentIssue(t.ctx, 'foods');
    expect(foods?.items.map((i) => i.title)).toContain('Patios open early this year');
    const before = smtp.received.length;
    const result = await sendNewsletter({ ...t.ctx, mailer: smtpMailer(t) }, 'foods', foods!);
    if (result.status !== 'sent') throw new Error(`not sent: ${result.status}`);
    const mine = (await smtp.waitFor(before + result.sent)).slice(before).map((m) => m.raw);
    const recipients = mine.map((raw) => /^To: (\S+)/m.exec(raw)![1].toLowerCase());
    expect(recipients).toContain(member.email);
    expect(recipients).toContain(`guest-${member.id}@example.com`);
    expect(recipients).not.toContain(notSubscribed.email);
    expect(recipients).not.toContain(closed.email);
    expect(recipients.filter((r) => r === member.email)).toHaveLength(1);

    const raw = mine.find((m) => m.includes(`To: ${member.email}`))!.replace(/\r?\n[ \t]+/g, ' ');
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    const header = /^List-Unsubscribe: <(http:\/\/\S+)>\r?$/m.exec(raw);
    expect(header).not.toBeNull();
    const link = new URL(header![1]);
    expect(readUnsubscribeToken(secret(), link.searchParams.get('token'))).toEqual({ kind: 'member', id: member.id, newsletter: 'foods' });

    // GET, as a link scanner would, with no cookie at all: a page with a button, nothing changes.
    const page = await request(t.app).get(link.pathname + link.search);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Unsubscribe from Dished');
    expect(page.headers['referrer-policy']).toBe('same-origin');
    expect(await flags(member.id)).toEqual({ settings_receive_newsletter_news: true, settings_receive_newsletter_foods: true });

    // The mail client's RFC 8058 one-click POST: no cookie, no CSRF token, no Origin.
    const oneClick = await request(t.app).post(link.pathname + link.search).type('form').send('List-Unsubscribe=One-Click');
    expect(oneClick.status).toBe(200);
    expect(await flags(member.id)).toEqual({ settings_receive_newsletter_news: true, settings_receive_newsletter_foods: false });
    // Again is harmless.
    expect((await request(t.app).post(link.pathname + link.search).type('form').send('List-Unsubscribe=One-Click')).status).toBe(200);

    // The guest uses the page's other button: all newsletters.
    const guestRaw = mine.find((m) => m.includes(`To: guest-${member.id}@example.com`))!.replace(/\r?\n[ \t]+/g, ' ');
    const guestLink = new URL(/^List-Unsubscribe: <(http:\/\/\S+)>\r?$/m.exec(guestRaw)![1]);
    const visitor = guestAgent(t.app);
    const done = await visitor.post(guestLink.pathname + guestLink.search).type('form').send({ csrfmiddlewaretoken: visitor.csrfToken, scope: 'all' });
    expect(done.status).toBe(200);
    expect(done.text).toContain("You're unsubscribed");
    expect(await db()('guest_newsletter_subscriptions').where({ id: guest.id }).first('news', 'foods')).toEqual({ news: false, foods: false });
  });

  test('a tampered token is refused with 400 and changes nothing', async () => {
    const member = await subscribedMember();
    const token = unsubscribeToken(secret(), { kind: 'member', id: member.id, newsletter: 'news' });
    const other = await subscribedMember();
    const tampered = token.replace(`m.${member.id}.`, `m.${other.id}.`);
    const get = await request(t.app).get(`/newsletters/unsubscribe/?token=${tampered}`);
    expect(get.status).toBe(400);
    expect(get.text).toContain("This unsubscribe link doesn't work");
    const post = await request(t.app).post(`/newsletters/unsubscribe/?token=${tampered}`).type('form').send('List-Unsubscribe=One-Click');
    expect(post.status).toBe(400);
    expect((await request(t.app).post('/newsletters/unsubscribe/').type('form').send('List-Unsubscribe=One-Click')).status).toBe(400);
    expect(await flags(other.id)).toEqual({ settings_receive_newsletter_news: true, settings_receive_newsletter_foods: true });
    expect(await flags(member.id)).toEqual({ settings_receive_newsletter_news: true, settings_receive_newsletter_foods: true });
  });

  test('the CSRF exemption is that one path: other forms still need the token', async () => {
    expect((await request(t.app).post('/newsletters/').type('form').send({ email: 'x@example.com', news: 'on' })).status).toBe(403);
    const m = await createMember(t.ctx);
    const agent = await memberAgent(t, m);
    expect((await agent.post('/newsletters/unsubscribe/x').type('form').send('List-Unsubscribe=One-Click')).status).toBe(403);
  });

  test('a member signed in elsewhere is unsubscribed by the link alone, and sees it in their profile', async () => {
    const member = await subscribedMember();
    const agent = await memberAgent(t, member);
    const link = unsubscribeUrl(t.config, { kind: 'member', id: member.id }, 'news');
    const url = new URL(link);
    expect((await request(t.app).post(url.pathname + url.search).type('form').send('List-Unsubscribe=One-Click')).status).toBe(200);
    const me = await agent.get('/api/v2/profiles/me/');
    expect(me.body).toMatchObject({ settings_receive_newsletter_news: false, settings_receive_newsletter_foods: true });
  });
});
