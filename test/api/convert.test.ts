import { PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_CONVERT_FILE_BYTES } from '../../src/jobs/intake/file.js';
import type { Invoice } from '../../src/invoice/model.js';
import { findInvoiceAttachment, readPdf } from '../../src/pdf/read.js';
import { openStorage, type Storage } from '../../src/storage/index.js';
import { parseInvoiceXml } from '../../src/xml/index.js';
import { blankScan, fixtureInvoice, invoicePdf, scannedJpegs } from '../reading/fixtures.js';
import { byName, call, services, type CallResult } from './client.js';

/**
 * createZugferdFromPdf over HTTP against the built service: analysis → checks →
 * PDF/A-3 build → validation, answered as the raw PDF with its headers, or as
 * the JSON failure with an e-mail for the invoice owner.
 */

const CONVERT = '/createZugferdFromPdf';
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const invoice = fixtureInvoice('01-standard-19.json');
const pdf = b64(await invoicePdf(invoice));

const storages = new Map<string, Storage>();
async function storageOf(service: (typeof services)[number]): Promise<Storage> {
  let storage = storages.get(service.name);
  if (!storage)
    storages.set(service.name, (storage = await openStorage({ dataDir: service.dataDir, databaseUrl: service.env.DATABASE_URL })));
  return storage;
}
async function usageOf(service: (typeof services)[number]) {
  const all = await (await storageOf(service)).usage.list(service.accountId, { limit: 1000 });
  return all.filter((u) => u.operation.startsWith('createZugferdFromPdf'));
}
afterAll(async () => {
  for (const s of storages.values()) await s.close();
});

/** The failure answer (README, Analysis), with the e-mail, whatever went wrong: the RechnungsAPI client's code, our reason. */
function expectFailure(r: CallResult, status: number, code: string, reason: string): void {
  expect(r.status, r.text).toBe(status);
  expect(r.headers.get('content-type')).toContain('application/json');
  const { error, email } = r.json;
  expect(r.json.success).toBe(false);
  expect(error).toMatchObject({
    code,
    reason,
    httpStatus: status,
    retryable: expect.any(Boolean),
    userMessage: expect.any(String),
    reference: r.headers.get('x-request-id'),
    stage: expect.any(String),
  });
  expect(email.subject).toMatch(/not created|nicht erstellt/);
  expect(email.text).toContain(error.reference);
  expect(email.html).toContain('<p>');
  expect(r.headers.get('x-zugferd-status')).toBeNull();
}

async function embeddedInvoice(bytes: Buffer): Promise<Invoice> {
  const attachment = findInvoiceAttachment((await readPdf(bytes)).attachments);
  return parseInvoiceXml(Buffer.from(attachment!.bytes!).toString('utf8')).invoice;
}

