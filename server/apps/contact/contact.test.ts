import request from 'supertest';
import { createTestContext, guestAgent, type Agent, type TestContext } from '../../testing/test-app';
import { captchaSecret, createCaptcha, verifyCaptcha, MIN_SOLVE_MS, CAPTCHA_TTL_MS } from './captcha';
import { CONTACT_MESSAGES } from './schemas';

const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** Reads the form's captcha as a person would (from the question), with its key. */
function solve(html: string): { captcha_key: string; captcha: string } {
  const key = /name="captcha_key" value="([^"]+)"/.exec(html)![1];
  const [, a, b] = /alt="What is (\w+) plus (\w+)\?"/.exec(html)!;
  return { captcha_key: key, captcha: String(WORDS.indexOf(a) + WORDS.indexOf(b)) };
}

describe('contact form', () => {
  let t: TestContext;
  let clockOffset = 0;
  beforeAll(async () => {
    t = await createTestContext();
    t.ctx.now = () => new Date(Date.now() + clockOffset);
  });
  afterAll(() => t.close());

  async function formFor(agent: Agent, path = '/contact/') {
    clockOffset = 0;
    const page = await agent.get(path);
    clockOffset = MIN_SOLVE_MS + 1000; // the reader takes a few seconds
    return { page, ...solve(page.text) };
  }

  const valid = { question_category: 'general', name: 'Jo Reader', email: 'jo@example.com', confirm_email: 'JO@example.com', comment: 'Love the site.' };

  test('the form has the categories, the 600 counter, the captcha image and the CSRF token', async () => {
    const agent = guestAgent(t.app);
    const { page } = await formFor(agent);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<option value="advertise">Advertising</option>');
    expect(page.text).toContain('maxlength="600"');
    expect(page.text).toContain('600 characters remaining');
    expect(page.text).toMatch(/<img class="captcha__image" src="data:image\/svg\+xml;base64,/);
    expect(page.text).toContain(`value="${agent.csrfToken}"`);
    expect(page.text).toContain('<script src="/static/js/contact-form.js" defer></script>');
    expect(page.headers['cache-control']).toBe('private, no-cache');
  });

  test("the form hands its script the server's words and patterns, so the browser's checks say what the server would", async () => {
    const { page } = await formFor(guestAgent(t.app));
    // The attribute as the browser reads it (Nunjucks escapes quotes and backslashes).
    const attr = /data-rules="([^"]+)"/.exec(page.text)![1]
      .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
    const rules = JSON.parse(attr) as { messages: Record<string, string>; emailPattern: string; phonePattern: string };
    expect(rules.messages).toMatchObject({ required: 'This field is required.', emailMismatch: CONTACT_MESSAGES.emailMismatch, emailInvalid: 'Enter a valid email address.' });
    expect(new RegExp(rules.emailPattern).test('jo@example.com')).toBe(true);
    expect(new RegExp(rules.emailPattern).test('jo@example')).toBe(false);
    expect(new RegExp(rules.phonePattern).test('416-555-0100')).toBe(true);
    expect(new RegExp(rules.phonePattern).test('call me')).toBe(false);
    // Every field has its error line, hidden until there is something to say.
    for (const name of ['name', 'email', 'confirm_email', 'comment', 'captcha']) expect(page.text).toContain(`<p id="${name}-error" class="field-error" data-field-error hidden></p>`);
  });

  test('?category=advertise preselects advertising with business name and phone', async () => {
    const res = await request(t.app).get('/contact/?category=advertise');
    expect(res.text).toContain('<option value="advertise" selected>');
    expect(res.text).toContain('name="business_name"');
    expect(res.text).toContain('name="phone_number"');
    expect(res.text).toContain('<h1 class="page-header__title">Advertise with us</h1>');
  });

  test('a valid message is stored, emailed to staff, and thanked', async () => {
    const agent = guestAgent(t.app);
    const { captcha_key, captcha } = await formFor(agent);
    const res = await agent.post('/contact/').type('form').send({ ...valid, csrfmiddlewaretoken: agent.csrfToken, captcha_key, captcha });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/contact/?sent=1&category=general');
    const thanks = await agent.get(res.headers.location);
    expect(thanks.text).toContain('Thanks for dropping us a line.');
    const row = await t.ctx.db('contact_messages').where({ email: 'jo@example.com' }).first();
    expect(row).toMatchObject({ question_category: 'general', name: 'Jo Reader', comment: 'Love the site.' });
    expect(row.emailed_at).not.toBeNull();
    const mail = t.mailer.sent.find((m) => m.replyTo === 'jo@example.com')!;
    expect(mail.to).toBe(t.config.mail.staffEmail);
    expect(mail.text).toContain('Love the site.');
  });

  test('advertising enquiries keep business name and phone and get the sales thank-you', async () => {
    const agent = guestAgent(t.app);
    const { captcha_key, captcha } = await formFor(agent, '/contact/?category=advertise');
    const res = await agent.post('/contact/').type('form').send({ ...valid, email: 'ads@example.com', confirm_email: 'ads@example.com', question_category: 'advertise', business_name: 'Pizza Palace', phone_number: '416-555-0100', csrfmiddlewaretoken: agent.csrfToken, captcha_key, captcha });
    expect(res.status).toBe(303);
    expect((await agent.get(res.headers.location)).text).toContain('Thanks. Our sales team will be in touch shortly.');
    expect(await t.ctx.db('contact_messages').where({ email: 'ads@example.com' }).first()).toMatchObject({ business_name: 'Pizza Palace', phone_number: '416-555-0100' });
  });

  test('every field error shows beside its field, the answers are kept (escaped) and nothing is stored', async () => {
    const agent = guestAgent(t.app);
    const { captcha_key } = await formFor(agent);
    const before = await t.ctx.db('contact_messages').count({ n: '*' }).first();
    const res = await agent.post('/contact/').type('form').send({
      csrfmiddlewaretoken: agent.csrfToken, question_category: 'nonsense', name: '', email: 'bad', confirm_email: 'other@example.com',
      comment: 'x'.repeat(601), captcha_key, captcha: '0', business_name: '<b>Biz</b>',
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain('Select a valid choice.');
    expect(res.text).toContain('Enter a valid email address.');
    expect(res.text).toContain('Your email addresses don’t match.');
    expect(res.text).toContain('Ensure this field has no more than 600 characters.');
    expect(res.text).toContain('value="&lt;b&gt;Biz&lt;/b&gt;"');
    expect(res.text).toContain('aria-invalid="true"');
    expect(await t.ctx.db('contact_messages').count({ n: '*' }).first()).toEqual(before);
  });

  test('a wrong captcha answer is refused with a new question', async () => {
    const agent = guestAgent(t.app);
    const { captcha_key, captcha } = await formFor(agent);
    const res = await agent.post('/contact/').type('form').send({ ...valid, csrfmiddlewaretoken: agent.csrfToken, captcha_key, captcha: String(Number(captcha) + 1) });
    expect(res.status).toBe(400);
    expect(res.text).toContain('That answer is not right.');
    expect(solve(res.text).captcha_key).not.toBe(captcha_key);
  });

  test('JSON clients get DRF field errors and a 201 detail', async () => {
    const agent = guestAgent(t.app);
    const bad = await agent.post('/contact/').set('X-CSRFToken', agent.csrfToken).send({ ...valid, confirm_email: 'nope@example.com' });
    expect(bad.status).toBe(400);
    expect(bad.body.confirm_email).toEqual(['Your email addresses don’t match.']);
    expect(bad.body.captcha_key).toEqual(['This field is required.']);
    clockOffset = 0;
    const fresh = await agent.get('/contact/captcha/');
    expect(fresh.body).toEqual({ image: expect.stringMatching(/^data:image\/svg\+xml;base64,/), key: expect.any(String), alt: expect.any(String) });
    clockOffset = MIN_SOLVE_MS + 1000;
    const [, a, b] = /What is (\w+) plus (\w+)\?/.exec(fresh.body.alt)!;
    const ok = await agent.post('/contact/').set('X-CSRFToken', agent.csrfToken).send({ ...valid, captcha_key: fresh.body.key, captcha: String(WORDS.indexOf(a) + WORDS.indexOf(b)) });
    expect(ok.status).toBe(201);
    expect(ok.body).toEqual({ detail: 'Thanks for dropping us a line.' });
  });

  describe('captcha', () => {
    const secret = captchaSecret('s'.repeat(40));
    const issued = new Date('2026-01-01T12:00:00Z');
    const later = (ms: number) => new Date(issued.getTime() + ms);
    const fixed = () => 0.5; // 5 + 5
    test('accepts the right answer once, after a human delay and before it expires', async () => {
      const c = createCaptcha(secret, issued, fixed);
      expect(c.alt).toBe('What is five plus five?');
      expect(await verifyCaptcha(t.ctx.db, secret, c.key, '10', later(500))).toBe('too-fast');
      expect(await verifyCaptcha(t.ctx.db, secret, c.key, '11', later(5000))).toBe('wrong');
      expect(await verifyCaptcha(t.ctx.db, secret, c.key, ' 10 ', later(5000))).toBe('ok');
      expect(await verifyCaptcha(t.ctx.db, secret, c.key, '10', later(6000))).toBe('used');
      const d = createCaptcha(secret, issued, fixed);
      expect(await verifyCaptcha(t.ctx.db, secret, d.key, '10', later(CAPTCHA_TTL_MS + 1))).toBe('expired');
    });
    test('a key signed with another secret, or tampered with, is refused', async () => {
      const c = createCaptcha(secret, issued, fixed);
      expect(await verifyCaptcha(t.ctx.db, captchaSecret('t'.repeat(40)), c.key, '10', later(5000))).toBe('wrong');
      expect(await verifyCaptcha(t.ctx.db, secret, c.key.replace(/^\d+/, String(issued.getTime() + 1)), '10', later(5000))).toBe('wrong');
      expect(await verifyCaptcha(t.ctx.db, secret, 'garbage', '10', later(5000))).toBe('invalid');
    });
    test('the key carries issue time, nonce and signature, never the answer', () => {
      const c = createCaptcha(secret, issued, fixed);
      expect(c.key.split('.')).toHaveLength(3);
      expect(c.key.split('.')).not.toContain('10');
    });
  });

  test('a captcha answered through one process is refused by another on the same database', async () => {
    // A second process: the app and everything it imports loaded afresh (no module state
    // shared with the first), on the same database.
    let createOtherApp!: typeof import('../../app').createApp;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- isolateModules loads modules afresh only through require
      createOtherApp = (require('../../app') as typeof import('../../app')).createApp;
    });
    const other = createOtherApp({ ...t.ctx }, { watchManifest: false });
    const agent = guestAgent(t.app);
    const { captcha_key, captcha } = await formFor(agent);
    const first = await agent.post('/contact/').set('X-CSRFToken', agent.csrfToken).send({ ...valid, captcha_key, captcha });
    expect(first.status).toBe(201);
    const replayer = guestAgent(other);
    const replay = await replayer.post('/contact/').set('X-CSRFToken', replayer.csrfToken).send({ ...valid, captcha_key, captcha });
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({ captcha: [CONTACT_MESSAGES.captchaUsed] });
    // And through the first process again.
    const again = await agent.post('/contact/').set('X-CSRFToken', agent.csrfToken).send({ ...valid, captcha_key, captcha });
    expect(again.body).toEqual({ captcha: [CONTACT_MESSAGES.captchaUsed] });
  });

  test('messages are rate limited per address', async () => {
    const app = t.rebuild({ RATE_LIMITS: 'true' });
    const agent = guestAgent(app);
    let last = 0;
    for (let i = 0; i < 11; i += 1) last = (await agent.post('/contact/').set('X-CSRFToken', agent.csrfToken).send({})).status;
    expect(last).toBe(429);
  });
});
