import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { manyPagesPdf } from '../files/hostile-files.js';
import { byName, call, expectEnvelope } from './client.js';

const service = byName('sqlite');
const CREATE = '/api/v1/zugferd/createXinvoiceFromJson';
const base = JSON.parse(readFileSync(path.join(import.meta.dirname, '../fixtures/invoices/01-standard-19.json'), 'utf8'));

describe('request rules and the error envelope', () => {
  it('gives every response an X-Request-Id and echoes a sane incoming one', async () => {
    const r = await call(service, '/health', { token: null, headers: { 'x-request-id': 'client-req-42' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-request-id')).toBe('client-req-42');
    const fresh = await call(service, '/health', { token: null, headers: { 'x-request-id': 'bad id with spaces' } });
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('rejects a body that is not JSON', async () => {
    expectEnvelope(await call(service, CREATE, { raw: '{"invoice": ' }), 400, 'INVALID_JSON');
  });

  it('rejects a body that is not sent as application/json', async () => {
    expectEnvelope(await call(service, CREATE, { raw: '{}', headers: { 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_CONTENT_TYPE');
  });

  it('refuses bodies above 16 MB at once', async () => {
    const r = await call(service, CREATE, { raw: `{"x":"${'a'.repeat(16 * 1024 * 1024)}"}` });
    expectEnvelope(r, 413, 'BODY_TOO_LARGE');
    expect(r.ms).toBeLessThan(1000);
  });

  it('names the field and its business term in validation errors', async () => {
    const r = await call(service, CREATE, {
      body: {
        invoice: {
          invoiceNumber: 'R-1',
          invoiceIssueDate: '2024-02-30',
          invoiceLine: [{ invoicedQuantity: 'three' }],
          documentTotals: { invoiceTotalAmountWithVat: 10 },
          colour: 'red',
        },
      },
    });
    expectEnvelope(r, 400, 'VALIDATION_ERROR');
    const fields = r.json.error.fields as Array<{ field: string; bt?: string; message: string }>;
    expect(fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'invoice.invoiceIssueDate', bt: 'BT-2' }),
        expect.objectContaining({ field: 'invoice.invoiceLine[0].invoicedQuantity', bt: 'BT-129' }),
        expect.objectContaining({ field: 'invoice.colour', message: expect.stringContaining('unknown field') }),
      ]),
    );
  });

  it('issue 15, item 7: a number where text belongs, control characters in a name, an impossible date, each a 400 naming the field', async () => {
    const problem = async (invoice: object, raw?: string) => {
      const r = raw ? await call(service, CREATE, { raw }) : await call(service, CREATE, { body: { invoice } });
      expectEnvelope(r, 400, 'VALIDATION_ERROR');
      return r.json.error.fields as Array<{ field: string; message: string }>;
    };
    // The body is sent as text: 12345 is a JSON number here, as a client's serialiser writes it.
    const numbered = JSON.stringify({ invoice: { ...base, invoiceNumber: 'X' } }).replace('"invoiceNumber":"X"', '"invoiceNumber":12345');
    expect(await problem({}, numbered)).toEqual([
      expect.objectContaining({ field: 'invoice.invoiceNumber', message: expect.stringContaining('not a number') }),
    ]);
    expect(await problem({ ...base, seller: { ...base.seller, sellerName: 'ACME\u0007 GmbH' } })).toEqual([
      expect.objectContaining({ field: 'invoice.seller.sellerName', message: expect.stringContaining('control characters') }),
    ]);
    expect(await problem({ ...base, buyer: { ...base.buyer, buyerName: 'Erika\u0085Mustermann' } })).toEqual([
      expect.objectContaining({ field: 'invoice.buyer.buyerName', message: expect.stringContaining('control characters') }),
    ]);
    expect(await problem({ ...base, invoiceIssueDate: '31.02.2024' })).toEqual([
      expect.objectContaining({ field: 'invoice.invoiceIssueDate' }),
    ]);
    // Amounts stay JSON numbers or strings, exactly.
    const amount = JSON.stringify({ invoice: base }).replace(/"invoiceTotalAmountWithVat":"([\d.]+)"/, '"invoiceTotalAmountWithVat":$1');
    expect((await call(service, CREATE, { raw: amount })).status).toBe(200);
  });

  it('issue 15, item 7: a body in another charset than UTF-8 is refused, not misread', async () => {
    const r = await call(service, CREATE, {
      raw: Buffer.from('{"invoice":{}}', 'utf16le'),
      headers: { 'content-type': 'application/json; charset=utf-16' },
    });
    expectEnvelope(r, 415, 'UNSUPPORTED_CONTENT_TYPE');
    expect(r.json.error.detail).toContain('charset=utf-16');
    expect(
      (await call(service, CREATE, { body: {}, headers: { 'content-type': 'application/json; charset=UTF-8' } })).json.error.code,
    ).toBe('VALIDATION_ERROR');
  });

  it('issue 15, item 7: a 100,000-character Idempotency-Key is a 400 naming the header, not a reset connection', async () => {
    const r = await call(service, CREATE, { body: { invoice: base }, headers: { 'idempotency-key': 'k'.repeat(100_000) } });
    expectEnvelope(r, 400, 'VALIDATION_ERROR');
    expect(r.json.error.fields).toEqual([expect.objectContaining({ field: 'Idempotency-Key' })]);
    // Headers beyond any use still get the envelope.
    const huge = await fetch(`${service.url}${CREATE}`, { method: 'POST', headers: { 'x-padding': 'p'.repeat(300 * 1024) }, body: '{}' });
    expect(huge.status).toBe(431);
    expect(((await huge.json()) as { error: { code: string } }).error.code).toBe('HEADERS_TOO_LARGE');
  });

  it('issue 15, item 5: a 50,000-page PDF is refused from its page tree in a second, not after a minute of parsing', async () => {
    const r = await call(service, '/api/v1/zugferd/validateZugferdPdf', {
      body: { zugferdFile64: manyPagesPdf(50_000).toString('base64') },
    });
    expectEnvelope(r, 422, 'PDF_UNREADABLE');
    expect(r.json.error.userMessage).toBe('The PDF has 50,000 pages; at most 500 are read (MAX_PDF_PAGES).');
    expect(r.ms).toBeLessThan(5_000);
  });

  it('requires the invoice object', async () => {
    const r = await call(service, CREATE, { body: {} });
    expectEnvelope(r, 400, 'VALIDATION_ERROR');
    expect(r.json.error.fields[0].field).toBe('invoice');
  });

  it('answers unknown routes with 404 and wrong methods with 405, in the envelope', async () => {
    expectEnvelope(await call(service, '/api/v1/zugferd/nothingHere', { body: {} }), 404, 'NOT_FOUND');
    expectEnvelope(await call(service, CREATE, { method: 'GET' }), 405, 'METHOD_NOT_ALLOWED');
  });

  it('serves the same routes on the V2 host port', async () => {
    const r = await fetch(`${service.v2Url}/health`);
    expect(r.status).toBe(200);
  });
});

describe('OpenAPI', () => {
  it('serves an OpenAPI 3.1 document generated from the request schemas, with business terms', async () => {
    const r = await call(service, '/openapi.json', { token: null });
    expect(r.status).toBe(200);
    expect(r.json.openapi).toBe('3.1.0');
    const op = r.json.paths['/api/v1/zugferd/createXinvoiceFromJson'].post;
    expect(op.security).toEqual([{ bearerAuth: [] }]);
    const invoice = r.json.components.schemas.Invoice;
    expect(invoice.properties.invoiceNumber['x-bt']).toBe('BT-1');
    expect(invoice.properties.seller.properties.sellerPostalAddress.properties.sellerCountryCode['x-bt']).toBe('BT-40');
    expect(r.json.components.schemas.CreateXinvoiceFromJsonRequest.properties.invoice.$ref).toBe('#/components/schemas/Invoice');
    expect(Object.keys(r.json.paths)).not.toContain('/openapi.json');
  });

  it('serves the interactive page with its assets locally', async () => {
    const page = await call(service, '/docs', { token: null });
    expect(page.status).toBe(200);
    expect(page.text).toContain('SwaggerUIBundle');
    const asset = await fetch(`${service.url}/docs/swagger-ui-bundle.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expectEnvelope(await call(service, '/docs/..%2Fpackage.json', { token: null }), 404, 'NOT_FOUND');
  });
});
