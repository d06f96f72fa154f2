import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import PostalMime, { type Email } from 'postal-mime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/spawn-service.js';
import type { ServiceHandle } from '../support/global-setup.js';
import { addresses } from '../mail/smtp-sink.js';
import { call, expectEnvelope, services } from './client.js';
import { invoiceFixture } from '../xml/fixtures.js';

/**
 * E-mail with the embedded default: no SMTP server configured, so every message lands in the
 * outbox folder of the data dir as an .eml file, which these tests read back and parse.
 */

const invoice = invoiceFixture('01-standard-19');

const CREATE = '/api/v1/zugferd/createXinvoiceFromJson';
const DELIVERY = '/api/v1/delivery';
const RESEND = '/api/v1/delivery/resend';
const SENDS = '/api/v1/delivery/sends';

const exec = promisify(execFile);
const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

/** The accounts CLI as the operator runs it, on the service's own database. */
async function accountsCli(service: ServiceHandle, ...args: string[]) {
  const { stdout } = await exec(process.execPath, [path.join(repoRoot, 'dist/src/cli/accounts.js'), ...args, '--json'], {
    cwd: repoRoot,
    env: service.env,
  });
  return JSON.parse(stdout);
}

const transport = {
  type: 'email',
  useTransport: true,
  sender: 'rechnung@acme.example',
  senderName: 'ACME Rechnungen',
  receiver: 'Erika Mustermann <erika@customer.example>, einkauf@customer.example',
  cc: 'cc@customer.example',
  bcc: 'archiv@acme.example',
  subject: 'Rechnung {invoicenumber} vom {invoicedate}',
  message: '<!DOCTYPE html><html><body><p>Guten Tag {lastname},</p><p>anbei Rechnung <b>{invoicenumber}</b>.</p></body></html>',
  attachments: [{ fileName: 'AGB.txt', fileBase64: b64('Allgemeine Geschäftsbedingungen') }],
};

/** The e-mail fields alone, as the delivery endpoint takes them under transport.email. */
const { type: _type, useTransport: _use, ...email } = transport;

async function outboxMail(service: ServiceHandle, send: { response: string }): Promise<Email> {
  const name = /written to the outbox as (\S+\.eml)/.exec(send.response)![1]!;
  return PostalMime.parse(await readFile(path.join(service.dataDir, 'outbox', name)));
}

const outboxCount = async (service: ServiceHandle) => (await readdir(path.join(service.dataDir, 'outbox')).catch(() => [])).length;

