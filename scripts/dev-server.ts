// The server as `npm run dev` runs it under `tsx watch`: like npm start, without the build step.
import { main } from '../server/index';
import { seedDemoIfEmpty } from './seed/demo';

void main({ beforeListen: (ctx) => seedDemoIfEmpty(ctx, (line) => process.stderr.write(line + '\n')), app: { liveReload: true, watchManifest: true } });
