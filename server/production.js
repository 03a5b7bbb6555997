// `NODE_ENV=production node server` lands here (server/package.json names this file): production runs the compiled JavaScript that
// `npm run build` writes to dist/, never a TypeScript loader.
'use strict';
const path = require('node:path');
const fs = require('node:fs');

const compiled = path.join(__dirname, '..', 'dist', 'server', 'index.js');
if (!fs.existsSync(compiled)) {
  console.error('The server is not built yet: run `npm run build` first (or `npm start` for the demo).');
  process.exit(1);
}
require(compiled).main();
