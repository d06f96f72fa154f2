import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, spawnService, type SpawnedService } from '../../scripts/lib/spawn-service.js';
import { addresses, receivedFor, SMTP_USER, startSmtpSink, type SmtpSink } from '../mail/smtp-sink.js';
import { call } from './client.js';
import { invoiceFixture } from '../xml/fixtures.js';

/**
 * E-mail through a real SMTP server on loopback (smtp-server, STARTTLS with a certificate
 * made for the run, AUTH): services configured with SMTP_URL, one of them told to fail the
 * send activity once right after the server accepted (EINVOICE_TEST_FAULTS).
 */

const invoice = invoiceFixture('01-standard-19');

const CREATE = '/api/v1/zugferd/createXinvoiceFromJson';
const exec = promisify(execFile);

const transport = (receiver: string, over: Record<string, unknown> = {}) => ({
  type: 'email',
  useTransport: true,
  sender: 'rechnung@acme.example',
  senderName: 'ACME Rechnungen',
  receiver,
  cc: 'Copy <cc@customer.example>',
  bcc: 'archiv@acme.example',
  subject: 'Rechnung {invoicenumber}',
  message: '<html><body><p>Guten Tag {lastname},</p><p>Rechnung {invoicenumber} vom {invoicedate} anbei.</p></body></html>',
  ...over,
});

let sink: SmtpSink;
let smtp: SpawnedService;
let faulty: SpawnedService;
let keyDir: string;

async function allowSender(service: SpawnedService) {
  await exec(
    process.execPath,
    [path.join(repoRoot, 'dist/src/cli/accounts.js'), 'allow-sender', '--account', service.accountId, '--sender', 'acme.example'],
    { cwd: repoRoot, env: service.env },
  );
}

