import { describe, expect, it } from 'vitest';
import { buildDraft, composeMessage, messageIdFor, type EmailOrder } from '../../src/mail/compose.js';
import { htmlToText, looksLikeHtml } from '../../src/mail/html-text.js';
import { fillPlaceholders, invoicePlaceholders, lastName } from '../../src/mail/placeholders.js';
import { invoiceSchema } from '../../src/invoice/model.js';

const order = (over: Partial<EmailOrder> = {}): EmailOrder => ({
  from: { address: 'billing@acme.example', name: 'ACME Billing' },
  to: [{ address: 'buyer@customer.example', name: '' }],
  cc: [],
  bcc: [],
  subject: 'Invoice {invoicenumber}',
  message: 'Dear {lastname}, see invoice {invoicenumber} of {invoicedate}.',
  content: {},
  attachments: [],
  ...over,
});

describe('placeholders', () => {
  it('fills known names case-insensitively and leaves unknown ones as written', () => {
    expect(fillPlaceholders('{InvoiceNumber} {unknown} {a-b.c}', { invoicenumber: 'R-1', 'a-b.c': 'x' })).toBe('R-1 {unknown} x');
    expect(fillPlaceholders('body { color: red }', { color: 'no' })).toBe('body { color: red }');
  });

  it('takes number, date and last name from the invoice', () => {
    const invoice = invoiceSchema.parse({
      invoiceNumber: 'RE-7',
      invoiceIssueDate: '2025-03-04',
      buyer: { buyerName: 'X', buyerContact: { buyerContactPoint: 'Dr. Erika Mustermann' } },
    });
    expect(invoicePlaceholders(invoice)).toEqual({ invoicenumber: 'RE-7', invoicedate: '04.03.2025', lastname: 'Mustermann' });
    expect(invoicePlaceholders(invoiceSchema.parse({}))).toEqual({ invoicenumber: '', invoicedate: '', lastname: '' });
  });

  it('reads the surname before a comma, otherwise the last word', () => {
    expect(lastName('Mustermann, Erika')).toBe('Mustermann');
    expect(lastName('  Hans  Meier-Schulz ')).toBe('Meier-Schulz');
    expect(lastName('Kreditorenbuchhaltung')).toBe('Kreditorenbuchhaltung');
    expect(lastName(undefined)).toBe('');
  });
});

describe('HTML messages', () => {
  it('recognises HTML by its elements, not by any angle bracket', () => {
    expect(looksLikeHtml('<!DOCTYPE html><html><body><p>Hi</p></body></html>')).toBe(true);
    expect(looksLikeHtml('Hello<br>world')).toBe(true);
    expect(looksLikeHtml('Total < 100 and > 5; see <invoice>')).toBe(false);
  });

  it('derives readable text: blocks become lines, links keep their target, styles and scripts vanish, entities are decoded', () => {
    const html = `<html><head><title>T</title><style>p { color: red }</style></head><body>
      <h1>Rechnung&nbsp;RE-1</h1><p>Sehr geehrte Frau M&uuml;ller,<br>anbei die Rechnung.</p>
      <ul><li>Betrag: 100&#8364;</li><li>F&auml;llig: bald</li></ul>
      <p><a href="https://acme.example/pay">Jetzt zahlen</a> &amp; <a href="mailto:x@acme.example">x@acme.example</a></p><script>alert(1)</script></body></html>`;
    expect(htmlToText(html)).toBe(
      'Rechnung RE-1\n\nSehr geehrte Frau Müller,\nanbei die Rechnung.\n\n- Betrag: 100€\n- Fällig: bald\n\nJetzt zahlen (https://acme.example/pay) & x@acme.example',
    );
  });
});

describe('drafts', () => {
  it('fills subject and text message, request content winning over invoice values', () => {
    const draft = buildDraft(
      order({ content: { lastname: 'Override' } }),
      { invoicenumber: 'RE-1', invoicedate: '01.02.2025', lastname: 'Meier' },
      [],
    );
    expect(draft.subject).toBe('Invoice RE-1');
    expect(draft.text).toBe('Dear Override, see invoice RE-1 of 01.02.2025.');
    expect(draft.html).toBeUndefined();
  });

  it('escapes values inside HTML and makes them single-line inside the subject', () => {
    const values = { invoicenumber: 'RE-1\r\nBcc: victim@other.example', lastname: '<script>alert(1)</script> & Co' };
    const draft = buildDraft(order({ message: '<p>Dear {lastname}</p>' }), values, []);
    expect(draft.subject).toBe('Invoice RE-1 Bcc: victim@other.example');
    expect(draft.html).toBe('<p>Dear &lt;script&gt;alert(1)&lt;/script&gt; &amp; Co</p>');
    expect(draft.text).toBe('Dear <script>alert(1)</script> & Co');
  });

  it('composes a message with a Message-ID in the sender domain, names only where given, and the attachments in order', () => {
    const draft = buildDraft(order({ cc: [{ address: 'cc@customer.example', name: 'Copy' }] }), {}, []);
    const date = new Date('2025-01-02T03:04:05Z');
    const messageId = messageIdFor('6f1c2b7e-0000-4000-8000-000000000001', draft.from.address);
    expect(messageId).toBe('<6f1c2b7e-0000-4000-8000-000000000001@acme.example>');
    const message = composeMessage(
      draft,
      [
        { fileName: 'RE-1.xml', content: Buffer.from('<x/>'), contentType: 'application/xml' },
        { fileName: 'terms.pdf', content: Buffer.from('%PDF') },
      ],
      { messageId, date },
    );
    expect(message).toMatchObject({
      messageId,
      date,
      from: { name: 'ACME Billing', address: 'billing@acme.example' },
      to: ['buyer@customer.example'],
      cc: [{ name: 'Copy', address: 'cc@customer.example' }],
      attachments: [{ filename: 'RE-1.xml', contentType: 'application/xml' }, { filename: 'terms.pdf' }],
    });
    expect(message).not.toHaveProperty('html');
  });
});
