// npm start: the demo city from one command. Builds the islands if needed, migrates, seeds
// the demo data into an empty database, and serves http://localhost:3000.
import { buildIslandsIfStale } from './islands-build';
import { main } from '../server/index';
import { seedDemoIfEmpty } from './seed/demo';

// Plain lines on stderr for the person at the terminal; the JSON log stays on stdout.
const say = (line: string) => process.stderr.write(line + '\n');

buildIslandsIfStale(say);
void main({
  beforeListen: async (ctx) => {
    await seedDemoIfEmpty(ctx, say);
  },
  onListening: (url) => say(`Ready: open ${url}`),
});
