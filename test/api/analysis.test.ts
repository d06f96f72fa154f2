import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../src/jobs/intake/file.js';
import { catalog } from '../../src/invoice/catalog.js';
import {
  blankScan,
  fixtureInvoice,
  grayTiff,
  imageOnlyPdf,
  invoicePdf,
  pdfBitmaps,
  pdfWithInvoiceXml,
  scannedJpegs,
  transparentPng,
} from '../reading/fixtures.js';
import { byName, call, expectEnvelope, services, type CallResult } from './client.js';

/**
 * The analysis endpoints over HTTP against the built service: the shared file
 * field rules, the V2 answer shape, OCR of scans, the async job lifecycle in
 * Temporal, and the V1 shape. OCR-heavy cases run on one service; the rules run
 * on both.
 */

const V2 = '/createJSONFromAnalysedPdf';
const ASYNC = '/createJSONFromAnalysedPdfAsync';
const STATUS = '/service-invoice-async-status';
const V1 = '/api/v1/zugferd/createJSONFromAnalysedPdf';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const invoice = fixtureInvoice('01-standard-19.json');
const pdf = await invoicePdf(invoice);
const pdfB64 = b64(pdf);
const [scan] = await scannedJpegs(pdf);
const total = Number(invoice.documentTotals!.invoiceTotalAmountWithVat);
const isoToGerman = (iso: string) => iso.split('-').reverse().join('.');

const HEIC = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic', 'latin1'), Buffer.alloc(64)]);
const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(64)]);

async function poll(service: (typeof services)[number], id: string, until = 120_000): Promise<CallResult> {
  const deadline = Date.now() + until;
  for (;;) {
    const r = await call(service, `${STATUS}?id=${id}`);
    if (r.status !== 200 || r.json.status !== 'processing' || Date.now() > deadline) return r;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe.each(services)('analysis input rules ($name)', (service) => {
  it('takes the file from pdfInvoiceBase64, then invoiceBase64, then fileBase64', async () => {
    const first = await call(service, V2, { body: { pdfInvoiceBase64: pdfB64, invoiceBase64: b64(GIF), fileBase64: 'not base64!' } });
    expect(first.status, first.text).toBe(200);
    const second = await call(service, V2, { body: { invoiceBase64: pdfB64, fileBase64: b64(GIF) } });
    expect(second.status, second.text).toBe(200);
    const third = await call(service, V2, { body: { fileBase64: pdfB64, withLineItems: false } });
    expect(third.status, third.text).toBe(200);
    expectEnvelope(await call(service, V2, { body: { invoiceBase64: b64(GIF), fileBase64: pdfB64 } }), 415, 'UNSUPPORTED_FILE_TYPE');
  });

  it('accepts a data: prefix and line breaks in the base64', async () => {
    const wrapped = `data:application/pdf;base64,${pdfB64.replace(/(.{76})/g, '$1\r\n')}`;
    const r = await call(service, V2, { body: { pdfInvoiceBase64: wrapped, withLineItems: false } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.invoice.invoiceNumber).toBe(invoice.invoiceNumber);
  });

  it('refuses a file above 11 MB at once, on every analysis endpoint', async () => {
    const big = b64(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(MAX_FILE_BYTES)]));
    for (const path of [V2, ASYNC, V1]) {
      const r = await call(service, path, { body: { pdfInvoiceBase64: big } });
      expectEnvelope(r, 413, 'FILE_TOO_LARGE');
      expect(r.ms).toBeLessThan(1000);
    }
  });

  it('names unsupported file types (HEIC, GIF) and refuses them fast', async () => {
    const heic = await call(service, V2, { body: { pdfInvoiceBase64: b64(HEIC) } });
    expectEnvelope(heic, 415, 'UNSUPPORTED_FILE_TYPE');
    expect(heic.json.error.userMessage).toMatch(/HEIC/);
    expect(heic.ms).toBeLessThan(1000);
    const gif = await call(service, V2, { body: { pdfInvoiceBase64: b64(GIF) } });
    expectEnvelope(gif, 415, 'UNSUPPORTED_FILE_TYPE');
    expect(gif.json.error.userMessage).toMatch(/GIF/);
  });

  it('refuses a missing file, bad base64 and unknown fields', async () => {
    expectEnvelope(await call(service, V2, { body: { withLineItems: true } }), 400, 'FILE_MISSING');
    expectEnvelope(await call(service, V2, { body: { pdfInvoiceBase64: '%%%' } }), 400, 'INVALID_BASE64');
    const typo = await call(service, V2, { body: { pdfInvoiceBase64: pdfB64, withLineItem: false } });
    expectEnvelope(typo, 400, 'VALIDATION_ERROR');
    expect(typo.json.error.fields[0].field).toContain('withLineItem');
  });

  it('accepts only PDF and TIFF for async jobs', async () => {
    const png = await call(service, ASYNC, { body: { pdfInvoiceBase64: b64(transparentPng('Rechnung')) } });
    expectEnvelope(png, 415, 'UNSUPPORTED_FILE_TYPE');
    expect(png.json.error.userMessage).toMatch(/PNG files are not accepted here; send PDF, TIFF/);
    expectEnvelope(await call(service, ASYNC, { body: { pdfInvoiceBase64: b64(scan!) } }), 415, 'UNSUPPORTED_FILE_TYPE');
  });

  it('accepts only "Authorization: Bearer" for async jobs', async () => {
    const body = JSON.stringify({ pdfInvoiceBase64: pdfB64 });
    const raw = await fetch(`${service.url}${ASYNC}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: service.token },
      body,
    });
    expect(raw.status).toBe(403);
    const header = await fetch(`${service.url}${ASYNC}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authtoken: service.token },
      body,
    });
    expect(header.status).toBe(403);
  });

  it('treats a status id that is not a UUID, or unknown, as not found', async () => {
    expectEnvelope(await call(service, `${STATUS}?id=not-a-uuid`), 404, 'NOT_FOUND');
    expectEnvelope(await call(service, `${STATUS}?id=${randomUUID()}`), 404, 'NOT_FOUND');
    expectEnvelope(await call(service, `${STATUS}?id=${encodeURIComponent("1' OR '1'='1")}`), 404, 'NOT_FOUND');
    expectEnvelope(await call(service, STATUS), 400, 'VALIDATION_ERROR');
  });
});

