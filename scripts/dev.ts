// npm run dev: live reload of server and islands. Vite rebuilds the islands on change (the
// server re-reads the manifest in development), tsx restarts the server when its code changes,
// templates are re-read on every request (noCache in development), and open pages reload
// themselves through /__dev/reload (server/dev/live-reload.ts).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildIslandsIfStale } from './islands-build';

const root = path.resolve(__dirname, '..');
buildIslandsIfStale();
const children = [
  spawn(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--watch', '--configLoader', 'runner', '--config', 'vite.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  }),
  spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'watch', '--clear-screen=false', 'scripts/dev-server.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' },
  }),
];
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
