import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';

// A request refused before its body is read (a guest's or an expired session's form post, a
// bad CSRF token, a 413) is answered while the client is still sending. Node then closes the
// connection (`Connection: close`) with the rest of the body unread, and the kernel answers
// what is unread or still arriving with a reset: a client still writing gets EPIPE or
// ECONNRESET, often before it has read the answer, so the member sees a network error instead
// of the login page. As nginx's lingering close does (RFC 9112 §9.6), the server instead sends
// its answer and its FIN, then reads and discards the rest of the body before it closes. On a
// keep-alive answer Node already discards the rest and goes on; the same bounds apply there.
//
// Bounds, so a client cannot make the server read for it without end: after the answer, at
// most LINGER_MAX_BYTES more body bytes and LINGER_MAX_MS, whichever comes first; then the
// connection is cut as before (what is still coming is answered with a reset).

/**
 * 12 MB: the largest body the site takes (nginx's client_max_body_size in
 * deploy/nginx.conf.template; a 10 MB event image, an 8.4 MB photo JSON), so every refused
 * post the site could have accepted gets its answer.
 */
export const LINGER_MAX_BYTES = 12 * 1024 * 1024;
/**
 * 5 s (nginx's lingering_timeout, here the whole window): about 20 Mbit/s for a 12 MB body,
 * and shorter than the grace a SIGTERM gives requests in flight (SHUTDOWN_GRACE_SECONDS, 9 s by
 * default), so a lingering connection never outlasts a graceful close; a grace set under 5 s
 * cuts such connections off, as it does slow requests.
 */
export const LINGER_MAX_MS = 5_000;

export interface LingerBounds {
  maxBytes: number;
  maxMs: number;
}

/** First in the app, before anything can answer a request. */
export function lingeringClose(bounds: LingerBounds = { maxBytes: LINGER_MAX_BYTES, maxMs: LINGER_MAX_MS }): RequestHandler {
  return (req, res, next) => {
    if (mayHaveBody(req)) {
      // Prepended: it must run before Node's own 'finish' listener, which discards or closes.
      res.prependOnceListener('finish', () => {
        if (!req.complete) linger(req, bounds);
      });
    }
    next();
  };
}

/** Whether a body follows the request's head (a length other than 0, or chunks). */
export function mayHaveBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The answer is sent and the body is not all in: read the rest and throw it away, within bounds. */
function linger(req: IncomingMessage, bounds: LingerBounds): void {
  const socket = req.socket;
  if (socket.destroyed) return;
  let discarded = 0;
  let closeWanted = false;
  let done = false;

  const finish = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    req.off('data', discard);
    req.off('end', bodyIn);
    socket.off('close', finish);
    // The socket goes on serving keep-alive requests: the next refusal lingers afresh.
    Reflect.deleteProperty(socket, 'destroySoon');
  };
  const cutOff = () => {
    finish();
    socket.destroy();
  };
  const discard = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > bounds.maxBytes) cutOff();
  };
  const bodyIn = () => {
    finish();
    // Nothing is left unread: the close Node asked for no longer resets anything.
    if (closeWanted) socket.destroySoon();
  };
  const timer = setTimeout(cutOff, bounds.maxMs).unref();

  // Node ends a `Connection: close` answer with socket.destroySoon(): FIN once the answer is
  // written, then the descriptor closed at once, unread bytes and all (the reset). Until the
  // body is in, that becomes the FIN alone; bodyIn or a bound closes the socket.
  socket.destroySoon = () => {
    closeWanted = true;
    if (socket.writable) socket.end();
  };
  socket.once('close', finish);
  // Read on and throw away: flowing with a listener that keeps nothing. Node would otherwise
  // discard the body itself (unbounded) or, where a parser gave up and paused the request,
  // stop reading altogether.
  req.on('data', discard);
  req.once('end', bodyIn);
  req.resume();
}
