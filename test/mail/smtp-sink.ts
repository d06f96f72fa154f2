import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';

/**
 * A real SMTP server on loopback (smtp-server) that keeps what it accepts, parsed with
 * postal-mime, and answers what a test plans for a recipient: a 4xx to show retries, a 5xx to
 * show a permanent refusal. STARTTLS with a certificate made for the run, and AUTH, which
 * smtp-server only allows over TLS, as a real submission server.
 */

export interface Reply {
  code: number;
  message: string;
}

export interface ReceivedMail {
  mailFrom: string;
  /** Envelope recipients (RCPT TO): Bcc recipients appear only here. */
  rcptTo: string[];
  raw: Buffer;
  parsed: Email;
  secure: boolean;
  user: string | undefined;
}

export interface SmtpSink {
  port: number;
  /** `smtp://user:pass@127.0.0.1:port` */
  url: string;
  /** PEM of the server's certificate, to trust it (SMTP_CA_FILE). */
  certFile: string;
  received: ReceivedMail[];
  /** DATA transactions per recipient address, accepted or not. */
  transactions: Map<string, number>;
  /**
   * The reply to the n-th (1-based) DATA transaction that includes `address`; undefined accepts;
   * 'hold' never answers (a server that hangs after the message: the sender waits until it gives up or dies).
   */
  plan(address: string, reply: (n: number) => Reply | 'hold' | undefined): void;
  /** Resolves once a message for `address` was accepted. */
  waitFor(address: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

const run = promisify(execFile);
export const SMTP_USER = 'einvoice';
export const SMTP_PASSWORD = 's3cret pass/word';

export interface SinkOptions {
  /** false: a server that offers no STARTTLS (and then takes mail without AUTH). */
  startTls?: boolean;
}

export async function startSmtpSink(options: SinkOptions = {}): Promise<SmtpSink> {
  const startTls = options.startTls ?? true;
  const dir = await mkdtemp(path.join(tmpdir(), 'einv-smtp-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    keyFile,
    '-out',
    certFile,
    '-days',
    '2',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ]);

  const received: ReceivedMail[] = [];
  const transactions = new Map<string, number>();
  const plans = new Map<string, (n: number) => Reply | 'hold' | undefined>();
  const waiters: Array<{ address: string; resolve: (m: ReceivedMail) => void }> = [];

  const onData = (stream: SMTPServerDataStream, session: SMTPServerSession, callback: (err?: Error | null) => void) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const rcptTo = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
      let reply: Reply | 'hold' | undefined;
      for (const address of rcptTo) {
        const n = (transactions.get(address) ?? 0) + 1;
        transactions.set(address, n);
        reply ??= plans.get(address)?.(n);
      }
      if (reply === 'hold') return;
      if (reply) return callback(Object.assign(new Error(reply.message), { responseCode: reply.code }));
      const raw = Buffer.concat(chunks);
      PostalMime.parse(raw).then((parsed) => {
        const mail: ReceivedMail = {
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcptTo,
          raw,
          parsed,
          secure: session.secure,
          user: session.user as string | undefined,
        };
        received.push(mail);
        for (const w of waiters.filter((w) => rcptTo.includes(w.address))) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(mail);
        }
        callback();
      }, callback);
    });
  };

  const server = new SMTPServer({
    key: await readFile(keyFile),
    cert: await readFile(certFile),
    authMethods: ['PLAIN', 'LOGIN'],
    // Hiding STARTTLS is not enough: smtp-server would still accept the command.
    disabledCommands: startTls ? [] : ['STARTTLS'],
    authOptional: !startTls,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) return callback(null, { user: auth.username });
      callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData,
    logger: false,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;

  return {
    port,
    url: `smtp://${SMTP_USER}:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${port}`,
    certFile,
    received,
    transactions,
    plan: (address, reply) => plans.set(address.toLowerCase(), reply),
    waitFor(address, timeoutMs = 30_000) {
      const lower = address.toLowerCase();
      const done = received.find((m) => m.rcptTo.includes(lower));
      if (done) return Promise.resolve(done);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no message for ${address} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ address: lower, resolve: (m) => (clearTimeout(timer), resolve(m)) });
      });
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Every accepted message with this recipient in its envelope. */
export function receivedFor(sink: SmtpSink, address: string): ReceivedMail[] {
  return sink.received.filter((m) => m.rcptTo.includes(address.toLowerCase()));
}

export function addresses(list: Email['to']): string[] {
  return (list ?? []).flatMap((a) => (a.address ? [a.address] : a.group.map((g) => g.address)));
}
