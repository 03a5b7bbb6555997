// The bench's yardstick (scripts/bench/site.ts): a bare Express app in its own process, one route
// sending a 30 KB HTML page from memory. Our figures are printed as ratios to its req/s,
// measured in the same run with the same autocannon settings, because absolute req/s on a
// shared 2-core machine mean nothing from one run to the next.
//
//   npx tsx scripts/bench/reference-server.ts PORT
import express from 'express';

export const REFERENCE_PAGE_BYTES = 30 * 1024;

const port = Number(process.argv[2] ?? process.env.PORT ?? 3349);
const line = '<p>The quick brown fox jumps over the lazy dog near Queen and Spadina.</p>\n';
const head = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Reference</title></head><body>\n';
const tail = '</body></html>\n';
const fill = REFERENCE_PAGE_BYTES - head.length - tail.length;
const body = line.repeat(Math.floor(fill / line.length));
const page = Buffer.from(head + body + ' '.repeat(fill - body.length) + tail);

const app = express();
app.disable('x-powered-by');
app.get('/', (_req, res) => {
  res.type('html').send(page);
});
app.get('/healthz', (_req, res) => {
  res.send('ok');
});
const server = app.listen(port, '127.0.0.1');
const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
