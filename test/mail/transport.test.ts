import { createHash, generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailConfig } from '../../src/mail/transport.js';
import { freePort } from '../../scripts/lib/spawn-service.js';
import { buildDraft, composeMessage, messageIdFor } from '../../src/mail/compose.js';
import { classifySendError } from '../../src/mail/smtp-errors.js';
import { createMailTransport, type MailTransport } from '../../src/mail/transport.js';
import { addresses, SMTP_USER, startSmtpSink, type SmtpSink } from './smtp-sink.js';

/** nodemailer against a real SMTP server on loopback: TLS, AUTH, DKIM, and how its failures are classified. */

const SEND_ID = '0b5e3a9c-1d2f-4e6a-8b7c-9d0e1f2a3b4c';
const DATE = new Date('2025-03-04T05:06:07Z');
const XML = Buffer.from('<?xml version="1.0"?><Invoice>RE-1</Invoice>');
const PDF = Buffer.from('%PDF-1.7 not really\x00\xff binary', 'latin1');

function message(to: string, html = true) {
  const draft = buildDraft(
    {
      from: { address: 'billing@acme.example', name: 'ACME Billing' },
      to: [{ address: to, name: 'Erika Mustermann' }],
      cc: [{ address: 'cc@customer.example', name: '' }],
      bcc: [{ address: 'archive@acme.example', name: '' }],
      subject: 'Rechnung {invoicenumber}',
      message: html
        ? '<html><body><p>Guten Tag {lastname},</p><p>anbei Rechnung {invoicenumber}.</p></body></html>'
        : 'Guten Tag {lastname}',
      content: {},
      attachments: [],
    },
    { invoicenumber: 'RE-1', lastname: 'Mustermann' },
    [],
  );
  return composeMessage(
    draft,
    [
      { fileName: 'RE-1.xml', content: XML, contentType: 'application/xml' },
      { fileName: 'terms.pdf', content: PDF },
    ],
    {
      messageId: messageIdFor(SEND_ID, 'billing@acme.example'),
      date: DATE,
    },
  );
}

const outboxDir = path.join(tmpdir(), 'unused-outbox');
const smtpConfig = (sink: SmtpSink, over: Partial<NonNullable<MailConfig['smtp']>> = {}): MailConfig => ({
  smtp: {
    host: '127.0.0.1',
    port: sink.port,
    secure: false,
    requireTls: true,
    auth: { user: SMTP_USER, pass: new URL(sink.url).password && decodeURIComponent(new URL(sink.url).password) },
    caFile: sink.certFile,
    ...over,
  },
  outboxDir,
  dkim: undefined,
  testFaults: [],
});

async function failureOf(transport: MailTransport, to: string) {
  try {
    await transport.send(SEND_ID, message(to), DATE);
  } catch (err) {
    return classifySendError(err);
  }
  throw new Error('the send succeeded');
}

/**
 * RFC 6376 verification with relaxed/relaxed canonicalisation (nodemailer's default), against
 * the key pair's public half: the check a receiving server makes with the key from DNS.
 */
