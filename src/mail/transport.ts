import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type SendMailOptions, type StreamSentMessageInfo, type Transporter } from 'nodemailer';
import type { TestFault, TransportKind } from './types.js';

/**
 * Where messages go: the SMTP server of SMTP_URL, or, with none configured, the outbox folder
 * as one .eml file per send, so the service works out of the box and what it would have sent
 * can be opened in any mail client. Both are nodemailer underneath, so the bytes in the
 * outbox are the bytes an SMTP server would get (with the Bcc header kept, so the file shows
 * every recipient).
 */

/** The SMTP server from SMTP_URL: `smtps://` is TLS from the start, `smtp://` upgrades with STARTTLS. */
export interface SmtpConfig {
  host: string;
  port: number;
  /** Implicit TLS (smtps://). */
  secure: boolean;
  /** smtp:// only: refuse to send when the server offers no STARTTLS (SMTP_REQUIRE_TLS, default true). */
  requireTls: boolean;
  auth: { user: string; pass: string } | undefined;
  /** PEM file of an extra CA to trust (a private CA or the server's self-signed certificate). */
  caFile: string | undefined;
}

export interface MailConfig {
  /** Undefined: messages are written to the outbox folder instead of being sent. */
  smtp: SmtpConfig | undefined;
  outboxDir: string;
  dkim: { domainName: string; keySelector: string; privateKeyFile: string } | undefined;
  /** Test only: faults to inject (EINVOICE_TEST_FAULTS); empty in any real deployment. */
  testFaults: TestFault[];
}

export interface SendReceipt {
  /** The server's final reply (e.g. `250 2.0.0 Ok: queued as …`), or the outbox file name. */
  response: string;
  accepted: string[];
  /** Recipients the server refused while accepting the message for the others. */
  rejected: string[];
}

export interface MailTransport {
  readonly kind: TransportKind;
  /** `sendId` names the outbox file; the SMTP transport does not need it. Throws nodemailer's errors. */
  send(sendId: string, message: SendMailOptions, date: Date): Promise<SendReceipt>;
}

// Short enough that a dead server fails an attempt well before the activity's own timeout.
const TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

export async function createMailTransport(config: MailConfig): Promise<MailTransport> {
  const dkim = config.dkim && {
    domainName: config.dkim.domainName,
    keySelector: config.dkim.keySelector,
    privateKey: await readFile(config.dkim.privateKeyFile, 'utf8'),
  };
  // Content is always given as bytes; never let a message make nodemailer read a file or fetch a URL.
  const safety = { disableFileAccess: true, disableUrlAccess: true, ...(dkim ? { dkim } : {}) };
  if (!config.smtp)
    return outboxTransport(
      config.outboxDir,
      nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows', ...safety }),
    );

  const { smtp } = config;
  const transporter = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    requireTLS: smtp.requireTls,
    ...(smtp.auth ? { auth: smtp.auth } : {}),
    tls: { minVersion: 'TLSv1.2', ...(smtp.caFile ? { ca: await readFile(smtp.caFile, 'utf8') } : {}) },
    ...TIMEOUTS,
    ...safety,
  });
  return {
    kind: 'smtp',
    async send(_sendId, message) {
      const info = await transporter.sendMail(message);
      return { response: info.response, accepted: addresses(info.accepted), rejected: addresses(info.rejected) };
    },
  };
}

function outboxTransport(dir: string, transporter: Transporter<StreamSentMessageInfo>): MailTransport {
  return {
    kind: 'outbox',
    async send(sendId, message, date) {
      const info = await transporter.sendMail(message);
      // Named by the send's own time and id: a retried attempt rewrites the same file, never a second one.
      const name = `${date.toISOString().replace(/[-:]|\.\d+/g, '')}-${sendId}.eml`;
      await mkdir(dir, { recursive: true });
      const temp = path.join(dir, `.${name}.tmp`);
      await writeFile(temp, info.message as Buffer, { mode: 0o600 });
      await rename(temp, path.join(dir, name));
      return { response: `written to the outbox as ${name}`, accepted: addresses(info.envelope.to), rejected: [] };
    },
  };
}

function addresses(list: ReadonlyArray<string | { address: string }> | undefined): string[] {
  return (list ?? []).map((a) => (typeof a === 'string' ? a : a.address));
}
