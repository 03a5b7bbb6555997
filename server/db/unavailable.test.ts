import knexFactory from 'knex';
import { isDatabaseUnavailable } from './unavailable';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code, severity: 'FATAL' });

describe('isDatabaseUnavailable', () => {
  test.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a reset socket', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['a terminated backend (57P01)', pgError('57P01', 'terminating connection due to administrator command')],
    ['a crash shutdown (57P02)', pgError('57P02')],
    ['a server starting up (57P03)', pgError('57P03', 'the database system is starting up')],
    ['a connection exception (08006)', pgError('08006')],
    ['a connection failure (08001)', pgError('08001')],
    ['pg: Connection terminated unexpectedly', new Error('Connection terminated unexpectedly')],
    ['knex: the SQL then the message', new Error('select 1 - Connection terminated unexpectedly')],
    ['pg: a client after an error', new Error('Client has encountered a connection error and is not queryable')],
    ['a connect timeout', new Error('timeout exceeded when trying to connect')],
    ['an error caused by one', new Error('session store failed', { cause: pgError('57P01') })],
    ['every address refused', Object.assign(new AggregateError([Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })]), {})],
  ])('%s: yes', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  test('a pool acquire timeout: yes', async () => {
    const db = knexFactory({ client: 'pg', connection: 'postgres://x@127.0.0.1:1/x', acquireConnectionTimeout: 1, pool: { min: 0, max: 1 }, log: { warn() {}, error() {} } });
    try {
      const err = await db.raw('select 1').then(() => null, (e: unknown) => e);
      expect(err).toBeTruthy();
      expect(isDatabaseUnavailable(err)).toBe(true);
    } finally {
      await db.destroy();
    }
  });

  test.each([
    ['a unique violation', pgError('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error', pgError('42601')],
    ['an out-of-range integer', pgError('22003')],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['nothing', undefined],
    ['a string', 'ECONNREFUSED'],
  ])('%s: no', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});