function verifyDkim(raw: Buffer, key: KeyObject): boolean {
  const text = raw.toString('latin1');
  const split = text.indexOf('\r\n\r\n');
  const headers = text.slice(0, split).split(/\r\n(?![ \t])/);
  const body = text.slice(split + 4);
  const relaxedHeader = (h: string) => {
    const colon = h.indexOf(':');
    return `${h.slice(0, colon).trim().toLowerCase()}:${h
      .slice(colon + 1)
      .replace(/\r\n/g, '')
      .replace(/[ \t]+/g, ' ')
      .trim()}`;
  };
  const signatureHeader = headers.find((h) => /^dkim-signature:/i.test(h))!;
  const tags = Object.fromEntries(
    relaxedHeader(signatureHeader)
      .slice('dkim-signature:'.length)
      .split(';')
      .map((t) => t.trim())
      .filter(Boolean)
      .map((t) => [t.slice(0, t.indexOf('=')), t.slice(t.indexOf('=') + 1)]),
  );
  const relaxedBody =
    body
      .split('\r\n')
      .map((l) => l.replace(/[ \t]+/g, ' ').replace(/ $/, ''))
      .join('\r\n')
      .replace(/(\r\n)*$/, '') + '\r\n';
  if (createHash('sha256').update(relaxedBody, 'latin1').digest('base64') !== tags.bh!.replace(/\s/g, '')) return false;
  const remaining = [...headers];
  const signed = tags.h!.split(':').map((name) => {
    const i = remaining.findLastIndex((h) => h.slice(0, h.indexOf(':')).trim().toLowerCase() === name.trim().toLowerCase());
    return i < 0 ? '' : `${relaxedHeader(remaining.splice(i, 1)[0]!)}\r\n`;
  });
  const unsignedSignature = relaxedHeader(signatureHeader)
    .replace(/\bb=[^;]*$/, 'b=')
    .replace(/\bb=[^;]*;/, 'b=;');
  return verify(
    'sha256',
    Buffer.from(signed.join('') + unsignedSignature, 'latin1'),
    key,
    Buffer.from(tags.b!.replace(/\s/g, ''), 'base64'),
  );
}