describe('analysis results', () => {
  const service = byName('sqlite');

  it('V2: reads a PDF with a text layer into the fields found: DD.MM.YYYY dates, amounts as numbers, line items by default', async () => {
    const r = await call(service, V2, { body: { pdfInvoiceBase64: pdfB64 } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.extractionConfidence).toBeGreaterThan(0.5);
    expect(r.json.extractionConfidence).toBeLessThanOrEqual(1);
    expect(r.json.invoice.invoiceNumber).toBe(invoice.invoiceNumber);
    expect(r.json.invoice.invoiceIssueDate).toBe(isoToGerman(invoice.invoiceIssueDate!));
    expect(r.json.invoice.documentTotals.invoiceTotalAmountWithVat).toBe(total);
    expect(r.json.invoice.invoiceLine.length).toBeGreaterThan(0);
    expect(typeof r.json.invoice.invoiceLine[0].invoiceLineNetAmount).toBe('number');
    // Per field: its confidence, whether it was printed, inferred or a default, and where a printed value stands.
    expect(r.json.fields.invoiceNumber).toEqual({
      confidence: expect.any(Number),
      source: 'printed',
      place: { page: 1, x: expect.any(Number), y: expect.any(Number), width: expect.any(Number), height: expect.any(Number) },
    });
    expect(r.json.fields['invoiceLine[0].invoiceLineNetAmount'].source).toBe('printed');
    for (const f of Object.values(r.json.fields) as Array<{ confidence: number; source: string }>) {
      expect(['printed', 'inferred', 'default']).toContain(f.source);
      expect(f.confidence).toBeGreaterThanOrEqual(0);
      expect(f.confidence).toBeLessThanOrEqual(1);
    }
    // Only the fields found: nothing null, nothing empty.
    expect(r.text).not.toMatch(/null|""|\[\]|\{\}/);
  });

  it('V2: leaves out invoiceLine when withLineItems is false', async () => {
    const r = await call(service, V2, { body: { pdfInvoiceBase64: pdfB64, withLineItems: false } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.invoice.invoiceLine).toBeUndefined();
    expect(r.json.invoice.documentTotals.invoiceTotalAmountWithVat).toBe(total);
  });

  it('V2: reads an office scan (JPEG) by OCR', { timeout: 120_000 }, async () => {
    const r = await call(service, V2, { body: { pdfInvoiceBase64: b64(scan!), withLineItems: false } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.invoice.invoiceNumber).toBe(invoice.invoiceNumber);
    expect(r.json.invoice.documentTotals.invoiceTotalAmountWithVat).toBe(total);
    expect(r.json.extractionConfidence).toBeLessThan(1);
  });

  it('V2: reads ZUGFeRD / Factur-X from the XML the PDF carries, with confidence 1', async () => {
    const r = await call(service, V2, { body: { pdfInvoiceBase64: b64(await pdfWithInvoiceXml(invoice)) } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.extractionConfidence).toBe(1);
    expect(r.json.fields).toBeUndefined();
    expect(r.json.invoice.seller.sellerVatIdentifier).toBe(invoice.seller!.sellerVatIdentifier);
    expect(r.json.invoice.invoiceLine).toHaveLength(invoice.invoiceLine!.length);
  });

  it('V2: a scan of a blank sheet is PDF_NO_TEXT', async () => {
    const r = await call(service, V2, { body: { pdfInvoiceBase64: b64(await blankScan()) } });
    expectEnvelope(r, 422, 'PDF_NO_TEXT');
    expect(r.json.error.stage).toBe('analyseDocument');
  });

  it('V1: answers apiStatus and an invoice with every field present', async () => {
    const r = await call(service, V1, { body: { pdfInvoiceBase64: pdfB64 } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.apiStatus).toBe(200);
    const v1 = r.json.invoice;
    expect(v1.invoiceNumber).toBe(invoice.invoiceNumber);
    expect(v1).toHaveProperty('tenderOrLotReference', null);
    expect(v1.seller.sellerPostalAddress).toHaveProperty('sellerCountrySubdivision');
    expect(v1.payee).toEqual({ payeeName: null, payeeIdentifier: null, payeeLegalRegistrationIdentifier: null });
    expect(v1.seller.sellerIdentifier).toEqual(expect.any(Array));
    expect(v1.invoiceLine[0]).toHaveProperty('invoiceLinePeriod.invoiceLinePeriodStartDate');
    // Every field of the invoice object outside lists is there, found or not.
    for (const { path } of catalog.filter((f) => !f.path.includes('[]'))) expect(v1, path).toHaveProperty(path);
    // V1 takes only pdfInvoiceBase64.
    expectEnvelope(await call(service, V1, { body: { fileBase64: pdfB64 } }), 400, 'VALIDATION_ERROR');
  });
});

describe('async analysis jobs', () => {
  const [owner, other] = [byName('sqlite'), byName('postgres')];
  let temporal: { client: Client; connection: Connection };
  beforeAll(async () => {
    const connection = await Connection.connect({ address: owner.temporalAddress });
    temporal = { connection, client: new Client({ connection, namespace: owner.namespace }) };
  });
  afterAll(() => temporal.connection.close());

  it(
    'runs a scanned multi-page TIFF: HTTP 200 processing at once, then done with the result; the job is the workflow',
    { timeout: 180_000 },
    async () => {
      const [page] = await pdfBitmaps(await imageOnlyPdf([scan!]), 200);
      const tiff = grayTiff([page!, page!]);
      const submitted = await call(owner, ASYNC, { body: { fileBase64: b64(tiff), withLineItems: false } });
      expect(submitted.status, submitted.text).toBe(200);
      expect(submitted.json).toEqual({ job_id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'processing' });
      expect(submitted.ms).toBeLessThan(2000);
      const id = submitted.json.job_id as string;

      const running = await call(owner, `${STATUS}?id=${id}`);
      expect(running.status).toBe(200);
      expect(['processing', 'done']).toContain(running.json.status);
      if (running.json.status === 'processing') {
        expect(running.json).toEqual({ job_id: id, status: 'processing' });
        expect(running.headers.get('retry-after')).toBe('3');
      }
      expect(running.ms).toBeLessThan(500);

      const done = await poll(owner, id);
      expect(done.json.status, done.text).toBe('done');
      expect(done.json.result.invoice.invoiceNumber).toBe(invoice.invoiceNumber);
      expect(done.json.result.invoice.invoiceLine).toBeUndefined();
      expect(done.json.result.extractionConfidence).toBeGreaterThan(0);

      const described = await temporal.client.workflow.getHandle(id).describe();
      expect(described.type).toBe('analyseInvoiceFile');
      expect(described.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value])).toEqual(
        expect.arrayContaining([
          ['EinvoiceOperation', 'createJSONFromAnalysedPdfAsync'],
          ['EinvoiceAccount', owner.accountId],
          ['EinvoiceOutcome', 'valid'],
        ]),
      );
      // Another account cannot see the job.
      expectEnvelope(await call(other, `${STATUS}?id=${id}`), 404, 'NOT_FOUND');
    },
  );

  it('reports a blank scan as failed with PDF_NO_TEXT, a message and the job id as reference', { timeout: 120_000 }, async () => {
    const blank = { width: 1654, height: 2339, data: new Uint8Array(1654 * 2339).fill(250) };
    const submitted = await call(owner, ASYNC, { body: { pdfInvoiceBase64: b64(grayTiff([blank])) } });
    expect(submitted.status, submitted.text).toBe(200);
    const failed = await poll(owner, submitted.json.job_id);
    expect(failed.json).toEqual({
      job_id: submitted.json.job_id,
      status: 'failed',
      error: {
        code: 'PDF_NO_TEXT',
        userMessage: expect.stringMatching(/text/),
        reference: submitted.json.job_id,
        message: failed.json.error.userMessage,
        resultStatus: 422,
      },
    });
  });
});
