import { execFile } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

// Clients that keep sending a request body while the server answers, for tests of what a
// client receives when its request is refused before its body is read. Whether the answer
// arrives or a reset destroys it is a race between two processes' reads and writes: a client
// in the server's own event loop cannot write while the server closes, so it never loses. The
// attempts therefore run in a process of their own (runElsewhere).

const CHUNK = 64 * 1024;

/** A body of exactly `bytes`: `first`, then `fill` bytes, then `last`. */
export interface BodySpec {
  first: string;
  last: string;
  /** The filler byte's code (0x41 'A' inside a base64 string, 0xab inside a file part). */
  fill: number;
  bytes: number;
}

/** A form as a browser's FormData sends it: text fields in order, then one file of `bytes`. */
export interface FormSpec {
  fields: Array<[name: string, value: string]>;
  file: { field: string; filename: string; type: string; bytes: number };
}

export interface Attempts {
  /** fetch is undici (Node's own); raw writes the body in 64 KB chunks to a socket. */
  client: 'fetch' | 'raw';
  url: string;
  headers: Record<string, string>;
  /** The body: bytes, or (fetch only) a FormData, which fetch streams with its own boundary. */
  body: BodySpec | FormSpec;
  count: number;
}

export interface AttemptResult {
  /** The answer's status, or 0 when none arrived. */
  status: number;
  /** What ended the request early on the client's side (EPIPE, ECONNRESET...), if anything. */
  error?: string;
  /** Body bytes the client handed to its socket (raw client only). */
  written?: number;
}

function bodyPieces(spec: BodySpec): { first: Buffer; fillBytes: number; last: Buffer } {
  const first = Buffer.from(spec.first);
  const last = Buffer.from(spec.last);
  return { first, fillBytes: spec.bytes - first.length - last.length, last };
}

function wholeBody(spec: BodySpec): Buffer {
  const { first, fillBytes, last } = bodyPieces(spec);
  return Buffer.concat([first, Buffer.alloc(fillBytes, spec.fill), last]);
}

function formData(spec: FormSpec): FormData {
  const form = new FormData();
  for (const [name, value] of spec.fields) form.append(name, value);
  form.append(spec.file.field, new Blob([Buffer.alloc(spec.file.bytes, 0xab)], { type: spec.file.type }), spec.file.filename);
  return form;
}

async function fetchOnce(a: Attempts, body: Buffer | FormData): Promise<AttemptResult> {
  try {
    const res = await fetch(a.url, { method: 'POST', body, headers: a.headers, redirect: 'manual' });
    await res.arrayBuffer();
    return { status: res.status };
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return { status: 0, error: cause?.code ?? cause?.message ?? String(err) };
  }
}

export interface RawPostOptions {
  /** Send this many body bytes, then go quiet with the connection open (default: all of it). */
  sendBytes?: number;
  /** Called once the first bytes of the answer arrive. */
  onAnswer?: () => void;
}

/**
 * Writes the head, then the whole body in 64 KB chunks whatever the server answers meanwhile
 * (a browser or an HTTP library goes on sending too), then ends its side; resolves once the
 * connection is closed. The socket stays open for writing after the server's FIN.
 */
export function postInChunks(url: string, headers: Record<string, string>, spec: BodySpec, opts: RawPostOptions = {}): Promise<AttemptResult> {
  const target = new URL(url);
  const { first, fillBytes, last } = bodyPieces(spec);
  const limit = opts.sendBytes ?? spec.bytes;
  return new Promise((resolve) => {
    const socket = net.connect({ port: Number(target.port), host: target.hostname, allowHalfOpen: true });
    const received: Buffer[] = [];
    const filler = Buffer.alloc(CHUNK, spec.fill);
    let written = 0;
    let error: string | undefined;
    socket.on('data', (chunk: Buffer) => {
      if (!received.length) opts.onAnswer?.();
      received.push(chunk);
    });
    socket.on('error', (err: NodeJS.ErrnoException) => (error ??= err.code ?? err.message));
    socket.on('close', () => {
      const head = Buffer.concat(received).toString('latin1');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), error, written });
    });
    const lines = [`POST ${target.pathname}${target.search} HTTP/1.1`, `Host: ${target.host}`, `Content-Length: ${spec.bytes}`];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    const next = (): Buffer => {
      if (written === 0) return first;
      const fillLeft = first.length + fillBytes - written;
      return fillLeft > 0 ? filler.subarray(0, Math.min(CHUNK, fillLeft)) : last;
    };
    const pump = () => {
      while (written < limit && !socket.destroyed) {
        const chunk = next().subarray(0, limit - written);
        written += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
      if (written >= spec.bytes && !socket.destroyed) socket.end();
    };
    pump();
  });
}

/** The attempts one after another, in this process. */
export async function runAttempts(a: Attempts): Promise<AttemptResult[]> {
  const spec = a.body;
  const attempt = (): Promise<AttemptResult> => {
    if ('fields' in spec) {
      if (a.client !== 'fetch') throw new Error('a FormSpec body is sent by fetch only');
      return fetchOnce(a, formData(spec));
    }
    return a.client === 'fetch' ? fetchOnce(a, wholeBody(spec)) : postInChunks(a.url, a.headers, spec);
  };
  const results: AttemptResult[] = [];
  for (let i = 0; i < a.count; i += 1) results.push(await attempt());
  return results;
}

/** The attempts one after another, in a Node process of their own (see the top). */
export function runElsewhere(a: Attempts): Promise<AttemptResult[]> {
  const root = path.resolve(__dirname, '..', '..');
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join('server', 'testing', 'uploading-client.ts'), JSON.stringify(a)],
      { cwd: root, env: { ...process.env, NODE_OPTIONS: '' }, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout) as AttemptResult[])),
    );
  });
}

if (require.main === module) {
  void runAttempts(JSON.parse(process.argv[2]) as Attempts).then((results) => process.stdout.write(JSON.stringify(results)));
}
