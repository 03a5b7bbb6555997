import type { Page } from 'playwright-core';
import { LIVE_EDITING } from '../../shared/newsroom';

/**
 * Opens live editing's websocket from the page, as a hand-made client would, and asks for a
 * document: the Hocuspocus messages are written by hand (auth with an empty token, then sync step
 * 1 with an empty state vector). Answers whether the server denied it and the message types that
 * came (0 sync, 1 awareness, 2 auth): a refusal must come before any document data.
 */
export function probeLiveDocument(page: Page, documentName: string): Promise<{ types: number[]; denied: boolean }> {
  return page.evaluate(
    async ({ name, path }) => {
      const bytes = (s: string) => Array.from(new TextEncoder().encode(s));
      const head = [name.length, ...bytes(name)];
      const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${path}`);
      ws.binaryType = 'arraybuffer';
      const types: number[] = [];
      return new Promise<{ types: number[]; denied: boolean }>((resolve) => {
        const done = (denied: boolean) => {
          ws.close();
          resolve({ types, denied });
        };
        ws.onopen = () => {
          ws.send(new Uint8Array([...head, 2, 0, 0])); // Auth: a token, empty (the cookie authenticates)
          ws.send(new Uint8Array([...head, 0, 0, 1, 0])); // Sync step 1: this client has nothing
        };
        ws.onmessage = (e) => {
          const m = new Uint8Array(e.data as ArrayBuffer);
          const type = m[1 + m[0]];
          types.push(type);
          if (type === 2 && m[2 + m[0]] === 1) setTimeout(() => done(true), 500); // Auth: permission denied; anything after it?
        };
        ws.onclose = () => done(false);
        setTimeout(() => done(false), 10_000);
      });
    },
    { name: documentName, path: LIVE_EDITING.path },
  );
}
