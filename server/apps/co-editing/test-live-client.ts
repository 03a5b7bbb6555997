import http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { HocuspocusProvider } from '@hocuspocus/provider';
import { LIVE_BODY_FIELD, LIVE_EDITING, liveDocumentName } from '../../../shared/newsroom';
import type { TestContext } from '../../testing/test-app';

// Tests' editors: a Hocuspocus provider in node, over a real websocket to the test app, with the
// member's session cookie and the site's Origin, as the story editor in a browser connects.

export async function listenWithUpgrades(t: TestContext): Promise<{ server: http.Server; wsUrl: string; close(): Promise<void> }> {
  const server = http.createServer(t.app);
  server.on('upgrade', (req, socket, head) => t.ctx.sharedStories.handleUpgrade(req, socket, head));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const wsUrl = `ws://127.0.0.1:${(server.address() as AddressInfo).port}${LIVE_EDITING.path}`;
  return {
    server,
    wsUrl,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface LiveClient {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  /** Why the server refused the document (onAuthenticationFailed), once it did. */
  refused: string | null;
  /** The close codes the socket saw. */
  closeCodes: number[];
  synced: boolean;
  destroy(): void;
}

/**
 * A websocket class carrying the headers a browser would send. Once the client is destroyed it
 * makes sockets that never open: the provider's reconnection loop (@lifeomic/attempt) outlives
 * its destroy, and would otherwise keep a test's process alive with its timers.
 */
function socketWith(headers: Record<string, string>, destroyed: () => boolean) {
  return class extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      if (destroyed()) {
        // Returned instead of a socket: never opens, never closes, holds no timer.
        return { readyState: 0, binaryType: 'arraybuffer', send() {}, close() {}, addEventListener() {}, removeEventListener() {} } as unknown as WebSocket;
      }
      super(url, protocols, { headers });
      // As in a browser, an error is an event, never thrown: the provider closes a socket still
      // connecting when it retries (its handlers already removed), and ws would throw the error
      // of that close with no listener left.
      this.on('error', () => undefined);
    }
  };
}

/** How soon the provider reconnects after its socket closes (HocuspocusProviderWebsocket's retry options; defaults 1-30 s). */
export interface ReconnectTiming {
  delay: number;
  minDelay: number;
  maxDelay: number;
}

export function connectLive(wsUrl: string, storyId: number, opts: { cookie?: string; origin: string; reconnect?: ReconnectTiming }): LiveClient {
  const doc = new Y.Doc();
  let destroyed = false;
  const client: LiveClient = {
    doc,
    refused: null,
    closeCodes: [],
    synced: false,
    provider: null as unknown as HocuspocusProvider,
    destroy: () => {
      destroyed = true;
      client.provider.destroy();
    },
  };
  // The provider hands its options to the websocket it makes (WebSocketPolyfill among them); its type names only its own.
  client.provider = new HocuspocusProvider({
    url: wsUrl,
    name: liveDocumentName(storyId),
    document: doc,
    token: '',
    WebSocketPolyfill: socketWith({ Origin: opts.origin, ...(opts.cookie ? { Cookie: opts.cookie } : {}) }, () => destroyed),
    onAuthenticationFailed: ({ reason }) => void (client.refused = reason),
    onSynced: () => void (client.synced = true),
    onClose: ({ event }) => void client.closeCodes.push(event.code),
    // Handed on to the websocket provider the provider makes.
    ...opts.reconnect,
  } as ConstructorParameters<typeof HocuspocusProvider>[0]);
  return client;
}

/** The body's text, paragraph by paragraph. */
export function bodyText(doc: Y.Doc): string[] {
  return doc
    .getXmlFragment(LIVE_BODY_FIELD)
    .toArray()
    .map((el) => (el instanceof Y.XmlElement ? el.toArray().map((c) => (c instanceof Y.XmlText ? c.toString().replace(/<[^>]+>/g, '') : '')).join('') : ''));
}

/** A paragraph of text appended to the body, as the editor's binding would write it. */
export function appendParagraph(doc: Y.Doc, text: string): void {
  const p = new Y.XmlElement('paragraph');
  p.insert(0, [new Y.XmlText(text)]);
  const body = doc.getXmlFragment(LIVE_BODY_FIELD);
  body.insert(body.length, [p]);
}
