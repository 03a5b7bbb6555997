// npm run events:import-images: copies the pictures of imported events (City of Toronto
// Festivals & Events) from their source into our own media store, so pages never hot-link
// another server. Run it once after seeding on a machine with internet access; until then
// those events show a placeholder. Safe to repeat: only events without a copy are fetched.
// Runs on DATABASE_URL, or on the embedded database in DATA_DIR (stop the server first).
import { createStorage } from '../server/storage/storage-factory';
import { importEventImages } from '../server/apps/events/image-import';
import { runCommand, withDatabase } from './command';

runCommand(module, () =>
  withDatabase(async ({ db, config }) => {
    const t0 = Date.now();
    const result = await importEventImages(db, createStorage(config));
    console.log(`Copied ${result.copied} event pictures in ${((Date.now() - t0) / 1000).toFixed(0)} s; ${result.failed.length} kept their placeholder.`);
    for (const f of result.failed.slice(0, 20)) console.log(`  #${f.id} ${f.url}: ${f.reason}`);
  }),
);
