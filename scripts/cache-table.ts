// Prints the cache catalogue (server/cache/catalogue.ts) as the markdown table of
// docs/performance.md: `npx tsx scripts/cache-table.ts > table.md`.
import { catalogueEntries } from '../server/cache/catalogue';
import { catalogueMarkdown } from '../server/cache/catalogue-markdown';

process.stdout.write(catalogueMarkdown(catalogueEntries()));
