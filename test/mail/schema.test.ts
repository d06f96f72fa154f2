import { describe, expect, it } from 'vitest';
import { deliveryTransportSchema, transportSchema } from '../../src/mail/schema.js';

const valid = {
  type: 'email',
  useTransport: true,
  sender: 'billing@acme.example',
  senderName: 'ACME',
  receiver: 'a@customer.example, B <b@customer.example>',
  cc: 'c@customer.example',
  bcc: '',
  subject: 'Invoice {invoicenumber}',
  message: 'Hello',
  attachments: [{ fileName: 'terms.txt', fileBase64: 'data:text/plain;base64,SGVs\nbG8=' }],
};

function issues(schema: typeof transportSchema | typeof deliveryTransportSchema, value: unknown): string[] {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('transport object of the create endpoints', () => {
  it('parses into an order: addresses, sender name, decoded attachments', () => {
    const order = transportSchema.parse(valid);
    expect(order.useTransport).toBe(true);
    if (!order.useTransport) return;
    expect(order.email.from).toEqual({ address: 'billing@acme.example', name: 'ACME' });
    expect(order.email.to.map((a) => a.address)).toEqual(['a@customer.example', 'b@customer.example']);
    expect(order.email.bcc).toEqual([]);
    expect(order.email.attachments[0]!.content.toString()).toBe('Hello');
  });

  it('needs nothing else when useTransport is false', () => {
    expect(transportSchema.parse({ type: 'email', useTransport: false })).toEqual({ useTransport: false });
  });

  it('names each missing field when useTransport is true', () => {
    expect(issues(transportSchema, { type: 'email', useTransport: true, receiver: '' })).toEqual([
      'sender: required when useTransport is true',
      'receiver: required when useTransport is true',
      'subject: required when useTransport is true',
      'message: required when useTransport is true',
    ]);
  });

  it('refuses header injection in every header field', () => {
    for (const field of ['sender', 'senderName', 'receiver', 'cc', 'bcc', 'subject'] as const) {
      const value = { ...valid, [field]: `${valid[field] || 'x@customer.example'}\r\nBcc: victim@other.example` };
      expect(issues(transportSchema, value).join(), field).toMatch(new RegExp(`^${field}: .*line breaks or control characters`));
    }
    const attachment = { ...valid, attachments: [{ fileName: 'a.txt\r\nContent-Type: text/html', fileBase64: 'SGVsbG8=' }] };
    expect(issues(transportSchema, attachment).join()).toMatch(/attachments\.0\.fileName: .*line breaks/);
  });

  it('refuses RFC 2047 encoded words in every header field a client fills (issue 15, item 6: a forged sender name)', () => {
    // "PayPal <service@paypal.example>" as an encoded word: a mail program would show it decoded.
    const forged = '=?utf-8?b?UGF5UGFsIDxzZXJ2aWNlQHBheXBhbC5leGFtcGxlPg==?=';
    expect(issues(transportSchema, { ...valid, senderName: forged }).join()).toMatch(/^senderName: .*encoded words/);
    expect(issues(transportSchema, { ...valid, subject: `Rechnung =?ISO-8859-1?Q?f=FCr_Sie?=` }).join()).toMatch(
      /^subject: .*encoded words/,
    );
    expect(issues(transportSchema, { ...valid, receiver: `"${forged}" <a@customer.example>` }).join()).toMatch(/^receiver: .*encoded word/);
    expect(issues(transportSchema, { ...valid, cc: `${forged} <c@customer.example>` }).join()).toMatch(/^cc: .*encoded word/);
    expect(issues(transportSchema, { ...valid, attachments: [{ fileName: `${forged}.pdf`, fileBase64: 'SGVsbG8=' }] }).join()).toMatch(
      /attachments\.0\.fileName: .*encoded words/,
    );
    // Text that merely looks a bit like one, and real non-ASCII text, pass (the mailer encodes them itself).
    expect(issues(transportSchema, { ...valid, senderName: 'Müller & Söhne =? GmbH', subject: 'Rechnung für Sie ?= =?' })).toEqual([]);
  });

  it('refuses invalid addresses, several senders, paths as file names, bad base64, unknown fields and too many recipients', () => {
    expect(issues(transportSchema, { ...valid, receiver: 'not an address' }).join()).toMatch(/^receiver: /);
    expect(issues(transportSchema, { ...valid, sender: 'a@acme.example, b@acme.example' })).toEqual(['sender: must be one address']);
    expect(issues(transportSchema, { ...valid, attachments: [{ fileName: '../etc/passwd', fileBase64: 'SGVsbG8=' }] }).join()).toMatch(
      /not a path/,
    );
    expect(issues(transportSchema, { ...valid, attachments: [{ fileName: 'a.txt', fileBase64: 'not base64!' }] }).join()).toMatch(
      /must be base64/,
    );
    expect(issues(transportSchema, { ...valid, replyTo: 'x@acme.example' }).join()).toMatch(/replyTo/);
    const many = Array.from({ length: 51 }, (_, i) => `r${i}@customer.example`).join(',');
    expect(issues(transportSchema, { ...valid, receiver: many, cc: '' })).toEqual([
      'receiver: at most 50 recipients (receiver, cc and bcc together)',
    ]);
  });
});

describe('transport object of the delivery endpoint', () => {
  const { type, useTransport, ...email } = valid;

  it('takes the e-mail fields under transport.email and placeholder values from content', () => {
    const order = deliveryTransportSchema.parse({
      type,
      useTransport,
      email: { ...email, content: { InvoiceDate: '01.01.2025', amount: 12.5 } },
    });
    if (!order.useTransport) throw new Error('not a send');
    expect(order.email.content).toEqual({ invoicedate: '01.01.2025', amount: '12.5' });
  });

  it('is a nothing-to-do order with useTransport false, and needs email otherwise', () => {
    expect(deliveryTransportSchema.parse({ type, useTransport: false })).toEqual({ useTransport: false });
    expect(issues(deliveryTransportSchema, { type, useTransport: true })).toEqual(['email: required when useTransport is true']);
    expect(issues(deliveryTransportSchema, { type, useTransport: true, email: { ...email, subject: '' } })).toEqual([
      'email.subject: required when useTransport is true',
    ]);
  });

  it('refuses placeholder names that are not plain words', () => {
    expect(issues(deliveryTransportSchema, { type, useTransport, email: { ...email, content: { 'a b': 'x' } } }).join()).toMatch(
      /placeholder names/,
    );
  });
});
