import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import PostalMime from 'postal-mime';
import { repoRoot } from '../../scripts/lib/spawn-service.js';
import { afterAll, describe, expect, it } from 'vitest';
import { ZUGFERD_PROFILES } from '../../src/pdf/profiles.js';
import { mustangAvailable, mustangRejects, runVeraPdf, veraPdfAvailable } from '../support/java-validators.js';
import { samplePdf } from '../pdf/sample-pdf.js';
import { invoiceFixture } from '../xml/fixtures.js';
import { call, expectEnvelope, services } from './client.js';

/**
 * The ZUGFeRD endpoints end to end, against the built service and its workflows. Every PDF the
 * service creates here is written out and, at the end, judged by veraPDF (PDF/A-3b) and the
 * Mustang CLI; the verdicts are asserted, not just run.
 */

const FROM_JSON = '/api/v1/zugferd/createZugferdFromJson';
const FROM_XML = '/api/v1/zugferd/createZugferdPdfFromXinvoice';
const VALIDATE = '/api/v1/zugferd/validateZugferdPdf';
const EXTRACT = '/api/v1/zugferd/extractXinvoiceFromZugferdToJson';

const fixture = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../fixtures/invoices/01-standard-19.json'), 'utf8'));
const invoice = invoiceFixture('01-standard-19');
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

const outDir = mkdtempSync(path.join(tmpdir(), 'zugferd-api-'));
const created: string[] = [];
const keep = (name: string, base64: string) => {
  const file = path.join(outDir, `${name}.pdf`);
  writeFileSync(file, Buffer.from(base64, 'base64'));
  created.push(file);
  return file;
};
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const plain = b64(await samplePdf(invoice));
const withEmbeddedFont = b64(await samplePdf(invoice, { font: 'embedded' }));
const twentyPages = b64(await samplePdf(invoice, { pages: 20 }));
/**
 * 200 MB of zeros compress to about 200 KB. Built before any request: compressing blocks the
 * event loop for seconds, and a kept-alive connection that the server closes meanwhile would be
 * reused before the client notices ("other side closed"), a failure of the test, not the service.
 */
const decompressionBomb = await (async () => {
  const doc = await PDFDocument.load(await samplePdf(invoice));
  const bomb = doc.context.register(
    doc.context.flateStream(new Uint8Array(200 * 1024 * 1024), { Type: 'EmbeddedFile', Subtype: 'text/xml' }),
  );
  const spec = doc.context.register(doc.context.obj({ Type: 'Filespec', F: PDFString.of('factur-x.xml'), EF: { F: bomb } }));
  doc.catalog.set(PDFName.of('Names'), doc.context.obj({ EmbeddedFiles: { Names: [PDFString.of('factur-x.xml'), spec] } }));
  return b64(await doc.save());
})();

