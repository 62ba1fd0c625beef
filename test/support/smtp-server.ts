// A real SMTP server on loopback (the smtp-server package) that keeps every message it is sent,
// parsed by mailparser: tests read the mail the service sends as a person's mailbox would.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface TestSmtpServer {
  /** The SMTP_URL that reaches it. */
  url: string;
  messages: ParsedMail[];
  /** Resolves with the messages that `match`, once `count` of them have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, match?: (mail: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const messages: ParsedMail[] = [];
  const waiting = new Set<() => void>();
  const server = new SMTPServer({
    // Plain SMTP on loopback: no TLS to offer (nodemailer would use STARTTLS if it were offered) and no login.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          messages.push(mail);
          for (const wake of waiting) wake();
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(count, match = () => true, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const matching = () => messages.filter(match);
        const check = () => {
          if (matching().length < count) return;
          waiting.delete(check);
          clearTimeout(timer);
          resolve(matching());
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`${matching().length} of ${count} messages arrived within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