describe.each(services)('e-mail delivery through the outbox ($name)', (service) => {
  beforeAll(async () => {
    expect(await accountsCli(service, 'allow-sender', '--account', service.accountId, '--sender', 'ACME.example')).toMatchObject({
      sender: 'acme.example',
      added: true,
    });
  });

  it('sends the created document in the same call: recipients, filled placeholders, HTML with text, the XML byte for byte', async () => {
    const r = await call(service, CREATE, { body: { invoice, transport } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.valid).toBe(true);
    expect(r.json.transport).toMatchObject({
      status: 'sent',
      message: expect.stringMatching(/^No SMTP server is configured: the e-mail was written to the outbox/),
      send: {
        status: 'sent',
        via: 'outbox',
        documentId: r.json.documentId,
        resendOf: null,
        sender: 'rechnung@acme.example',
        receiver: ['erika@customer.example', 'einkauf@customer.example'],
        cc: ['cc@customer.example'],
        bcc: ['archiv@acme.example'],
        subject: 'Rechnung RE-2025-00101 vom 03.03.2025',
        attempts: 1,
        error: null,
      },
    });
    const mail = await outboxMail(service, r.json.transport.send);
    expect(mail.messageId).toBe(r.json.transport.send.messageId);
    expect(mail.from).toEqual({ name: 'ACME Rechnungen', address: 'rechnung@acme.example' });
    expect(addresses(mail.to)).toEqual(['erika@customer.example', 'einkauf@customer.example']);
    expect(addresses(mail.cc)).toEqual(['cc@customer.example']);
    expect(addresses(mail.bcc)).toEqual(['archiv@acme.example']);
    expect(mail.subject).toBe('Rechnung RE-2025-00101 vom 03.03.2025');
    // {lastname}: the last word of the buyer contact point (BT-56), here a department.
    expect(mail.html).toContain('<p>Guten Tag Kreditorenbuchhaltung,</p><p>anbei Rechnung <b>RE-2025-00101</b>.</p>');
    expect(mail.text?.trim()).toBe('Guten Tag Kreditorenbuchhaltung,\n\nanbei Rechnung RE-2025-00101.');
    expect(mail.attachments.map((a) => a.filename)).toEqual(['RE-2025-00101.xml', 'AGB.txt']);
    expect(Buffer.from(mail.attachments[0]!.content as ArrayBuffer).toString('utf8')).toBe(r.json.xInvoice);
    expect(Buffer.from(mail.attachments[1]!.content as ArrayBuffer).toString('utf8')).toBe('Allgemeine Geschäftsbedingungen');
  });

  it('says so and sends nothing when useTransport is false', async () => {
    const before = await outboxCount(service);
    const r = await call(service, CREATE, { body: { invoice, transport: { type: 'email', useTransport: false } } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.transport).toEqual({ status: 'skipped', message: 'Nothing to do: useTransport is false, so no e-mail was sent.' });
    const none = await call(service, DELIVERY, { body: { transport: { type: 'email', useTransport: false } } });
    expect(none.status).toBe(200);
    expect(none.json).toEqual({ status: 'skipped', message: 'Nothing to do: useTransport is false, so no e-mail was sent.' });
    expect(await outboxCount(service)).toBe(before);
    const plain = await call(service, CREATE, { body: { invoice } });
    expect(plain.json).not.toHaveProperty('transport');
  });

  it('delivers a standalone e-mail with placeholders from content and only the given attachments', async () => {
    const r = await call(service, DELIVERY, {
      body: {
        transport: {
          type: 'email',
          useTransport: true,
          email: {
            sender: 'mahnung@acme.example',
            senderName: '',
            receiver: 'erika@customer.example',
            cc: '',
            bcc: '',
            subject: 'Zahlungserinnerung {invoicenumber}',
            message: 'Sehr geehrte Frau {Name},\nbitte zahlen Sie die Rechnung vom {invoicedate}. {unbekannt} bleibt stehen.',
            content: { invoicenumber: 'RE-9', invoicedate: '01.02.2025', name: 'Mustermann' },
            attachments: [{ fileName: 'kopie.pdf', fileBase64: b64('%PDF-1.7 copy') }],
          },
        },
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ status: 'sent', send: { documentId: null, subject: 'Zahlungserinnerung RE-9', cc: [], bcc: [] } });
    const mail = await outboxMail(service, r.json.send);
    expect(mail.from).toEqual({ name: '', address: 'mahnung@acme.example' });
    expect(mail.text?.trim()).toBe(
      'Sehr geehrte Frau Mustermann,\nbitte zahlen Sie die Rechnung vom 01.02.2025. {unbekannt} bleibt stehen.',
    );
    expect(mail.html).toBeUndefined();
    expect(mail.attachments.map((a) => a.filename)).toEqual(['kopie.pdf']);
  });

  it('refuses header injection, invalid addresses and oversized attachments before creating anything', async () => {
    const before = await outboxCount(service);
    const injected = await call(service, CREATE, {
      body: { invoice, transport: { ...transport, subject: 'Rechnung\r\nBcc: victim@evil.example' } },
    });
    expectEnvelope(injected, 400, 'VALIDATION_ERROR');
    expect(injected.json.error.fields).toEqual([
      { field: 'transport.subject', message: 'must not contain line breaks or control characters' },
    ]);
    const injectedTo = await call(service, DELIVERY, {
      body: {
        transport: { type: 'email', useTransport: true, email: { ...email, receiver: 'a@customer.example\nBcc: victim@evil.example' } },
      },
    });
    expectEnvelope(injectedTo, 400, 'VALIDATION_ERROR');
    expect(injectedTo.json.error.fields[0].field).toBe('transport.email.receiver');
    const invalid = await call(service, CREATE, {
      body: { invoice, transport: { ...transport, cc: 'erika@customer.example buyer@customer.example' } },
    });
    expectEnvelope(invalid, 400, 'VALIDATION_ERROR');
    expect(invalid.json.error.fields[0]).toMatchObject({
      field: 'transport.cc',
      message: expect.stringMatching(/separate several addresses with commas/),
    });
    const big = await call(service, CREATE, {
      body: {
        invoice,
        transport: {
          ...transport,
          attachments: [{ fileName: 'big.bin', fileBase64: Buffer.alloc(10 * 1024 * 1024 + 1).toString('base64') }],
        },
      },
    });
    expectEnvelope(big, 413, 'ATTACHMENT_TOO_LARGE');
    expect(big.json.error.userMessage).toContain('big.bin');
    expect(await outboxCount(service)).toBe(before);
  });

  it('refuses senders the operator has not allowed; an account without rules may send from no address', async () => {
    const other = await call(service, CREATE, { body: { invoice, transport: { ...transport, sender: 'ceo@acme-evil.example' } } });
    expectEnvelope(other, 403, 'SENDER_NOT_ALLOWED');
    expect(other.json.error.detail).toBe('Allowed senders: acme.example.');

    const account = await accountsCli(service, 'create-account', '--name', 'no rules');
    const { token } = await accountsCli(service, 'create-token', '--account', account.id);
    expect(await accountsCli(service, 'list-senders', '--account', account.id)).toEqual([]);
    const none = await call(service, DELIVERY, { token, body: { transport: { type: 'email', useTransport: true, email } } });
    expectEnvelope(none, 403, 'SENDER_NOT_ALLOWED');
    expect(none.json.error.detail).toMatch(/No sender is allowed for this account yet.*allow-sender/);
    // Each account sees only its own sends.
    expect((await call(service, SENDS, { token })).json).toEqual({ sends: [], nextCursor: null });

    await accountsCli(service, 'allow-sender', '--account', account.id, '--sender', 'rechnung@acme.example');
    expect((await call(service, DELIVERY, { token, body: { transport: { type: 'email', useTransport: true, email } } })).json.status).toBe(
      'sent',
    );
    expect(
      (
        await call(service, DELIVERY, {
          token,
          body: { transport: { type: 'email', useTransport: true, email: { ...email, sender: 'info@acme.example' } } },
        })
      ).status,
    ).toBe(403);
    await accountsCli(service, 'remove-sender', '--account', account.id, '--sender', 'rechnung@acme.example');
    expect((await call(service, DELIVERY, { token, body: { transport: { type: 'email', useTransport: true, email } } })).status).toBe(403);
  });

  it('manages sender rules with the accounts CLI, refusing what is not an address, a domain or *', async () => {
    const cli = (...args: string[]) =>
      exec(process.execPath, [path.join(repoRoot, 'dist/src/cli/accounts.js'), ...args], { cwd: repoRoot, env: service.env }).then(
        (r) => ({ code: 0, ...r }),
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
    expect(await cli('allow-sender', '--account', service.accountId, '--sender', 'acme.example')).toMatchObject({
      code: 0,
      stdout: `${service.accountId} could already send as acme.example\n`,
    });
    expect((await cli('list-senders', '--account', service.accountId)).stdout).toMatch(/^CREATED\s+SENDER\n\S+\s+acme\.example\n$/);
    expect(await cli('allow-sender', '--account', service.accountId, '--sender', '*.acme.example')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('neither an e-mail address, a domain nor *'),
    });
    expect(await cli('allow-sender', '--account', service.accountId)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--sender is required'),
    });
    expect(await cli('allow-sender', '--account', 'acc_missing', '--sender', 'acme.example')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('No account acc_missing'),
    });
    expect(await cli('remove-sender', '--account', service.accountId, '--sender', 'other.example')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('has no allowed sender other.example'),
    });
  });

  it('resends the same message with the resendToken, to the original or to other receivers, and lists every send', async () => {
    const created = await call(service, CREATE, { body: { invoice, transport } });
    const original = created.json.transport.send;

    const again = await call(service, RESEND, { body: { resendToken: created.json.resendToken } });
    expect(again.status, again.text).toBe(200);
    expect(again.json).toMatchObject({
      status: 'sent',
      send: {
        resendOf: original.sendId,
        documentId: created.json.documentId,
        receiver: original.receiver,
        cc: original.cc,
        bcc: original.bcc,
        subject: original.subject,
      },
    });
    expect(again.json.send.messageId).not.toBe(original.messageId);
    const [first, second] = [await outboxMail(service, original), await outboxMail(service, again.json.send)];
    expect(second.html).toBe(first.html);
    expect(second.attachments.map((a) => Buffer.from(a.content as ArrayBuffer).toString('base64'))).toEqual(
      first.attachments.map((a) => Buffer.from(a.content as ArrayBuffer).toString('base64')),
    );

    const redirected = await call(service, RESEND, {
      body: { resendToken: created.json.resendToken, receiver: 'buchhaltung@customer.example', bcc: '' },
    });
    expect(redirected.json.send).toMatchObject({ receiver: ['buchhaltung@customer.example'], cc: ['cc@customer.example'], bcc: [] });
    const mail = await outboxMail(service, redirected.json.send);
    expect(addresses(mail.to)).toEqual(['buchhaltung@customer.example']);
    expect(mail.bcc).toBeUndefined();

    const listed = await call(service, `${SENDS}?documentId=${created.json.documentId}`);
    expect(listed.status).toBe(200);
    expect(listed.json.sends.map((s: { sendId: string }) => s.sendId)).toEqual([
      redirected.json.send.sendId,
      again.json.send.sendId,
      original.sendId,
    ]);
    const page = await call(service, `${SENDS}?limit=1`);
    expect(page.json.sends).toHaveLength(1);
    expect(page.json.nextCursor).toEqual(expect.any(String));
    const next = await call(service, `${SENDS}?limit=1&cursor=${page.json.nextCursor}`);
    expect(next.json.sends[0].sendId).not.toBe(page.json.sends[0].sendId);
    expectEnvelope(await call(service, `${SENDS}?cursor=bogus`), 400, 'VALIDATION_ERROR');
  });

  it('refuses a forged resend token, and a document that was never e-mailed', async () => {
    const created = await call(service, CREATE, { body: { invoice } });
    const forged = `${created.json.documentId}.${'A'.repeat(43)}`;
    expectEnvelope(await call(service, RESEND, { body: { resendToken: forged } }), 403, 'RESEND_TOKEN_INVALID');
    expectEnvelope(await call(service, RESEND, { body: { resendToken: 'garbage' } }), 403, 'RESEND_TOKEN_INVALID');
    expectEnvelope(await call(service, RESEND, { body: { resendToken: created.json.resendToken } }), 409, 'NOTHING_TO_RESEND');
  });

  it("answers another account's resend token as not in your account, as for one that does not exist", async () => {
    const created = await call(service, CREATE, { body: { invoice, transport } });
    const other = await accountsCli(service, 'create-account', '--name', 'Other GmbH');
    const { token } = await accountsCli(service, 'create-token', '--account', other.id);
    const foreign = await call(service, RESEND, { body: { resendToken: created.json.resendToken }, token });
    expectEnvelope(foreign, 404, 'NOT_FOUND');
    expect(foreign.json.error.detail).toBe('There is no document of this resend token in your account.');
  });
});

