import fs from 'node:fs';
import path from 'node:path';
import { Router } from 'express';
import { STATIC_DIR, TEMPLATES_DIR } from '../paths';

// `npm run dev` only: the page holds an EventSource open on /__dev/reload. When the islands'
// build or a template changes, the server says "reload"; when the server restarts (tsx watch),
// the connection drops and the client reloads once the server is back.
export function liveReloadRouter(): Router {
  const router = Router();
  const clients = new Set<import('express').Response>();
  const notify = () => {
    for (const res of clients) res.write('data: reload\n\n');
  };
  let timer: NodeJS.Timeout | undefined;
  const debounced = () => {
    clearTimeout(timer);
    timer = setTimeout(notify, 150);
  };
  for (const dir of [path.join(STATIC_DIR, 'dist'), TEMPLATES_DIR, path.join(STATIC_DIR, 'css')]) {
    try {
      fs.watch(dir, { recursive: true }, debounced).unref();
    } catch {
      /* the folder may not exist yet */
    }
  }
  router.get('/__dev/reload', (req, res) => {
    res.set({ 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
    res.flushHeaders();
    res.write('retry: 500\n\n');
    clients.add(res);
    req.on('close', () => clients.delete(res));
  });
  return router;
}
