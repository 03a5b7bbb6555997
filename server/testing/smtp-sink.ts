import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { createMailer, type Mailer } from '../mail/mailer';
import type { TestContext } from './test-app';

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
