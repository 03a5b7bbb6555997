import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { seedDemo } from '../../../scripts/seed/demo';

// What readers find (issue 24, goal 3): site search over the demo city, as `npm start` seeds it,
// on whichever database the suite runs against (PGlite, and PostgreSQL in CI). Each query names
// what a person typing it expects among the first five results; a change to ranking, pools,
// estimated counts or the index that pushes it out fails here. Matching is on title and
// category, not position or id, so a fairer tie-break does not break it.

type Category = 'articles' | 'listings' | 'events' | 'videos' | 'contests';
interface Expectation {
  q: string;
  /** What the query is (a name, a street…). */
  kind: string;
  /** One result among the first five must be of this category with a title matching this. */
  expect: Array<[Category | 'any', RegExp]>;
}

const QUERIES: Expectation[] = [
  { kind: 'name', q: 'Pizzeria Libretto', expect: [['listings', /^Pizzeria Libretto/]] },
  { kind: 'name', q: 'Kinton Ramen', expect: [['listings', /^Kinton Ramen$/]] },
  { kind: 'name with an apostrophe', q: "Mother's Dumplings", expect: [['listings', /^Mother's Dumplings$/]] },
  { kind: 'name', q: 'Hogtown Vegan', expect: [['listings', /^Hogtown Vegan$/]] },
  { kind: 'street', q: 'Ossington', expect: [['any', /Ossington/]] },
  { kind: 'street', q: 'Yonge', expect: [['any', /Yonge/]] },
  { kind: 'street', q: 'Danforth', expect: [['any', /Danforth/]] },
  { kind: 'street', q: 'Bloor', expect: [['any', /Bloor/]] },
  { kind: 'street', q: 'Spadina', expect: [['any', /Spadina/]] },
  { kind: 'neighbourhood', q: 'Leslieville', expect: [['any', /Leslieville/]] },
  { kind: 'neighbourhood', q: 'Roncesvalles', expect: [['any', /Roncesvalles/]] },
  { kind: 'neighbourhood', q: 'Etobicoke', expect: [['any', /Etobicoke/]] },
  { kind: 'neighbourhood', q: 'Little Italy', expect: [['any', /Little Italy/]] },
  { kind: 'neighbourhood', q: 'Chinatown', expect: [['any', /Chinatown/]] },
  { kind: 'neighbourhood', q: 'Distillery District', expect: [['events', /Distillery District/]] },
  { kind: 'dish', q: 'ramen', expect: [['articles', /^The best ramen in Toronto$/], ['listings', /Ramen/]] },
  { kind: 'dish', q: 'pho', expect: [['articles', /^The best pho in Toronto$/], ['listings', /Pho/]] },
  { kind: 'dish', q: 'tacos', expect: [['articles', /^The best tacos in Toronto$/], ['listings', /Taco/]] },
  { kind: 'dish', q: 'dumplings', expect: [['listings', /Dumpling/]] },
  { kind: 'dish', q: 'dim sum', expect: [['listings', /Dim Sum/]] },
  { kind: 'dish', q: 'bagels', expect: [['articles', /bagels/i], ['listings', /Bagel/]] },
  { kind: 'dish', q: 'bubble tea', expect: [['articles', /^The best bubble tea in Toronto$/], ['listings', /Bubble Tea/]] },
  { kind: 'dish', q: 'croissant', expect: [['listings', /Croissant/]] },
  { kind: 'dish', q: 'brunch', expect: [['articles', /^The best brunch in Toronto$/], ['listings', /Brunch/]] },
  { kind: 'event', q: 'Nuit Blanche', expect: [['events', /Nuit Blanche/]] },
  { kind: 'event', q: 'Winter Solstice', expect: [['events', /^Kensington Market Winter Solstice$/]] },
  { kind: 'event', q: 'farmers market', expect: [['events', /Farmers'? Market/i]] },
  { kind: 'event', q: 'jazz', expect: [['events', /Jazz/]] },
  { kind: 'event', q: 'craft beer', expect: [['events', /Craft Beer/], ['listings', /Craft Beer/]] },
  { kind: 'event at a park', q: 'High Park', expect: [['events', /High Park/]] },
  { kind: 'market', q: 'St. Lawrence Market', expect: [['events', /St\. Lawrence Market/]] },
  { kind: 'typo', q: 'resturant', expect: [['listings', /Restaurant/]] },
  { kind: 'typo', q: 'Libreto', expect: [['listings', /^Pizzeria Libretto/]] },
  { kind: 'typo', q: 'sushii', expect: [['listings', /Sushi/]] },
  { kind: 'phrase', q: '"best sushi"', expect: [['articles', /^The best sushi in Toronto$/]] },
  { kind: 'phrase', q: 'best brunch in Toronto', expect: [['articles', /^The best brunch in Toronto$/]] },
  { kind: 'phrase', q: 'best pizza', expect: [['articles', /^The best pizza in Toronto$/]] },
];

describe('search relevance over the demo city', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
    await seedDemo(t.ctx);
  }, 300_000); // the whole demo city: 15 s on a quiet machine, several times that on a busy one
  afterAll(() => t?.close());

  test('there are at least 30 queries of every kind a reader types', () => {
    expect(QUERIES.length).toBeGreaterThanOrEqual(30);
    expect(new Set(QUERIES.map((e) => e.kind.split(' ')[0]))).toEqual(new Set(['name', 'street', 'neighbourhood', 'dish', 'event', 'market', 'typo', 'phrase']));
  });

  test.each(QUERIES.map((e) => [e.kind, e.q, e] as const))('%s: %s', async (_kind, q, e) => {
    const res = await request(t.app).get('/api/search/').query({ serialize_for: 'web', q, limit: 5 });
    expect(res.status).toBe(200);
    const top: Array<{ category: Category; title: string }> = res.body.results.slice(0, 5);
    const seen = top.map((r) => `[${r.category}] ${r.title}`);
    for (const [category, title] of e.expect) {
      const found = top.some((r) => (category === 'any' || r.category === category) && title.test(r.title));
      // The query and the top five in the message, so a failure says what readers would see.
      expect({ q, wanted: `[${category}] ${title}`, found, seen }).toEqual({ q, wanted: `[${category}] ${title}`, found: true, seen });
    }
  });
});