beforeAll(async () => {
  sink = await startSmtpSink();
  keyDir = await mkdtemp(path.join(tmpdir(), 'einv-dkim-'));
  const dkimKey = path.join(keyDir, 'dkim.pem');
  await writeFile(dkimKey, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const mailEnv = {
    SMTP_URL: sink.url,
    SMTP_CA_FILE: sink.certFile,
    DKIM_DOMAIN: 'acme.example',
    DKIM_SELECTOR: 'einvoice',
    DKIM_PRIVATE_KEY_FILE: dkimKey,
  };
  smtp = await spawnService({ name: 'mail-smtp', env: mailEnv });
  faulty = await spawnService({
    name: 'mail-fault',
    env: { ...mailEnv, EINVOICE_TEST_FAULTS: 'mail-after-accept', TEMPORAL_ADDRESS: smtp.temporalAddress },
  });
  await allowSender(smtp);
  await allowSender(faulty);
});

afterAll(async () => {
  await faulty?.stop();
  await smtp?.stop();
  await sink?.close();
  await rm(keyDir, { recursive: true, force: true });
});

describe('e-mail through SMTP', () => {
  it('sends over STARTTLS with AUTH, signed with DKIM: To, Cc and Bcc, placeholders, HTML with text, the document byte for byte', async () => {
    const r = await call(smtp, CREATE, {
      body: {
        invoice,
        transport: transport('Erika Mustermann <erika@customer.example>', {
          attachments: [{ fileName: 'AGB.pdf', fileBase64: Buffer.from('%PDF-1.4 AGB').toString('base64') }],
        }),
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.transport).toMatchObject({
      status: 'sent',
      message: 'The mail server accepted the e-mail for 3 recipient(s).',
      send: { via: 'smtp', attempts: 1, response: expect.stringMatching(/^250/) },
    });
    expect(r.json.transport.send.accepted.sort()).toEqual(['archiv@acme.example', 'cc@customer.example', 'erika@customer.example']);

    const mail = await sink.waitFor('erika@customer.example');
    expect(mail).toMatchObject({ secure: true, user: SMTP_USER, mailFrom: 'rechnung@acme.example' });
    expect(mail.rcptTo.sort()).toEqual(['archiv@acme.example', 'cc@customer.example', 'erika@customer.example']);
    const p = mail.parsed;
    expect(addresses(p.to)).toEqual(['erika@customer.example']);
    expect(p.cc).toEqual([{ name: 'Copy', address: 'cc@customer.example' }]);
    expect(p.bcc).toBeUndefined();
    expect(mail.raw.toString()).not.toMatch(/^bcc:/im);
    expect(p.messageId).toBe(r.json.transport.send.messageId);
    expect(p.subject).toBe('Rechnung RE-2025-00101');
    expect(p.html).toContain('<p>Guten Tag Kreditorenbuchhaltung,</p><p>Rechnung RE-2025-00101 vom 03.03.2025 anbei.</p>');
    expect(p.text?.trim()).toBe('Guten Tag Kreditorenbuchhaltung,\n\nRechnung RE-2025-00101 vom 03.03.2025 anbei.');
    expect(p.attachments.map((a) => [a.filename, a.mimeType])).toEqual([
      ['RE-2025-00101.xml', 'application/xml'],
      ['AGB.pdf', 'application/pdf'],
    ]);
    const download = Buffer.from(await (await fetch(r.json.downloadURL)).arrayBuffer());
    expect(Buffer.from(p.attachments[0]!.content as ArrayBuffer).equals(download)).toBe(true);
    expect(p.headers.find((h) => h.key === 'dkim-signature')?.value).toMatch(/d=acme\.example;.*s=einvoice;/s);
  });

  it('retries a temporary refusal and delivers the message once', async () => {
    sink.plan('greylisted@customer.example', (n) => (n === 1 ? { code: 451, message: '4.7.1 Greylisted, try again later' } : undefined));
    const r = await call(smtp, CREATE, { body: { invoice, transport: transport('greylisted@customer.example') } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.transport).toMatchObject({
      status: 'sent',
      send: { status: 'sent', attempts: 2, response: expect.stringMatching(/^250/) },
    });
    expect(sink.transactions.get('greylisted@customer.example')).toBe(2);
    expect(receivedFor(sink, 'greylisted@customer.example')).toHaveLength(1);
  });

  it('fails the mail, never the document, on a permanent refusal, without retrying; a resend to another receiver delivers it', async () => {
    sink.plan('unknown@customer.example', () => ({ code: 550, message: '5.1.1 Mailbox unknown' }));
    const r = await call(smtp, CREATE, { body: { invoice, transport: transport('unknown@customer.example') } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.valid).toBe(true);
    expect(r.json.transport).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/^The e-mail was not sent: 550 .*Mailbox unknown/),
      send: { status: 'failed', attempts: 1, error: { code: 'SMTP_REJECTED' } },
    });
    expect(sink.transactions.get('unknown@customer.example')).toBe(1);
    expect((await fetch(r.json.downloadURL)).status).toBe(200);

    const resent = await call(smtp, '/api/v1/delivery/resend', {
      body: { resendToken: r.json.resendToken, receiver: 'known@customer.example' },
    });
    expect(resent.json).toMatchObject({
      status: 'sent',
      send: { receiver: ['known@customer.example'], resendOf: r.json.transport.send.sendId },
    });
    const mail = await sink.waitFor('known@customer.example');
    expect(mail.parsed.subject).toBe('Rechnung RE-2025-00101');
    expect(mail.parsed.attachments[0]!.filename).toBe('RE-2025-00101.xml');
  });

  it('answers 202 queued when temporary refusals outlast the wait, and keeps retrying in the background', async () => {
    sink.plan('down@customer.example', () => ({ code: 421, message: '4.3.2 Service shutting down' }));
    const { type, useTransport, ...email } = transport('down@customer.example');
    const r = await call(smtp, '/api/v1/delivery', { body: { transport: { type, useTransport, email } } });
    expect(r.status, r.text).toBe(202);
    expect(r.json).toMatchObject({
      status: 'queued',
      message: expect.stringMatching(/has not accepted the e-mail yet \(last reply: 421 .*\); it is retried/),
    });
    expect(r.json.send.attempts).toBeGreaterThanOrEqual(3);
    expect(['queued', 'sending']).toContain(r.json.send.status);
    const later = async () =>
      (await call(smtp, `/api/v1/delivery/sends?limit=200`)).json.sends.find((s: { sendId: string }) => s.sendId === r.json.send.sendId);
    await expect.poll(async () => (await later()).attempts, { timeout: 40_000, interval: 1_000 }).toBeGreaterThan(r.json.send.attempts);
    expect((await later()).status).not.toBe('failed');
    expect(receivedFor(sink, 'down@customer.example')).toEqual([]);
  }, 90_000);
});

describe('no duplicate when the send activity is retried after the server accepted', () => {
  let connection: Connection;
  let client: Client;
  beforeAll(async () => {
    connection = await Connection.connect({ address: faulty.temporalAddress });
    client = new Client({ connection, namespace: faulty.namespace });
  });
  afterAll(async () => connection?.close());

  it('sends once although the first attempt failed after acceptance', async () => {
    const r = await call(faulty, CREATE, { body: { invoice, transport: transport('once@customer.example') } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.transport).toMatchObject({ status: 'sent', send: { attempts: 1 } });
    expect(receivedFor(sink, 'once@customer.example')).toHaveLength(1);
    expect(sink.transactions.get('once@customer.example')).toBe(1);

    // The activity really ran twice: its second attempt saw the injected failure of the first.
    const history = await client.workflow.getHandle(`createXinvoiceFromJson-${r.headers.get('x-request-id')}-mail`).fetchHistory();
    const starts = (history.events ?? []).flatMap((e) =>
      e.activityTaskStartedEventAttributes ? [e.activityTaskStartedEventAttributes] : [],
    );
    expect(starts.some((s) => s.attempt === 2 && /injected test fault/.test(s.lastFailure?.message ?? ''))).toBe(true);
  });
});
