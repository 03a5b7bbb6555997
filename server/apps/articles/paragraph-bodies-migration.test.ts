import request from 'supertest';
import { parseHtml } from '../../testing/html-dom';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createArticle } from '../../testing/fixtures';
import { PARAGRAPH_BODIES_TO_DOCS_SQL } from '../../../migrations/20261129000100_newsroom';
import { storyDocError, storyDocFromParagraphs } from '../../../shared/newsroom';
import { renderStoryDoc } from './story-render';
import { GENERIC_CLOSERS, TEMPLATES } from '../../../scripts/seed/article-templates';
import { Rng } from '../../../scripts/seed/random';

// The newsroom's migration (issue 37) turned every body of paragraphs between blank lines into
// a story document and its HTML, in SQL (PARAGRAPH_BODIES_TO_DOCS_SQL). A story must read the
// same after it as before, when the template split the body itself (the `paragraphs` filter,
// server/views/formatters.ts: split on blank lines, trim, drop the empty ones, each escaped in a
// <p>). Bodies are the seed's (scripts/seed/article-templates.ts), filled with names that have
// apostrophes, ampersands, quotes and angle brackets, and spaced as hand-typed text is.
//
// (Here, not in migrations/: a migration test may not import app code, and this one renders.)

const TRICKY: Record<string, string[]> = {
  hood: ['Trinity-Bellwoods', 'St. James Town', 'Dovercourt & "Little Portugal"', 'O\'Connor–Parkview', 'Yonge <and> Eglinton'],
  hood2: ['The Annex', 'Regent Park', 'Church & Wellesley'],
  station: ['Dundas West', "Queen's Park", 'St. George', 'Osgoode'],
  station2: ['Union', 'Bloor-Yonge', 'King'],
  street: ['Queen St W', "Ossington Ave & Dundas", 'Yonge St'],
  place: ["Tim's <Kitchen> & Bar", 'Café "Le Petit" Déjeuner', 'Pho 88 > Pho 87', 'Banh Mi Boys'],
  place2: ["Mary's Diner", 'Bar Raval & Co.', 'The <Best> Bagel'],
  library: ['Lillian H. Smith', "Yorkville's", 'Toronto Reference'],
  event: ['Nuit Blanche', '"Winterlicious" & "Summerlicious"', 'Taste of the Danforth'],
  cuisine: ['dumplings', 'ramen', "fish & chips"],
};

function fillFrom(rng: Rng) {
  const values: Record<string, string> = {
    n: String(rng.int(3, 25)),
    nth: 'third',
    money: String(rng.int(2, 30)),
    price: '$20',
    season: 'fall',
    year: '2027',
    month: 'November',
    weekday: 'Tuesday',
    pop: '21,340',
    renters: '54',
    income: '81,000',
    address: '1 Main St',
  };
  for (const [k, options] of Object.entries(TRICKY)) values[k] = rng.pick(options);
  return (template: string) => template.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? k);
}

/** A seed-shaped body, spaced as people type: runs of blank lines, stray spaces and tabs, a line break inside a paragraph. */
function seedBody(rng: Rng): { name: string; body: string } {
  const typeSlug = rng.pick(Object.keys(TEMPLATES));
  const tpl = TEMPLATES[typeSlug];
  const fill = fillFrom(rng);
  const paragraphs = [fill(rng.pick(tpl.intros)), ...rng.sample(tpl.middles, rng.int(2, 4)).map(fill), rng.pick(GENERIC_CLOSERS)];
  if (rng.chance(0.3)) paragraphs.splice(1, 0, 'He shrugged: ¯\\_(ツ)_/¯ — and said "it\'s <fine> & fine".');
  if (rng.chance(0.4)) paragraphs[1] = paragraphs[1].replace('. ', '.\n'); // a single line break stays inside its paragraph
  const separators = ['\n\n', '\n\n\n', '\n\n\n\n\n', '\n\n  \n\n', '\n\n\t\n\n', '\n \n\n'];
  const pad = () => rng.pick(['', '', ' ', '  ', '\t', ' \t ']);
  let body = rng.pick(['', '\n\n', '  \n\n\n', ' ']);
  paragraphs.forEach((p, i) => {
    body += `${pad()}${p}${pad()}`;
    if (i < paragraphs.length - 1) body += rng.pick(separators);
  });
  body += rng.pick(['', '\n', '\n\n\n', '  \n\n ']);
  return { name: fill(rng.pick(tpl.headlines)), body };
}

/** The story's body on a page, three ways: its paragraphs' text, its words, its DOM (entities and spacing between tags aside). */
function bodyOf(html: string) {
  const body = parseHtml(html).querySelector('.article-body');
  if (!body) throw new Error('no .article-body on the page');
  return {
    paragraphs: [...body.children].map((el) => `${el.tagName}: ${el.textContent}`),
    words: (body.textContent ?? '').replace(/\s+/g, ' ').trim(),
    dom: [...body.children].map((el) => el.outerHTML),
    raw: body.innerHTML,
  };
}