describe('SMTP transport', () => {
  let sink: SmtpSink;
  let dir: string;
  let dkimKeyFile: string;
  let publicKey: KeyObject;

  beforeAll(async () => {
    sink = await startSmtpSink();
    dir = await mkdtemp(path.join(tmpdir(), 'einv-mail-'));
    const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
    dkimKeyFile = path.join(dir, 'dkim.pem');
    await writeFile(dkimKeyFile, keys.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    publicKey = keys.publicKey;
  });
  afterAll(async () => {
    await sink?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends over STARTTLS with AUTH and DKIM: envelope with Bcc, headers without, HTML with text alternative, attachments byte for byte', async () => {
    const transport = await createMailTransport({
      ...smtpConfig(sink),
      dkim: { domainName: 'acme.example', keySelector: 'mail2025', privateKeyFile: dkimKeyFile },
    });
    expect(transport.kind).toBe('smtp');
    const receipt = await transport.send(SEND_ID, message('erika@customer.example'), DATE);
    expect(receipt.response).toMatch(/^250/);
    expect(receipt.accepted.sort()).toEqual(['archive@acme.example', 'cc@customer.example', 'erika@customer.example']);

    const mail = await sink.waitFor('erika@customer.example');
    expect(mail).toMatchObject({ secure: true, user: SMTP_USER, mailFrom: 'billing@acme.example' });
    expect(mail.rcptTo.sort()).toEqual(['archive@acme.example', 'cc@customer.example', 'erika@customer.example']);
    const p = mail.parsed;
    expect(p.from).toEqual({ name: 'ACME Billing', address: 'billing@acme.example' });
    expect(addresses(p.to)).toEqual(['erika@customer.example']);
    expect(addresses(p.cc)).toEqual(['cc@customer.example']);
    expect(p.bcc).toBeUndefined();
    expect(mail.raw.toString()).not.toMatch(/^bcc:/im);
    expect(p.subject).toBe('Rechnung RE-1');
    expect(p.messageId).toBe(`<${SEND_ID}@acme.example>`);
    expect(new Date(p.date!).toISOString()).toBe(DATE.toISOString());
    expect(p.html).toContain('<p>Guten Tag Mustermann,</p>');
    expect(p.text?.trim()).toBe('Guten Tag Mustermann,\n\nanbei Rechnung RE-1.');
    expect(p.attachments.map((a) => [a.filename, a.mimeType])).toEqual([
      ['RE-1.xml', 'application/xml'],
      ['terms.pdf', 'application/pdf'],
    ]);
    expect(Buffer.from(p.attachments[0]!.content as ArrayBuffer).equals(XML)).toBe(true);
    expect(Buffer.from(p.attachments[1]!.content as ArrayBuffer).equals(PDF)).toBe(true);

    const dkim = p.headers.find((h) => h.key === 'dkim-signature')?.value ?? '';
    expect(dkim).toMatch(/\bd=acme\.example;/);
    expect(dkim).toMatch(/\bs=mail2025;/);
    expect(verifyDkim(mail.raw, publicKey)).toBe(true);
    expect(verifyDkim(Buffer.from(mail.raw.toString('latin1').replace('Rechnung RE-1', 'Rechnung RE-2'), 'latin1'), publicKey)).toBe(false);
  });

  it('sends a text message as text only', async () => {
    const transport = await createMailTransport(smtpConfig(sink));
    await transport.send(SEND_ID, message('text@customer.example', false), DATE);
    const { parsed } = await sink.waitFor('text@customer.example');
    expect(parsed.text?.trim()).toBe('Guten Tag Mustermann');
    expect(parsed.html).toBeUndefined();
  });

  it('classifies 4xx replies as temporary and 5xx as permanent', async () => {
    const transport = await createMailTransport(smtpConfig(sink));
    sink.plan('greylisted@customer.example', () => ({ code: 451, message: 'Greylisted, try again later' }));
    sink.plan('unknown@customer.example', () => ({ code: 550, message: 'Mailbox unknown' }));
    expect(await failureOf(transport, 'greylisted@customer.example')).toEqual({
      temporary: true,
      response: expect.stringMatching(/^451 .*Greylisted/),
    });
    expect(await failureOf(transport, 'unknown@customer.example')).toEqual({
      temporary: false,
      response: expect.stringMatching(/^550 .*Mailbox unknown/),
    });
  });

  it('classifies wrong credentials as permanent and an unreachable server as temporary', async () => {
    expect(
      await failureOf(await createMailTransport(smtpConfig(sink, { auth: { user: SMTP_USER, pass: 'wrong' } })), 'x@customer.example'),
    ).toMatchObject({ temporary: false, response: expect.stringMatching(/535/) });
    const closed = await freePort();
    expect(await failureOf(await createMailTransport(smtpConfig(sink, { port: closed })), 'x@customer.example')).toMatchObject({
      temporary: true,
      response: expect.stringMatching(/^(ESOCKET|ECONNECTION)/),
    });
  });

  it('refuses to send in clear text when TLS is required and the server offers no STARTTLS', async () => {
    const plain = await startSmtpSink({ startTls: false });
    try {
      const failure = await failureOf(await createMailTransport(smtpConfig(plain, { auth: undefined })), 'x@customer.example');
      expect(failure.temporary).toBe(false);
      expect(plain.received).toEqual([]);
      // Only an operator's explicit SMTP_REQUIRE_TLS=false sends without it.
      await (
        await createMailTransport(smtpConfig(plain, { auth: undefined, requireTls: false }))
      ).send(SEND_ID, message('x@customer.example'), DATE);
      expect((await plain.waitFor('x@customer.example')).secure).toBe(false);
    } finally {
      await plain.close();
    }
  });
});

describe('outbox transport', () => {
  it('writes one .eml per send, named by its time and id, with every recipient; a second attempt rewrites the same file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'einv-outbox-'));
    try {
      const transport = await createMailTransport({ smtp: undefined, outboxDir: dir, dkim: undefined, testFaults: [] });
      expect(transport.kind).toBe('outbox');
      const receipt = await transport.send(SEND_ID, message('erika@customer.example'), DATE);
      await transport.send(SEND_ID, message('erika@customer.example'), DATE);
      const name = `20250304T050607Z-${SEND_ID}.eml`;
      expect(await readdir(dir)).toEqual([name]);
      expect(receipt).toEqual({
        response: `written to the outbox as ${name}`,
        accepted: ['erika@customer.example', 'cc@customer.example', 'archive@acme.example'],
        rejected: [],
      });
      const parsed = await PostalMime.parse(await readFile(path.join(dir, name)));
      expect(addresses(parsed.bcc)).toEqual(['archive@acme.example']);
      expect(parsed.subject).toBe('Rechnung RE-1');
      expect(Buffer.from(parsed.attachments[0]!.content as ArrayBuffer).equals(XML)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