describe.each(services)('ZUGFeRD endpoints ($name)', (service) => {
  it.each(ZUGFERD_PROFILES)(
    'createZugferdFromJson %s: converts a non-PDF/A input and embeds the profile XML',
    { timeout: 120_000 },
    async (profile) => {
      const r = await call(service, FROM_JSON, { body: { invoice: fixture, invoicePdf64: plain, profile } });
      expect(r.status, r.text).toBe(200);
      expect(r.json, JSON.stringify([r.json.zugferdErrorList, r.json.xInvoiceErrorList])).toMatchObject({
        zugferdValid: true,
        xInvoiceValid: true,
        numberOfZugferdErrors: 0,
        numberOfxInvoiceErrors: 0,
        profile,
        convertedToPdfA: true,
        substitutedFonts: 0,
      });
      expect(r.json.xInvoice).toContain('CrossIndustryInvoice');
      expect(r.json.validationArtefacts.map((a: { name: string }) => a.name)).toContain('veraPDF PDF/A-3B');
      // The embedded XML is judged under its profile's scenario, XRechnung's where BT-24 names XRechnung.
      expect(r.json.scenario.id).toBe(profile === 'XRECHNUNG' ? 'xrechnung-cii' : `factur-x-${profile.toLowerCase()}-cii`);
      keep(`${service.name}-json-${profile}`, r.json.zugferd);

      const download = await fetch(r.json.downloadURL);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('application/pdf');
      expect(Buffer.from(await download.arrayBuffer()).toString('base64')).toBe(r.json.zugferd);
      expect(r.json.resendToken).toMatch(/^[0-9a-f-]{36}\.\S+$/);
    },
  );

  it('createZugferdPdfFromXinvoice embeds the caller’s XRechnung CII unchanged', { timeout: 120_000 }, async () => {
    const xml = (await call(service, '/api/v1/zugferd/createXinvoiceFromJson', { body: { invoice: fixture } })).json.xInvoice as string;
    const r = await call(service, FROM_XML, { body: { xInvoiceXml: xml, invoicePdf64: withEmbeddedFont, fileName: 'rechnung.pdf' } });
    expect(r.status, r.text).toBe(200);
    expect(r.json, JSON.stringify(r.json.zugferdErrors)).toMatchObject({ valid: true, numberOfZugferdErrors: 0, profile: 'XRECHNUNG' });
    keep(`${service.name}-xml-xrechnung`, r.json.zugferdFile);
    const download = await fetch(r.json.downloadURL);
    expect(download.headers.get('content-disposition')).toContain('rechnung.pdf');

    const extracted = await call(service, EXTRACT, { body: { zugferd64: r.json.zugferdFile } });
    expect(extracted.status, extracted.text).toBe(200);
    expect(extracted.json).toMatchObject({ xInvoice: xml, fileName: 'xrechnung.xml', profile: 'XRECHNUNG', syntax: 'CII' });
    expect(extracted.json.invoice).toMatchObject({
      invoiceNumber: fixture.invoiceNumber,
      documentTotals: { invoiceTotalAmountWithVat: fixture.documentTotals.invoiceTotalAmountWithVat },
    });
  });

  it('keeps a PDF/A input as it is, replacing its invoice, and builds a 20-page invoice', { timeout: 180_000 }, async () => {
    const first = await call(service, FROM_JSON, { body: { invoice: fixture, invoicePdf64: twentyPages } });
    expect(first.status, first.text).toBe(200);
    keep(`${service.name}-json-20-pages`, first.json.zugferd);
    const again = await call(service, FROM_JSON, { body: { invoice: fixture, invoicePdf64: first.json.zugferd, profile: 'BASIC' } });
    expect(again.status, again.text).toBe(200);
    expect(first.json.attachments).toEqual([]);
    expect(again.json).toMatchObject({
      zugferdValid: true,
      convertedToPdfA: false,
      profile: 'BASIC',
      attachments: [{ fileName: 'factur-x.xml', action: 'replaced' }],
    });
    const doc = await PDFDocument.load(Buffer.from(again.json.zugferd, 'base64'));
    expect(doc.getPageCount()).toBe(20);
    keep(`${service.name}-json-pdfa-input`, again.json.zugferd);
  });

  it('validateZugferdPdf: a created file is valid, printout included; a plain PDF is not', { timeout: 120_000 }, async () => {
    const made = await call(service, FROM_JSON, { body: { invoice: fixture, invoicePdf64: plain } });
    const ok = await call(service, VALIDATE, { body: { zugferdFile64: made.json.zugferd, comparePDF2XML: true } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json, JSON.stringify(ok.json.findings)).toMatchObject({
      isValid: true,
      pdfValid: true,
      xmlValid: true,
      numberOfErrors: 0,
      profile: 'EN16931',
      xmlFileName: 'factur-x.xml',
    });

    const bad = await call(service, VALIDATE, { body: { zugferdFile64: plain } });
    expect(bad.status, bad.text).toBe(200);
    expect(bad.json.isValid).toBe(false);
    const ruleIds = (bad.json.findings as Array<{ ruleId: string; source: string }>).map((f) => f.ruleId);
    expect(ruleIds).toEqual(expect.arrayContaining(['ZF-XML-MISSING', 'PDF-FONT-NOT-EMBEDDED']));
    expect(bad.json.numberOfErrors).toBeGreaterThan(0);
  });

  it('extraction round-trips the invoice of a created file', { timeout: 120_000 }, async () => {
    const made = await call(service, FROM_JSON, { body: { invoice: fixture, invoicePdf64: plain, profile: 'EXTENDED' } });
    const r = await call(service, EXTRACT, { body: { zugferd64: made.json.zugferd } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({
      profile: 'EXTENDED',
      fileName: 'factur-x.xml',
      xInvoice: made.json.xInvoice,
      generation: 'Factur-X 1.0 / ZUGFeRD 2.x',
    });
    expect(r.json.invoice.invoiceNumber).toBe(fixture.invoiceNumber);
    expect(r.json.invoice.invoiceLine).toHaveLength(fixture.invoiceLine.length);
  });

  it('sends the created PDF by e-mail in the same call (transport), or says it sent nothing', { timeout: 120_000 }, async () => {
    // An account of its own: sender rules are per account, and the e-mail tests check the shared account's rules exactly.
    const cli = async (...args: string[]) =>
      JSON.parse(
        (
          await promisify(execFile)(process.execPath, [path.join(repoRoot, 'dist/src/cli/accounts.js'), ...args, '--json'], {
            cwd: repoRoot,
            env: service.env,
          })
        ).stdout,
      );
    const { id } = await cli('create-account', '--name', 'zugferd mail');
    const { token } = await cli('create-token', '--account', id);
    await cli('allow-sender', '--account', id, '--sender', 'zugferd.example');
    const transport = {
      type: 'email',
      useTransport: true,
      sender: 'rechnung@zugferd.example',
      senderName: 'Rechnungen',
      receiver: 'kunde@customer.example',
      subject: 'Rechnung {invoicenumber}',
      message: 'Anbei Rechnung {invoicenumber}.',
    };
    const r = await call(service, FROM_JSON, { token, body: { invoice: fixture, invoicePdf64: plain, transport } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.transport).toMatchObject({
      status: 'sent',
      send: { documentId: r.json.documentId, subject: `Rechnung ${fixture.invoiceNumber}` },
    });
    const eml = /written to the outbox as (\S+\.eml)/.exec(r.json.transport.send.response)![1]!;
    const mail = await PostalMime.parse(await readFile(path.join(service.dataDir, 'outbox', eml)));
    expect(mail.attachments.map((a) => a.mimeType)).toEqual(['application/pdf']);
    expect(Buffer.from(mail.attachments[0]!.content as ArrayBuffer).toString('base64')).toBe(r.json.zugferd);

    const skipped = await call(service, FROM_JSON, {
      token,
      body: { invoice: fixture, invoicePdf64: plain, transport: { type: 'email', useTransport: false } },
    });
    expect(skipped.json.transport).toMatchObject({ status: 'skipped' });
  });

  it('refuses what it cannot use, with the error envelope', { timeout: 120_000 }, async () => {
    expectEnvelope(await call(service, EXTRACT, { body: { zugferd64: plain } }), 422, 'INVOICE_XML_MISSING');
    const ubl = (await call(service, '/api/v1/zugferd/createXinvoiceFromJson', { body: { invoice: fixture, syntax: 'UBL' } })).json
      .xInvoice as string;
    expectEnvelope(await call(service, FROM_XML, { body: { xInvoiceXml: ubl, invoicePdf64: plain } }), 422, 'XML_NOT_ZUGFERD');
    expectEnvelope(
      await call(service, FROM_JSON, { body: { invoice: fixture, invoicePdf64: b64(Buffer.from('%PDF-1.7\nthis is not a PDF\n%%EOF')) } }),
      422,
      'PDF_UNREADABLE',
    );
    expectEnvelope(
      await call(service, FROM_JSON, { body: { invoice: fixture, invoicePdf64: b64(Buffer.from('GIF89a')) } }),
      415,
      'UNSUPPORTED_FILE_TYPE',
    );
    expectEnvelope(
      await call(service, FROM_JSON, { body: { invoice: fixture, invoicePdf64: plain, profile: 'COMFORT' } }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('survives a decompression bomb posing as the invoice XML, and keeps serving', { timeout: 120_000 }, async () => {
    const r = await call(service, VALIDATE, { body: { zugferdFile64: decompressionBomb } });
    expect(r.status, r.text).toBe(200);
    expect((r.json.findings as Array<{ ruleId: string; message: string }>).find((f) => f.ruleId === 'ZF-XML-MISSING')?.message).toContain(
      'exceeds',
    );
    expect((await call(service, EXTRACT, { body: { zugferd64: plain } })).status).toBe(422);
  });
});

describe.runIf(veraPdfAvailable() && mustangAvailable())('every PDF the service created above', () => {
  it('passes veraPDF PDF/A-3b and the Mustang validation', { timeout: 900_000 }, async () => {
    expect(created.length).toBe(services.length * (ZUGFERD_PROFILES.length + 3));
    const vera = await runVeraPdf(created);
    expect(vera.filter((v) => !v.compliant).map((v) => `${path.basename(v.file)}: ${JSON.stringify(v.failedRules)}`)).toEqual([]);
    expect(await mustangRejects(created)).toEqual([]);
  });
});
