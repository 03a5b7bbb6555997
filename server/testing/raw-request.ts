import http from 'node:http';
import https from 'node:https';

export interface RawTextAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface RawRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Connection reuse: none unless an agent is given. */
  agent?: http.Agent;
  /** HTTPS: the certificate authority to trust (a test deployment's own). */
  ca?: string | Buffer;
}

/**
 * One request to a running server (a process or a deployment, over http or https) with these
 * headers only, answered as text: what a client on the wire sees, for tests and scripts.
 */
export function rawRequest(url: string, opts: RawRequestOptions = {}): Promise<RawTextAnswer> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(target, { method: opts.method ?? 'GET', headers: opts.headers, agent: opts.agent ?? false, ca: opts.ca }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}
