import type { Writable } from 'node:stream';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';

// A ZIP written straight into a response as it is built, with fflate's streaming Zip: each
// entry is compressed as its rows arrive and handed to the socket; when the client reads more
// slowly than the database answers, writing waits for 'drain'. So memory stays bounded by one
// batch of rows and the socket's buffer, however much the member has saved.

/** The client went away before the ZIP was finished. */
export class ClientGoneError extends Error {
  constructor() {
    super('the client closed the connection during the export');
  }
}

/** Text is gathered into pieces this big before deflating: fflate makes a block per push. */
const TEXT_CHUNK = 64 * 1024;

export class ZipStream {
  private readonly zip: Zip;
  private failure: Error | null = null;

  constructor(private readonly out: Writable) {
    this.zip = new Zip((err, chunk, final) => {
      if (err) {
        this.failure = err;
        return;
      }
      // fflate hands over chunks it no longer touches, so the socket may keep them.
      if (chunk.length) out.write(chunk);
      if (final) out.end();
    });
  }

  /** Resolves once the socket has taken what was written; throws when the client is gone. */
  async flushed(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.out.destroyed) throw new ClientGoneError();
    if (!this.out.writableNeedDrain) return;
    await new Promise<void>((resolve, reject) => {
      const settle = () => {
        this.out.off('drain', onDrain);
        this.out.off('close', onClose);
      };
      const onDrain = () => {
        settle();
        resolve();
      };
      const onClose = () => {
        settle();
        reject(new ClientGoneError());
      };
      this.out.on('drain', onDrain);
      this.out.on('close', onClose);
    });
  }

  /**
   * A new entry. Entries are written one after another: end one before opening the next.
   * `stored` skips compression, for files that are compressed already (JPEG, PNG).
   */
  entry(name: string, opts: { stored?: boolean } = {}): ZipEntry {
    const file = opts.stored ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 });
    this.zip.add(file);
    return new ZipEntry(this, file);
  }

  /** A whole small file in one call. */
  async file(name: string, text: string): Promise<void> {
    const entry = this.entry(name);
    await entry.write(text);
    await entry.end();
  }

  /** Writes the central directory; the response ends with it. */
  async end(): Promise<void> {
    this.zip.end();
    if (this.failure) throw this.failure;
  }
}

export class ZipEntry {
  private pending: string[] = [];
  private pendingLength = 0;

  constructor(
    private readonly zip: ZipStream,
    private readonly file: ZipDeflate | ZipPassThrough,
  ) {}

  async write(data: string | Uint8Array): Promise<void> {
    if (typeof data !== 'string') {
      await this.flushText();
      this.file.push(data);
      return this.zip.flushed();
    }
    this.pending.push(data);
    this.pendingLength += data.length;
    if (this.pendingLength >= TEXT_CHUNK) await this.flushText();
  }

  async end(): Promise<void> {
    await this.flushText();
    this.file.push(new Uint8Array(0), true);
    await this.zip.flushed();
  }

  private async flushText(): Promise<void> {
    if (!this.pendingLength) return;
    const text = this.pending.join('');
    this.pending = [];
    this.pendingLength = 0;
    this.file.push(Buffer.from(text, 'utf8'));
    await this.zip.flushed();
  }
}