describe('the newsroom migration’s paragraph bodies', () => {
  let t: TestContext;

  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  /** Articles as they were before the migration: a body, no document, no HTML. */
  async function oldArticles(stories: Array<{ name: string; body: string }>) {
    const out: Array<{ id: number; path: string; body: string }> = [];
    for (const s of stories) {
      const id = await createArticle(t.ctx.db, { name: s.name, body: s.body });
      await t.ctx.db('articles').where({ id }).update({ doc: null, body_html: null });
      const { path } = await t.ctx.db('articles').where({ id }).first('path');
      out.push({ id, path, body: s.body });
    }
    return out;
  }

  async function pages(paths: string[]) {
    const app = t.rebuild(); // a new app: nothing remembered from the last read
    const out: string[] = [];
    for (const p of paths) out.push((await request(app).get(p).expect(200)).text);
    return out;
  }

  test('20 seeded stories render the same text before and after', async () => {
    const rng = new Rng(37);
    const stories = Array.from({ length: 20 }, (_, i) => seedBody(rng.fork(`story:${i}`)));
    // The corpus is what it says: the characters the template escapes, and untidy spacing.
    const all = stories.map((s) => s.body).join('');
    for (const c of ["'", '&', '"', '<', '>', '\n\n\n', '\t', '\\']) expect(all).toContain(c);
    const articles = await oldArticles(stories);

    const before = await pages(articles.map((a) => a.path));
    await t.ctx.db.raw(PARAGRAPH_BODIES_TO_DOCS_SQL);
    const after = await pages(articles.map((a) => a.path));

    const rows = await t.ctx.db('articles').whereIn('id', articles.map((a) => a.id)).orderBy('id').select('id', 'doc', 'body_html');
    for (const [i, a] of articles.entries()) {
      const label = `story ${i} (${JSON.stringify(a.body.slice(0, 60))}…)`;
      const [old, now] = [bodyOf(before[i]), bodyOf(after[i])];
      // The page before read the body itself; after, the stored HTML.
      expect(old.paragraphs.length).toBeGreaterThanOrEqual(3);
      expect({ label, paragraphs: now.paragraphs }).toEqual({ label, paragraphs: old.paragraphs });
      expect({ label, words: now.words }).toEqual({ label, words: old.words });
      expect({ label, dom: now.dom }).toEqual({ label, dom: old.dom });
      // The template's own paragraphs, as the filter made them.
      const expected = a.body.split(/\n{2,}/).map((p) => p.trim()).filter(Boolean);
      expect(old.paragraphs).toEqual(expected.map((p) => `P: ${p}`));
      // The stored document and HTML are the renderer's for the same body.
      const row = rows.find((r) => r.id === a.id)!;
      const doc = typeof row.doc === 'string' ? JSON.parse(row.doc) : row.doc;
      expect(storyDocError(doc)).toBeNull();
      expect({ label, doc }).toEqual({ label, doc: storyDocFromParagraphs(a.body) });
      expect({ label, html: row.body_html }).toEqual({ label, html: renderStoryDoc(storyDocFromParagraphs(a.body)).html });
    }
  });

  // The raw HTML differs only where it cannot be seen: the template put its own spacing between
  // paragraphs, and nunjucks writes a backslash as &#92; (the renderer leaves it as it is).
  test('the raw HTML differs from the template’s only in spacing between paragraphs and a backslash’s entity', async () => {
    const [a] = await oldArticles([{ name: 'Shrug story', body: 'It\'s "fine" & <fine>.\n\n¯\\_(ツ)_/¯\n\nEnd.' }]);
    const [before] = await pages([a.path]);
    await t.ctx.db.raw(PARAGRAPH_BODIES_TO_DOCS_SQL);
    const [after] = await pages([a.path]);
    const squash = (html: string) => html.replace(/>\s+</g, '><').trim().replaceAll('&#92;', '\\');
    expect(squash(bodyOf(after).raw)).toBe(squash(bodyOf(before).raw));
    expect(bodyOf(after).raw.trim()).toBe('<p>It\'s "fine" &amp; &lt;fine&gt;.</p>\n<p>¯\\_(ツ)_/¯</p>\n<p>End.</p>');
  });

  // JavaScript's trim() (the filter's, and storyDocFromParagraphs's) takes every Unicode space
  // off a paragraph's ends; the SQL's btrim takes spaces, tabs and line ends only, so a no-break
  // space at a paragraph's end stays and a paragraph of one no-break space is kept as a <p>.
  // KNOWN ISSUE, reported: this fails until the SQL trims as trim() does (then make it `test`).
  test('paragraphs ending in other spaces (no-break, form feed, line separator) convert as the template showed them', async () => {
    const body = '\u00a0Starts with a no-break space.\u00a0\n\n\u00a0\n\n\fForm feed.\u2028\n\n\u3000Ideographic space.';
    const [a] = await oldArticles([{ name: 'Odd spaces story', body }]);
    const [before] = await pages([a.path]);
    await t.ctx.db.raw(PARAGRAPH_BODIES_TO_DOCS_SQL);
    const [after] = await pages([a.path]);
    const row = await t.ctx.db('articles').where({ id: a.id }).first('body_html');
    expect(bodyOf(after).paragraphs).toEqual(bodyOf(before).paragraphs);
    expect(row.body_html).toBe(renderStoryDoc(storyDocFromParagraphs(body)).html);
  });
});
