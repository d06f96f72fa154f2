import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_CONVERT_FILE_BYTES } from '../../src/jobs/intake/file.js';
import { blankScan, fixtureInvoice, invoicePdf, pdfWithInvoiceXml } from '../reading/fixtures.js';
import { byName } from './client.js';
import { ClientError, MissingDataError, RechnungsApiClient, type ConversionResult } from './rechnungsapi-contract.js';

/**
 * The public RechnungsAPI client pointed at this service: every method with exactly the request
 * the client makes (rechnungsapi-contract.ts), its answer read through exactly the fields the
 * client reads, against the real service. Failure paths included: 401/403, an unknown job, 412,
 * a failed job, and createZugferdFromPdf's codes.
 */

const service = byName('sqlite');
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const invoice = fixtureInvoice('01-standard-19.json');
const pdf = b64(await invoicePdf(invoice));
const client = () => new RechnungsApiClient({ apiToken: service.token, baseUrl: service.url, v2BaseUrl: `${service.v2Url}///` });
const tmp = mkdtempSync(path.join(os.tmpdir(), 'rechnungsapi-client-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The client's own failure, or the value when it did not fail. */
async function failureOf(call: Promise<unknown>): Promise<ClientError> {
  const outcome = await call.then(
    (value) => value,
    (err: unknown) => err,
  );
  if (!(outcome instanceof ClientError)) throw new Error(`expected the client to throw, got ${JSON.stringify(outcome).slice(0, 500)}`);
  return outcome;
}

async function poll(c: RechnungsApiClient, id: string): Promise<any> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const status = await c.getAnalysisStatus(id);
    if (status.status !== 'processing' || Date.now() > deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe('RechnungsAPI client: requests', () => {
  it('sends what the client sends: gateway paths under api/v1/zugferd, V2 paths at the root, Bearer and JSON headers', async () => {
    const c = client();
    await c.createXRechnungFromJson(invoice);
    await c.getAnalysisStatus('00000000-0000-4000-8000-000000000000').catch(() => undefined);
    const [create, status] = c.sent;
    expect(create).toMatchObject({
      method: 'POST',
      url: `${service.url}/api/v1/zugferd/createXinvoiceFromJson`,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${service.token}` },
      body: { invoice },
    });
    expect(status).toMatchObject({
      method: 'GET',
      url: `${service.v2Url}/rechnungsapi-invoice-async-status?id=00000000-0000-4000-8000-000000000000`,
      headers: { Authorization: `Bearer ${service.token}` },
    });
  });
});

describe('RechnungsAPI client: create and validate', () => {
  it('createXRechnungFromJson (and its old name) creates the XML; validateXRechnungXml reads isValid and the messages', async () => {
    const c = client();
    const created = (await c.createXRechnungFromJson(invoice)) as any;
    expect(created).toMatchObject({ valid: true, numberOfXInvoiceErrors: 0 });
    expect((await c.createXInvoiceFromJson(invoice)) as any).toMatchObject({ valid: true });
    expect(c.sent[1]).toEqual(c.sent[0]);

    const valid = await c.validateXRechnungXml(created.xInvoice);
    expect(valid).toMatchObject({ isValid: true, message: 'The document is valid.' });
    expect(valid.details.xInvoiceErrors).toEqual([]);
    expect(await c.validateXInvoiceXml(created.xInvoice)).toEqual(valid);
    expect(c.sent.at(-1)).toEqual(c.sent.at(-2));
  });

  it('validateXRechnungXml gives every finding once, as { type, message, location, schemaFile, id, line }', async () => {
    const c = client();
    const created = (await c.createXRechnungFromJson(invoice)) as any;
    const wrongSum = (created.xInvoice as string).replace(/<ram:DuePayableAmount>[^<]+</, '<ram:DuePayableAmount>0.01<');
    const result = await c.validateXRechnungXml(wrongSum);
    const raw = (c.sent.at(-1)!.body as { xinvoiceXML: string }).xinvoiceXML;
    expect(raw).toBe(wrongSum);
    expect(result.isValid).toBe(false);
    expect(result.message).toMatch(/invalid: \d+ error/);
    const errors = result.details.xInvoiceErrors as typeof result.messages;
    expect(errors.length).toBeGreaterThan(0);
    const rule = errors.find((m) => m.id.startsWith('BR-CO-'))!;
    expect(rule).toMatchObject({
      type: 'error',
      location: expect.stringMatching(/^\//),
      schemaFile: expect.stringMatching(/^CEN EN 16931 schematron \(CII\) \d/),
    });
    // The line of the element the XPath names, in the document as sent.
    expect(wrongSum.split('\n')[Number(rule.line) - 1]).toMatch(/SpecifiedTradeSettlementHeaderMonetarySummation/);
    for (const m of result.messages)
      expect(Object.keys(m).filter((k) => ['type', 'message', 'location', 'schemaFile', 'id', 'line'].includes(k))).toHaveLength(6);

    // Every finding once: the client lists messages and xInvoiceErrors together, and they are the findings we keep.
    const answer = await (
      await fetch(c.sent.at(-1)!.url, { method: 'POST', headers: c.sent.at(-1)!.headers, body: JSON.stringify(c.sent.at(-1)!.body) })
    ).json();
    expect(result.messages.map((m) => m.id).sort()).toEqual(answer.findings.map((f: { ruleId: string }) => f.ruleId).sort());

    const broken = await c.validateXRechnungXml('<rsm:CrossIndustryInvoice>\n<x>');
    expect(broken.messages[0]).toMatchObject({
      type: 'error',
      id: 'XML-NOT-WELL-FORMED',
      line: expect.stringMatching(/^\d+$/),
      schemaFile: '',
    });
  });

  it('a create call without the mandatory fields is a ValidationFailedError (412) naming each field, its business term and JSON path', async () => {
    const incomplete = structuredClone(invoice) as Record<string, any>;
    delete incomplete.invoiceNumber;
    delete incomplete.seller.sellerName;
    delete incomplete.invoiceLine[0].itemInformation;
    for (const call of [
      (c: RechnungsApiClient) => c.createXRechnungFromJson(incomplete),
      (c: RechnungsApiClient) => c.createZugferdFromJson(incomplete, pdf),
    ]) {
      const err = await failureOf(call(client()));
      expect(err).toBeInstanceOf(MissingDataError);
      const missing = err as MissingDataError;
      expect(missing.status).toBe(412);
      expect(missing.message).toMatch(/mandatory/);
      expect(missing.noOfMissingData).toBe(3);
      expect(missing.errorlist).toEqual([
        expect.objectContaining({ field: 'invoice.invoiceNumber', bt: 'BT-1' }),
        expect.objectContaining({ field: 'invoice.seller.sellerName', bt: 'BT-27' }),
        expect.objectContaining({ field: 'invoice.invoiceLine[0].itemInformation.itemName', bt: 'BT-153' }),
      ]);
      expect((missing.body as any).error).toMatchObject({ code: 'INVOICE_INCOMPLETE', reference: expect.any(String) });
    }
    const noLines = structuredClone(invoice) as Record<string, any>;
    delete noLines.invoiceLine;
    const err = (await failureOf(client().createXRechnungFromJson(noLines))) as MissingDataError;
    expect(err.errorlist).toEqual([expect.objectContaining({ field: 'invoice.invoiceLine', bt: 'BG-25' })]);
  });

  it(
    'createZugferdFromJson, createZugferdPdf, extractXRechnungFromZugferd and validateZugferdPdf (with and without comparePDF2XML)',
    { timeout: 240_000 },
    async () => {
      const c = client();
      const fromJson = (await c.createZugferdFromJson(invoice, pdf)) as any;
      expect(fromJson).toMatchObject({ zugferdValid: true, xInvoiceValid: true });
      const fromXml = (await c.createZugferdPdf(pdf, fromJson.xInvoice)) as any;
      expect(fromXml.valid).toBe(true);
      const extracted = (await c.extractXRechnungFromZugferd(fromXml.zugferdFile)) as any;
      expect(extracted.invoice.invoiceNumber).toBe(invoice.invoiceNumber);
      expect((await c.extractXInvoiceFromZugferd(fromXml.zugferdFile)) as any).toMatchObject({
        invoice: { invoiceNumber: invoice.invoiceNumber },
      });
      expect((await c.validateZugferdPdf(fromJson.zugferd)) as any).toMatchObject({ isValid: true });
      expect((await c.validateZugferdPdf(fromJson.zugferd, { comparePDF2XML: true })) as any).toMatchObject({ isValid: true });
      expect(
        c.sent.filter((s) => s.url.endsWith('/validateZugferdPdf')).map((s) => (s.body as { comparePDF2XML: boolean }).comparePDF2XML),
      ).toEqual([false, true]);
      // Extraction speaks ISO dates and string amounts; the create endpoints take that back as it is.
      expect(extracted.invoice.invoiceIssueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect((await c.createXRechnungFromJson(extracted.invoice)) as any).toMatchObject({ valid: true });
    },
  );
});

describe('RechnungsAPI client: analysis', () => {
  it(
    'V1 and V2 analysis answers go back into createXRechnungFromJson as they are (nulls, DD.MM.YYYY, numbers)',
    { timeout: 180_000 },
    async () => {
      const c = client();
      const carrier = b64(await pdfWithInvoiceXml(invoice));
      const v1 = (await c.analyzePdfInvoice(carrier)) as any;
      expect(v1.invoice.vatAccountingCurrencyCode).toBeNull();
      expect(v1.invoice.invoiceIssueDate).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
      const v2 = (await c.analyzePdfInvoiceV2(carrier, true)) as any;
      expect(typeof v2.invoice.documentTotals.invoiceTotalAmountWithVat).toBe('number');
      for (const analysed of [v1.invoice, v2.invoice]) {
        const created = (await c.createXRechnungFromJson(analysed)) as any;
        expect(created.valid, JSON.stringify(created.xInvoiceErrors)).toBe(true);
        expect(created.xInvoice).toContain(`<ram:ID>${invoice.invoiceNumber}</ram:ID>`);
      }
      // From the printed page: what is created, or refused only for what the page really lacks.
      const printed = (await c.analyzePdfInvoiceV2(pdf, true)) as any;
      const outcome = await c.createXRechnungFromJson(printed.invoice).catch((err: unknown) => err);
      if (outcome instanceof MissingDataError) {
        for (const item of outcome.errorlist as Array<{ field: string }>) {
          const value = item.field
            .replace(/^invoice\./, '')
            .split(/\.|\[(\d+)\]\.?/)
            .filter(Boolean)
            .reduce<any>((o, k) => o?.[k], printed.invoice);
          expect(value, item.field).toBeUndefined();
        }
      } else expect(outcome).toMatchObject({ xInvoice: expect.stringContaining('CrossIndustryInvoice') });
    },
  );

  it(
    "analyzePdfInvoiceAsync and getAnalysisStatus at the client's path, the job id in any case; an unknown job is a 404 with its reason",
    { timeout: 180_000 },
    async () => {
      const c = client();
      const submitted = await c.analyzePdfInvoiceAsync(pdf);
      expect(c.sent[0]!.body).toEqual({ pdfInvoiceBase64: pdf });
      expect(submitted).toMatchObject({ job_id: expect.any(String), status: 'processing' });
      const done = await poll(c, submitted.job_id.toUpperCase());
      expect(done).toMatchObject({
        job_id: submitted.job_id,
        status: 'done',
        result: { extractionConfidence: expect.any(Number), invoice: { invoiceNumber: invoice.invoiceNumber } },
      });

      const unknown = await failureOf(c.getAnalysisStatus('6f1c2a8e-0000-4000-8000-000000000000'));
      expect(unknown.status).toBe(404);
      expect(unknown.message).toMatch(/no such job/);
      expect((await failureOf(c.getAnalysisStatus('not a uuid/../x'))).status).toBe(404);
      expect(c.sent.at(-1)!.url).toBe(`${service.v2Url}/rechnungsapi-invoice-async-status?id=not%20a%20uuid%2F..%2Fx`);
    },
  );

  it(
    'a failed async job carries error.message and error.resultStatus beside code, userMessage and reference',
    { timeout: 180_000 },
    async () => {
      const c = client();
      const broken = b64(
        Buffer.concat([
          Buffer.from('%PDF-1.7\n'),
          Buffer.from('1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n'.repeat(3)),
          Buffer.from('%%EOF'),
        ]),
      );
      const submitted = await c.analyzePdfInvoiceAsync(broken, false);
      expect(c.sent[0]!.body).toEqual({ pdfInvoiceBase64: broken, withLineItems: false });
      const failed = await poll(c, submitted.job_id);
      expect(failed.status).toBe('failed');
      expect(failed.error).toMatchObject({
        code: expect.any(String),
        userMessage: expect.any(String),
        reference: submitted.job_id,
        resultStatus: 422,
      });
      expect(failed.error.message).toBe(failed.error.userMessage);
    },
  );

  it('a wrong token is a 401 and a token the client does not send as Bearer a 403, both with the reason from error.userMessage', async () => {
    const wrong = new RechnungsApiClient({ apiToken: 'einv_unknown', baseUrl: service.url, v2BaseUrl: service.v2Url });
    const unauthorised = await failureOf(wrong.analyzePdfInvoiceV2(pdf));
    expect(unauthorised.status).toBe(401);
    expect(unauthorised.message).toBe((unauthorised.body as any).error.userMessage);
    const forbidden = await fetch(`${service.v2Url}/createJSONFromAnalysedPdf`, {
      method: 'POST',
      headers: { authorization: service.token, 'content-type': 'application/json' },
      body: JSON.stringify({ pdfInvoiceBase64: pdf }),
    });
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json()).error.userMessage).toMatch(/Bearer/);
  });
});

describe('RechnungsAPI client: createZugferdFromPdf', () => {
  const failed = (result: ConversionResult) => {
    if (result.ok) throw new Error('expected a failure, got a PDF');
    return result;
  };

  it('answers the PDF with an ASCII filename="…" (and filename*= for the exact name) and the reference', { timeout: 180_000 }, async () => {
    const c = client();
    const result = await c.createZugferdFromPdf(pdf, 'Rechnung Müller.pdf');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.fileName).toBe('Rechnung Muller-zugferd.pdf');
    expect(result.reference).toMatch(/^[0-9a-f-]{36}$/);
    expect(Buffer.from(result.pdfBase64, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(c.received[0]!.get('content-disposition')).toBe(
      `attachment; filename="Rechnung Muller-zugferd.pdf"; filename*=UTF-8''Rechnung%20M%C3%BCller-zugferd.pdf`,
    );
  });

  it(
    "answers each refusal with the client's code and stage, our reason, a detail, and what applies of fields, ruleCodes, explanations and extractionConfidence",
    { timeout: 300_000 },
    async () => {
      const c = client();
      const expectRefusal = (result: ConversionResult, status: number, code: string, stage: string, reason: string) => {
        const { body } = failed(result);
        expect(failed(result).status).toBe(status);
        expect(body.success).toBe(false);
        expect(body.error).toMatchObject({
          code,
          stage,
          reason,
          httpStatus: status,
          retryable: false,
          userMessage: expect.any(String),
          reference: expect.any(String),
        });
        expect(body.error.detail.trim()).not.toBe('');
        expect(body.email).toMatchObject({ subject: expect.any(String), text: expect.any(String), html: expect.any(String) });
        return body.error;
      };

      expectRefusal(
        await c.createZugferdFromPdf(b64(Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(32)]))),
        415,
        'INVALID_REQUEST',
        'input',
        'UNSUPPORTED_FILE_TYPE',
      );
      expectRefusal(await c.createZugferdFromPdf(''), 400, 'INVALID_REQUEST', 'input', 'FILE_MISSING');
      expectRefusal(
        await c.createZugferdFromPdf(b64(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(MAX_CONVERT_FILE_BYTES)]))),
        413,
        'FILE_TOO_LARGE',
        'input',
        'FILE_TOO_LARGE',
      );
      const stranger = new RechnungsApiClient({ apiToken: 'einv_unknown', baseUrl: service.url, v2BaseUrl: service.v2Url });
      expectRefusal(await stranger.createZugferdFromPdf(pdf), 401, 'UNAUTHORIZED', 'access', 'AUTH_INVALID');

      const encrypted = path.join(tmp, 'encrypted.pdf');
      writeFileSync(path.join(tmp, 'plain.pdf'), Buffer.from(pdf, 'base64'));
      await promisify(execFile)('gs', [
        '-q',
        '-dNOPAUSE',
        '-dBATCH',
        '-sDEVICE=pdfwrite',
        '-sOwnerPassword=owner',
        '-sUserPassword=user',
        '-dEncryptionR=3',
        '-dKeyLength=128',
        `-sOutputFile=${encrypted}`,
        path.join(tmp, 'plain.pdf'),
      ]);
      expectRefusal(await c.createZugferdFromPdf(b64(readFileSync(encrypted))), 422, 'PDF_ENCRYPTED', 'input', 'PDF_ENCRYPTED');

      const corrupt = b64(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from('garbage '.repeat(64))]));
      expectRefusal(await c.createZugferdFromPdf(corrupt), 422, 'PDF_CORRUPT', 'analyse', 'FILE_UNREADABLE');
      expectRefusal(await c.createZugferdFromPdf(b64(await blankScan()), 'leer.jpg'), 422, 'PDF_NO_TEXT', 'analyse', 'PDF_NO_TEXT');

      const noTaxId = structuredClone(invoice);
      delete noTaxId.seller!.sellerVatIdentifier;
      delete noTaxId.seller!.sellerTaxRegistrationIdentifier;
      const missing = expectRefusal(
        await c.createZugferdFromPdf(b64(await invoicePdf(noTaxId))),
        422,
        'MISSING_MANDATORY_FIELDS',
        'missing',
        'FIELDS_MISSING',
      );
      expect(missing.fields).toEqual(expect.arrayContaining([expect.objectContaining({ bt: 'BT-31' })]));
      expect(missing.extractionConfidence).toBeGreaterThan(0);

      const wrongTotal = structuredClone(invoice);
      wrongTotal.documentTotals = { ...wrongTotal.documentTotals, invoiceTotalAmountWithVat: '592.75', amountDueForPayment: '592.75' };
      const mismatch = expectRefusal(
        await c.createZugferdFromPdf(b64(await invoicePdf(wrongTotal))),
        422,
        'VERIFICATION_FAILED',
        'verify',
        'TOTALS_MISMATCH',
      );
      expect(mismatch).toMatchObject({
        step: 'prepareZugferdInvoice',
        fields: expect.arrayContaining([expect.objectContaining({ bt: 'BT-112' })]),
        extractionConfidence: expect.any(Number),
      });
    },
  );
});

describe('README: Using the RechnungsAPI client', () => {
  it('runs the example as written, against both base URLs of the service', { timeout: 240_000 }, async () => {
    const readme = readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Using the RechnungsAPI client'));
    const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(example, 'a ```ts block in the section').toBeDefined();
    expect(example).toContain("from 'rechnungsapi-sdk'");
    // A PDF whose analysis is complete (it carries its XML), so the example takes its success path.
    const pdfFile = path.join(tmp, 'invoice.pdf');
    writeFileSync(pdfFile, await pdfWithInvoiceXml(invoice));
    // Only what differs on this machine: the import, the two base URLs, the token and the file.
    const body = example!
      .replace(/^import .*$/gm, '')
      .replace(/baseUrl: '[^']*'/, `baseUrl: '${service.url}'`)
      .replace(/v2BaseUrl: '[^']*'/, `v2BaseUrl: '${service.v2Url}'`)
      .replace(/'invoice\.pdf'/g, JSON.stringify(pdfFile));
    const js = ts.transpileModule(body, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
    const lines: string[] = [];
    const run = new (
      Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<void>
    )('RechnungsApiClient', 'ValidationFailedError', 'readFileSync', 'process', 'console', js);
    const clients: RechnungsApiClient[] = [];
    class Recorded extends RechnungsApiClient {
      constructor(options: ConstructorParameters<typeof RechnungsApiClient>[0]) {
        super(options);
        clients.push(this);
      }
    }
    await run(
      Recorded,
      MissingDataError,
      readFileSync,
      { env: { EINVOICE_TOKEN: service.token } },
      { log: (...args: unknown[]) => lines.push(args.join(' ')) },
    );
    const urls = clients.flatMap((c) => c.sent.map((s) => s.url));
    expect(urls.some((u) => u.startsWith(`${service.url}/api/v1/zugferd/`))).toBe(true);
    expect(urls.some((u) => u.startsWith(`${service.v2Url}/rechnungsapi-invoice-async-status`))).toBe(true);
    expect(lines).toEqual(['valid: true, 0 message(s)']);
  });
});
