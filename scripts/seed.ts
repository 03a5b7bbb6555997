// npm run seed: seeds the demo city into the configured database (DATABASE_URL, or PGlite in
// DATA_DIR), migrating first.
//   npm run seed                     the demo city; refuses when the database already has one
//   npm run seed -- --force          empties the content tables first
//   npm run seed -- --seed 7         another deterministic variant
//   npm run seed -- --scale city     the demo plus bulk rows for performance work
//   npm run seed -- --scale city --factor 2   the same with twice the bulk sizes (issue 41, target 6)
import { loadConfig } from '../server/config';
import { createLogger } from '../server/logger';
import { DEFAULT_SEED, seedDemo } from './seed/demo';
import { isSeeded, truncateContent } from './seed/reset';
import { DEMO_PASSWORD, STAFF_EMAIL, STAFF_PASSWORD } from './seed/members';
import { cityTargets, seedCityScale } from './seed/city-scale';
import { commandMailer, runCommand, withDatabase } from './command';
import { buildAppContext } from '../server/app-context';

export interface Args {
  force: boolean;
  scale: 'demo' | 'city';
  seed: number;
  /** Multiplies the city's sizes (--scale city only). */
  factor: number;
}

export function parseArgs(argv: string[]): Args {
  const args: Args = { force: false, scale: 'demo', seed: DEFAULT_SEED, factor: 1 };
  let factorGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--force') args.force = true;
    else if (a.startsWith('--scale')) {
      const v = value();
      if (v !== 'demo' && v !== 'city') throw new Error(`--scale must be demo or city, got "${v}"`);
      args.scale = v;
    } else if (a.startsWith('--seed')) {
      args.seed = Number.parseInt(value(), 10);
      if (!Number.isFinite(args.seed)) throw new Error('--seed must be an integer');
    } else if (a.startsWith('--factor')) {
      const v = value();
      // Number(), not parseFloat: "2x" must be refused, not read as 2.
      args.factor = v.trim() === '' ? Number.NaN : Number(v);
      if (!(Number.isFinite(args.factor) && args.factor > 0)) throw new Error(`--factor must be a number above 0, got "${v}"`);
      factorGiven = true;
    } else throw new Error(`Unknown argument ${a} (expected --force, --scale demo|city, --factor N, --seed N)`);
  }
  if (factorGiven && args.scale !== 'city') throw new Error('--factor needs --scale city');
  return args;
}

runCommand(
  module,
  async () => {
    const args = parseArgs(process.argv.slice(2));
    const config = loadConfig();
    const logger = createLogger({ logLevel: process.env.LOG_LEVEL ?? 'info' });
    const t0 = Date.now();
    await withDatabase(
      async ({ db, kind, migrated }) => {
        logger.info({ migrations: migrated.ran.length, database: kind }, 'seed: database migrated');
        if (await isSeeded(db)) {
          if (!args.force) {
            console.error('The database already has content. Run `npm run seed -- --force` to empty the content tables and seed again.');
            process.exitCode = 2;
            return;
          }
          await truncateContent(db);
          logger.info('seed: content tables emptied (--force)');
        }
        // Seeding never mails anybody: anything sent goes to the outbox.
        const ctx = buildAppContext(config, { db, kind }, { logger, mailer: commandMailer(config, logger, undefined) });
        const summary = await seedDemo(ctx, { seed: args.seed });
        const { timings, ...counts } = summary;
        console.log(`\nDemo city (${kind}) seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s:`, counts);
        console.log('Phases:', timings.map((t) => `${t.phase} ${(t.ms / 1000).toFixed(1)} s`).join('; '));
        console.log(`Sign in as a demo member: ${counts.exampleMember} (or any seeded member) / ${DEMO_PASSWORD}`);
        console.log(`Sign in as staff: ${STAFF_EMAIL} / ${STAFF_PASSWORD}`);
        if (args.scale === 'city') await seedCityScale(ctx, { seed: args.seed, targets: cityTargets(args.factor) });
        console.log(`\nTotal ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
      },
      { config },
    );
  },
  { showStack: true },
);