describe.each(services)('createZugferdFromPdf ($name)', (service) => {
  it(
    'turns an invoice PDF into a validated ZUGFeRD PDF, answered raw with its headers; usage per page for analysis and build',
    { timeout: 180_000 },
    async () => {
      const r = await fetch(`${service.url}${CONVERT}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ pdfInvoiceBase64: pdf, fileName: 'Rechnung RE-2025-00101.pdf' }),
      });
      const bytes = Buffer.from(await r.arrayBuffer());
      expect(r.status, bytes.subarray(0, 2000).toString()).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/pdf');
      expect(r.headers.get('content-disposition')).toContain('filename="Rechnung RE-2025-00101-zugferd.pdf"');
      expect(r.headers.get('x-zugferd-status')).toBe('success');
      expect(r.headers.get('x-zugferd-reference')).toBe(r.headers.get('x-request-id'));
      expect(r.headers.get('x-zugferd-profile')).toBe('EN16931');
      expect(r.headers.get('x-zugferd-attachments')).toBe('kept=0, replaced=0, dropped=0');
      // A printout whose fonts keep to their widths is drawn in them, not in Ghostscript's.
      expect(r.headers.get('x-zugferd-substituted-fonts')).toBe('0');
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

      const facts = await readPdf(bytes);
      expect(facts.pageCount).toBe(1);
      expect(facts.xmp?.facts?.pdfaPart).toBe('3');
      const embedded = await embeddedInvoice(bytes);
      expect(embedded.invoiceNumber).toBe(invoice.invoiceNumber);
      // What the page did not print is named in the headers, and the inferred values in a note of the XML too.
      const inferred = r.headers.get('x-zugferd-inferred');
      expect(inferred).not.toBeNull();
      expect(r.headers.get('x-zugferd-defaults')).not.toBeNull();
      // Optional values read too unsurely to write (item descriptions and numbers, the registration number
      // beside a VAT id, terms beside a due date) are named, even when none was.
      const omitted = r.headers.get('x-zugferd-omitted');
      expect(omitted).not.toBeNull();
      expect(omitted!.split(', ').filter((bt) => bt && !['BT-20', 'BT-30', 'BT-154', 'BT-155'].includes(bt))).toEqual([]);
      const terms = inferred ? inferred.split(', ') : [];
      const note = embedded.invoiceNote?.map((n) => n.invoiceNote).find((n) => n?.startsWith('Converted from a PDF'));
      if (terms.length) for (const bt of terms) expect(note).toContain(bt);
      else expect(note).toBeUndefined();
      expect(embedded.documentTotals?.invoiceTotalAmountWithVat).toBe(invoice.documentTotals!.invoiceTotalAmountWithVat);
      expect(embedded.invoiceLine).toHaveLength(invoice.invoiceLine!.length);

      // The stored document is the one this request's workflow made; its usage is what was billed.
      const { documents } = await (await storageOf(service)).documents.list(service.accountId, { limit: 100 });
      const document = documents.find((d) => d.workflowId === `createZugferdFromPdf-${r.headers.get('x-zugferd-reference')}`);
      expect(document).toMatchObject({ kind: 'zugferd-pdf', fileName: 'Rechnung RE-2025-00101-zugferd.pdf', size: bytes.length });
      const mine = (await usageOf(service)).filter((u) => u.documentId === document!.id);
      expect(mine.map((u) => [u.operation, u.units]).sort()).toEqual([
        ['createZugferdFromPdf.analysis', 1],
        ['createZugferdFromPdf.build', 1],
      ]);
    },
  );
});

describe('createZugferdFromPdf refusals', () => {
  const service = byName('sqlite');

  it('asks a person to confirm what a scan read, rather than writing it unchecked into an e-invoice', { timeout: 240_000 }, async () => {
    const [scan] = await scannedJpegs(await invoicePdf(invoice));
    const r = await call(service, CONVERT, { body: { fileBase64: b64(scan!), fileName: 'scan.jpg' } });
    expectFailure(r, 422, 'EXTRACTION_LOW_CONFIDENCE', 'FIELDS_UNCERTAIN');
    // Each value below the scan certainty (src/conversion/convertible.ts) is named with what was read.
    const fields: Array<{ field: string; bt: string; value?: string }> = r.json.error.fields;
    expect(fields.length).toBeGreaterThan(0);
    for (const f of fields) expect(f.field).toMatch(/^invoice\./);
    expect(fields.some((f) => f.value !== undefined)).toBe(true);
  });

  it(
    'keeps a file the invoice PDF carries as a PDF/A-3 associated file instead of refusing the invoice',
    { timeout: 180_000 },
    async () => {
      const doc = await PDFDocument.load(await invoicePdf(invoice));
      await doc.attach(Buffer.from('Lieferschein 4711: 10 Stück'), 'lieferschein.txt', { description: 'Lieferschein' });
      // As many PDF writers do: no MIME type, no relationship.
      doc.context.enumerateIndirectObjects().forEach(([, obj]) => {
        if (obj instanceof PDFDict && obj.get(PDFName.of('Type')) === PDFName.of('Filespec')) obj.delete(PDFName.of('AFRelationship'));
        if (obj instanceof PDFRawStream && obj.dict.get(PDFName.of('Type')) === PDFName.of('EmbeddedFile'))
          obj.dict.delete(PDFName.of('Subtype'));
      });
      const r = await fetch(`${service.url}${CONVERT}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ pdfInvoiceBase64: b64(await doc.save()), fileName: 'mit-anhang.pdf' }),
      });
      const bytes = Buffer.from(await r.arrayBuffer());
      expect(r.status, bytes.subarray(0, 3000).toString()).toBe(200);
      expect(r.headers.get('x-zugferd-attachments')).toBe('kept=1, replaced=0, dropped=0');
      expect((await readPdf(bytes)).attachments.map((a) => a.name).sort()).toEqual(['factur-x.xml', 'lieferschein.txt']);
    },
  );

  it('refuses when the printed total does not match the lines, and bills nothing', { timeout: 120_000 }, async () => {
    const wrong = structuredClone(invoice);
    wrong.documentTotals = { ...wrong.documentTotals, invoiceTotalAmountWithVat: '592.75', amountDueForPayment: '592.75' };
    const before = await usageOf(service);
    const r = await call(service, CONVERT, { body: { pdfInvoiceBase64: b64(await invoicePdf(wrong)), fileName: 'Rechnung 4711.pdf' } });
    expectFailure(r, 422, 'VERIFICATION_FAILED', 'TOTALS_MISMATCH');
    expect(r.json.error).toMatchObject({ stage: 'verify', step: 'prepareZugferdInvoice' });
    expect(r.json.error.fields).toEqual(
      expect.arrayContaining([expect.objectContaining({ bt: 'BT-112', message: expect.stringContaining('592.75') })]),
    );
    // The invoice is German: so is what its owner reads.
    expect(r.json.error.userMessage).toMatch(/^Die Summen auf der Rechnung passen nicht zu den Positionen \(BT-112/);
    expect(r.json.email.subject).toBe('E-Rechnung nicht erstellt: Rechnung 4711.pdf');
    expect(r.json.email.text).toContain('BT-112');
    expect(await usageOf(service)).toEqual(before);
  });

  it('refuses when a mandatory field is not on the page, naming it and its business term', { timeout: 120_000 }, async () => {
    const noTaxId = structuredClone(invoice);
    delete noTaxId.seller!.sellerVatIdentifier;
    delete noTaxId.seller!.sellerTaxRegistrationIdentifier;
    const r = await call(service, CONVERT, { body: { pdfInvoiceBase64: b64(await invoicePdf(noTaxId)) } });
    expectFailure(r, 422, 'MISSING_MANDATORY_FIELDS', 'FIELDS_MISSING');
    expect(r.json.error.stage).toBe('missing');
    expect(r.json.error.fields).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'invoice.seller.sellerVatIdentifier', bt: 'BT-31' })]),
    );
    expect(r.json.error.userMessage).toContain('die USt-IdNr. oder Steuernummer des Verkäufers');
    expect(r.json.email.subject).toBe('E-Rechnung nicht erstellt: invoice.pdf');
    expect(r.json.email.html).toContain('BT-31');
  });

  it('refuses a blank scan with PDF_NO_TEXT from the analysis step', { timeout: 120_000 }, async () => {
    const r = await call(service, CONVERT, { body: { pdfInvoiceBase64: b64(await blankScan()), fileName: 'leer.jpg' } });
    expectFailure(r, 422, 'PDF_NO_TEXT', 'PDF_NO_TEXT');
    expect(r.json.error).toMatchObject({ stage: 'analyse', step: 'analyseDocument' });
  });

  it('answers input problems in the same shape, e-mail included, at once', async () => {
    const big = b64(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(MAX_CONVERT_FILE_BYTES)]));
    const tooLarge = await call(service, CONVERT, { body: { pdfInvoiceBase64: big } });
    expectFailure(tooLarge, 413, 'FILE_TOO_LARGE', 'FILE_TOO_LARGE');
    expect(tooLarge.json.error.stage).toBe('input');
    // Refused while the body is read, before any workflow starts (1.6 s seen for 15 MB of base64 under heavy load).
    expect(tooLarge.ms).toBeLessThan(3000);

    const gif = await call(service, CONVERT, { body: { invoiceBase64: b64(Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(32)])) } });
    expectFailure(gif, 415, 'INVALID_REQUEST', 'UNSUPPORTED_FILE_TYPE');
    expectFailure(await call(service, CONVERT, { body: { fileName: 'x.pdf' } }), 400, 'INVALID_REQUEST', 'FILE_MISSING');
    const typo = await call(service, CONVERT, { body: { pdfInvoiceBase64: pdf, filename: 'x.pdf' } });
    expectFailure(typo, 400, 'INVALID_REQUEST', 'VALIDATION_ERROR');
    expect(typo.json.error.fields[0].field).toContain('filename');
  });

  it('sanitises the file name: control characters, quotes and backslashes to spaces, "/" to "_", 200 characters', async () => {
    const gif = b64(Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(32)]));
    const odd = await call(service, CONVERT, { body: { pdfInvoiceBase64: gif, fileName: 'a/b\\c"d\u0001e.pdf' } });
    expect(odd.json.email.subject).toBe('E-invoice not created: a_b c d e.pdf');
    const long = await call(service, CONVERT, { body: { pdfInvoiceBase64: gif, fileName: `${'x'.repeat(300)}.pdf` } });
    expect(long.json.email.subject).toBe(`E-invoice not created: ${'x'.repeat(200)}`);
  });
});
