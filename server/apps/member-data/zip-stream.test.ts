import { Writable } from 'node:stream';
import { strFromU8, unzipSync } from 'fflate';
import { ClientGoneError, ZipStream } from './zip-stream';

// The ZIP is written into the response as it is built and waits for a slow client, so what
// sits in memory is bounded by the socket's buffer, not by the size of the export.

/** A client that takes one chunk per turn of the event loop, keeping what it got. */
function slowClient(highWaterMark: number) {
  const received: Buffer[] = [];
  let maxBuffered = 0;
  const out = new Writable({
    highWaterMark,
    write(chunk: Buffer, _enc, done) {
      received.push(chunk);
      setImmediate(done);
    },
  });
  const origWrite = out.write.bind(out);
  out.write = ((chunk: Buffer, ...rest: never[]) => {
    const ok = origWrite(chunk, ...rest);
    maxBuffered = Math.max(maxBuffered, out.writableLength);
    return ok;
  }) as typeof out.write;
  const finished = new Promise<void>((resolve) => out.on('finish', () => resolve()));
  return { out, received, finished, maxBuffered: () => maxBuffered };
}

describe('ZipStream', () => {
  test('waits for a slow client: 8 MB of rows and a 1 MB stored file arrive whole, never buffered beyond one piece', async () => {
    const client = slowClient(16 * 1024);
    const zip = new ZipStream(client.out);
    const rows = zip.entry('rows.csv');
    const line = (i: number) => `${i},${'x'.repeat(i % 97)},${(i * 2654435761) % 4294967296}\r\n`;
    let written = 0;
    for (let i = 0; written < 8 * 1024 * 1024; i++) {
      const text = line(i);
      written += text.length;
      await rows.write(text);
    }
    await rows.end();
    const image = zip.entry('photo.jpg', { stored: true });
    await image.write(Buffer.alloc(1024 * 1024, 7));
    await image.end();
    await zip.end();
    await client.finished;

    // One deflated text chunk (64 KB of text) or one stored piece, on top of the socket's own buffer.
    expect(client.maxBuffered()).toBeLessThan(16 * 1024 + 1024 * 1024 + 1);
    const files = unzipSync(new Uint8Array(Buffer.concat(client.received)));
    const text = strFromU8(files['rows.csv']);
    expect(text.length).toBe(written);
    expect(text.startsWith(line(0) + line(1))).toBe(true);
    expect(files['photo.jpg']).toHaveLength(1024 * 1024);
  });

  test('text is held at most 64 KB before it is compressed and sent', async () => {
    const client = slowClient(1024);
    const zip = new ZipStream(client.out);
    const rows = zip.entry('rows.json');
    let maxSeenBuffered = 0;
    for (let i = 0; i < 20_000; i++) {
      await rows.write(`{"i":${i},"pad":"${'y'.repeat(50)}"}\n`);
      maxSeenBuffered = Math.max(maxSeenBuffered, client.out.writableLength);
    }
    await rows.end();
    await zip.end();
    await client.finished;
    expect(client.maxBuffered()).toBeLessThan(70 * 1024);
    expect(maxSeenBuffered).toBeLessThan(70 * 1024);
  });

  test('stops with ClientGoneError when the client goes away mid-download', async () => {
    const out = new Writable({
      highWaterMark: 1024,
      write(_chunk, _enc, done) {
        setImmediate(done);
      },
    });
    const zip = new ZipStream(out);
    const entry = zip.entry('big.bin', { stored: true });
    let thrown: unknown = null;
    try {
      for (let i = 0; i < 1000; i++) {
        if (i === 10) out.destroy();
        await entry.write(Buffer.alloc(4096, i));
      }
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ClientGoneError);
  });
});