describe('e-mail and Temporal', () => {
  const service = services[0]!;
  let connection: Connection;
  let client: Client;
  beforeAll(async () => {
    connection = await Connection.connect({ address: service.temporalAddress });
    client = new Client({ connection, namespace: service.namespace });
  });
  afterAll(async () => connection?.close());

  it('sends in a child workflow whose history holds references, not addresses or text', async () => {
    const r = await call(service, CREATE, { body: { invoice, transport } });
    expect(r.json.transport.status).toBe('sent');
    const workflowId = `createXinvoiceFromJson-${r.headers.get('x-request-id')}-mail`;
    const child = client.workflow.getHandle(workflowId);
    const description = await child.describe();
    expect(description.status.name).toBe('COMPLETED');
    expect(description.typedSearchAttributes.get({ name: 'EinvoiceOutcome', type: 'KEYWORD' } as never)).toBe('sent');
    // Payloads are base64 in the history's JSON form: decode them to see what Temporal stores.
    const text = JSON.stringify(await child.fetchHistory()).replace(/"data":"([A-Za-z0-9+/=]*)"/g, (_m, data: string) =>
      Buffer.from(data, 'base64').toString('utf8'),
    );
    expect(text).toContain('draftKey');
    for (const personal of ['erika@customer.example', 'rechnung@acme.example', 'Guten Tag', 'RE-2025-00101'])
      expect(text).not.toContain(personal);
  });
});
