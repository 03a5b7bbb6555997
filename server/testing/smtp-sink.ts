import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { createMailer, type Mailer } from '../mail/mailer';
import type { Env } from '../config';
import { createTestContext, type TestContext } from './test-app';

// An in-process SMTP server for tests that follow an email through a real SMTP conversation:
// nodemailer sends, this receives, the test reads what arrived (and follows its links).

export interface ReceivedMail {
  /** The envelope's recipients. */
  to: string[];
  /** The message as sent: headers, a blank line, the (usually quoted-printable) body. */
  raw: string;
}

export interface SmtpSink {
  /** smtp://127.0.0.1:PORT, for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** Resolves once `count` messages in all have arrived; fails after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
        for (const wake of waiters.splice(0)) wake();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} messages over SMTP, got ${received.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A real mailer for the test context's configuration (its SMTP_URL, or another one). */
export function smtpMailer(t: TestContext, smtpUrl = t.config.mail.smtpUrl): Mailer {
  return createMailer({ smtpUrl, from: t.config.mail.from, outboxDir: path.join(t.tmpDir, 'outbox'), logger: t.ctx.logger });
}

/**
 * For the tests of a file or describe block: before them, an SMTP sink and a test context
 * whose SMTP_URL is the sink's (with `env` besides); after them, both closed. Read `t` and
 * `smtp` inside the tests (they are set once beforeAll has run).
 */
export function smtpSuite(env: Partial<Env> = {}): { readonly t: TestContext; readonly smtp: SmtpSink } {
  const suite = {} as { t: TestContext; smtp: SmtpSink };
  beforeAll(async () => {
    suite.smtp = await startSmtpSink();
    suite.t = await createTestContext({ ...env, SMTP_URL: suite.smtp.url });
  });
  afterAll(async () => {
    await suite.smtp?.close();
    await suite.t?.close();
  });
  return suite;
}

/** Quoted-printable bytes (=XX) as UTF-8 text. */
const quotedPrintable = (text: string) => Buffer.from(text.replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');

/** A received message's subject (unfolded, RFC 2047 words decoded) and its body, quoted-printable decoded. */
export function readMessage(raw: string): { subject: string; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split).replace(/\r\n[ \t]/g, ' ').replace(/\?=\s+=\?/g, '?==?');
  const subject = /^Subject: (.*)$/im.exec(headers)?.[1] ?? '';
  const decoded = subject.replace(/=\?UTF-8\?Q\?([^?]*)\?=/gi, (_m, word: string) => quotedPrintable(word.replace(/_/g, ' ')));
  return { subject: decoded, body: quotedPrintable(raw.slice(split + 4).replace(/=\r?\n/g, '')) };
}
