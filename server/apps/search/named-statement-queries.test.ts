import knexFactory from 'knex';
import { createStatementCache } from './named-statement-queries';

// A statement built once per shape and bound with each call's values (named-statement-queries.ts).
describe('prepared statements', () => {
  const db = knexFactory({ client: 'pg' });
  const { prepared } = createStatementCache();
  afterAll(() => db.destroy());

  const build = (v: { word: string; ids: number[]; now: Date }) =>
    db.raw('select * from t where a = ? and b = any(?) and c <= ? and d = ? and e = to_tsquery(?)', [v.word, v.ids, v.now, 'constant', db.raw('?', [`${v.word}:*`])]);

  test('binds each call its own values, whole or inside a string, beside the constants', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const { sql, bindings } = prepared(db, 'shape-1', { word: 'pizza', ids: [1, 2], now }, build).toSQL();
    expect(sql).toBe('select * from t where a = ? and b = any(?) and c <= ? and d = ? and e = to_tsquery(?)');
    expect(bindings).toEqual(['pizza', [1, 2], now, 'constant', 'pizza:*']);
    const again = prepared(db, 'shape-1', { word: 'tacos', ids: [3], now }, build).toSQL();
    expect(again.bindings).toEqual(['tacos', [3], now, 'constant', 'tacos:*']);
  });

  test('builds a shape once, and names the statement by its SQL', () => {
    const calls: string[] = [];
    const counting = (v: { word: string; ids: number[]; now: Date }) => (calls.push(v.word), build(v));
    const values = { word: 'x', ids: [], now: new Date() };
    const first = prepared(db, 'shape-2', values, counting).toSQL();
    const second = prepared(db, 'shape-2', { ...values, word: 'y' }, counting).toSQL();
    expect(calls).toHaveLength(1);
    expect(first.options).toEqual(second.options);
    expect((first.options as { name: string }).name).toMatch(/^search-[0-9a-f]{24}$/);
  });

  test('refuses a build that writes a value into the SQL instead of binding it', () => {
    expect(() => prepared(db, 'shape-3', { word: 'x' }, (v) => db.raw(`select '${v.word}'`))).toThrow(/written into its SQL/);
  });
});
