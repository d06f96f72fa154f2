import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceWithLines } from '../../scripts/lib/sample-invoices.js';
import { repoRoot } from '../../scripts/lib/spawn-service.js';
import { openStorage, type Storage } from '../../src/storage/index.js';
import { mustangAvailable, runMustang, runVeraPdf, veraPdfAvailable } from '../support/java-validators.js';
import { alphaPng } from '../render/png.js';
import { byName, call, expectEnvelope, services } from './client.js';

const CREATE = '/api/v1/zugferd/createInvoicePdfFromJson';
const fixture = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../fixtures/invoices/01-standard-19.json'), 'utf8'));
const builtinDir = path.resolve(import.meta.dirname, '../../templates/builtin');

/** Every PDF the suite creates, judged by veraPDF and Mustang at the end. */
const created: Array<{ label: string; file: string }> = [];
const outDir = mkdtempSync(path.join(tmpdir(), 'template-pdfs-'));
const keep = (label: string, b64: string) => {
  const file = path.join(outDir, `${created.length}-${label.replace(/[^a-z0-9-]+/gi, '_')}.pdf`);
  writeFileSync(file, Buffer.from(b64, 'base64'));
  created.push({ label, file });
};

const storages = new Map<string, Storage>();
const storageOf = async (service: (typeof services)[number]) => {
  let storage = storages.get(service.name);
  if (!storage) {
    storage = await openStorage({ dataDir: service.dataDir, databaseUrl: service.env.DATABASE_URL });
    storages.set(service.name, storage);
  }
  return storage;
};

afterAll(async () => {
  for (const s of storages.values()) await s.close();
  rmSync(outDir, { recursive: true, force: true });
});

describe.each(services)('template invoices ($name)', (service) => {
  it('lists the built-in templates', async () => {
    const r = await call(service, '/api/v1/templates');
    expect(r.status, r.text).toBe(200);
    const ids = r.json.templates.filter((t: { valid: boolean }) => t.valid).map((t: { id: string }) => t.id);
    expect(ids).toEqual(expect.arrayContaining(['de-standard', 'en-standard']));
    expect(r.json.templates.find((t: { id: string }) => t.id === 'de-standard')).toMatchObject({ source: 'builtin', locale: 'de-DE' });
  });

  it.each(['de-standard', 'en-standard'])(
    'renders a valid ZUGFeRD PDF with %s, returns every SPEC field and a working link',
    async (templateId) => {
      const r = await call(service, CREATE, { body: { invoice: fixture, templateId, invoicePassthrough: false } });
      expect(r.status, r.text).toBe(200);
      const b = r.json;
      expect(b.zugferdValid, JSON.stringify(b.zugferdErrorList)).toBe(true);
      expect(b.xInvoiceValid, JSON.stringify(b.xInvoiceErrorList)).toBe(true);
      expect(b.iqDataId).toSatisfy(Number.isSafeInteger);
      expect(b).toMatchObject({
        fileName: 'RE-2025-00101.pdf',
        fileExtension: 'pdf',
        templateId,
        pages: 1,
        numberOfZugferdErrors: 0,
        numberOfxInvoiceErrors: 0,
      });
      expect(b.documentId).toSatisfy(Number.isSafeInteger);
      expect(b.documentId).toBeGreaterThan(0);
      expect(b.fsNodeId).toBe(b.documentId);
      // The number is the stored PDF document's.
      expect(await (await storageOf(service)).documents.getByNumber(b.documentId, service.accountId)).toMatchObject({
        kind: 'zugferd-pdf',
        fileName: 'RE-2025-00101.pdf',
        size: b.fileSize,
      });
      const pdf = Buffer.from(b.filecontentB64, 'base64');
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(b.fileSize).toBe(pdf.byteLength);
      expect(r.headers.get('x-idempotency-key-reused')).toBeNull();
      const download = await fetch(b.downloadURL);
      expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true);
      keep(`${service.name}-${templateId}`, b.filecontentB64);
    },
  );

  it('renders invoices of about 20 pages with both templates', async () => {
    const invoice = invoiceWithLines(fixture, 300);
    for (const templateId of ['de-standard', 'en-standard']) {
      const r = await call(service, CREATE, { body: { invoice, templateId, invoiceFilename: `long-${templateId}` } });
      expect(r.status, r.text).toBe(200);
      expect(r.json.zugferdValid && r.json.xInvoiceValid, JSON.stringify([r.json.zugferdErrorList, r.json.xInvoiceErrorList])).toBe(true);
      expect(r.json.pages).toBeGreaterThanOrEqual(18);
      expect(r.json.fileName).toBe(`long-${templateId}.pdf`);
      keep(`${service.name}-long-${templateId}`, r.json.filecontentB64);
    }
  }, 120_000);

  it('makes a missing templateId a clear error, and an unknown one too', async () => {
    const missing = await call(service, CREATE, { body: { invoice: fixture } });
    expectEnvelope(missing, 400, 'VALIDATION_ERROR');
    expect(missing.json.error.fields).toEqual([
      expect.objectContaining({ field: 'templateId', message: expect.stringContaining('GET /api/v1/templates') }),
    ]);
    const unknown = await call(service, CREATE, { body: { invoice: fixture, templateId: 'no-such-template' } });
    expectEnvelope(unknown, 422, 'TEMPLATE_NOT_FOUND');
    expect(unknown.json.error.detail).toContain('de-standard');
  });

  it('stores the invoice with invoicePassthrough false: listed and fetched; passthrough invoices are not', async () => {
    const invoice = { ...fixture, invoiceNumber: `STORED-${service.name}` };
    const stored = await call(service, CREATE, { body: { invoice, templateId: 'de-standard', invoicePassthrough: false } });
    expect(stored.status, stored.text).toBe(200);
    expect(stored.json.iqDataId).toSatisfy(Number.isSafeInteger);
    expect(stored.json.documentId).toSatisfy(Number.isSafeInteger);
    expect(stored.json.iqDataId).not.toBe(stored.json.documentId);
    // Passthrough (the default) answers the PDF and keeps nothing: integer ids reserved like a stored document's, no link.
    const storage = await storageOf(service);
    const passthrough = await call(service, CREATE, {
      body: {
        invoice: { ...fixture, invoiceNumber: `PASS-${service.name}` },
        templateId: 'de-standard',
        invoiceFilename: `PASS-${service.name}`,
      },
    });
    expect(passthrough.status, passthrough.text).toBe(200);
    expect(passthrough.json).toMatchObject({ downloadURL: null, resendToken: null, fsNodeId: passthrough.json.documentId });
    for (const id of [passthrough.json.iqDataId, passthrough.json.documentId]) {
      expect(id).toSatisfy(Number.isSafeInteger);
      expect(id).toBeGreaterThan(stored.json.documentId);
      expect(await storage.documents.getByNumber(id, service.accountId)).toBeUndefined();
    }
    expectEnvelope(await call(service, `/api/v1/invoices/${passthrough.json.iqDataId}`), 404, 'NOT_FOUND');
    const { documents } = await storage.documents.list(service.accountId, { limit: 200 });
    expect(documents.map((d) => d.fileName)).not.toContain(`PASS-${service.name}.pdf`);
    // Billed all the same: one unit, against the request, with no document.
    const billed = (await storage.usage.list(service.accountId, { limit: 1000 })).filter(
      (u) => u.source?.kind === 'request' && u.source.requestId === passthrough.headers.get('x-request-id'),
    );
    expect(billed).toEqual([expect.objectContaining({ operation: 'createInvoicePdfFromJson', units: 1, documentId: null })]);
    expect(Buffer.from(passthrough.json.filecontentB64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');

    const list = await call(service, '/api/v1/invoices?limit=200');
    expect(list.status, list.text).toBe(200);
    const numbers = list.json.invoices.map((i: { invoiceNumber: string }) => i.invoiceNumber);
    expect(numbers).toContain(`STORED-${service.name}`);
    expect(numbers).not.toContain(`PASS-${service.name}`);
    expect(list.json.invoices.find((i: { invoiceNumber: string }) => i.invoiceNumber === `STORED-${service.name}`)).toMatchObject({
      iqDataId: stored.json.iqDataId,
      documentId: stored.json.documentId,
    });

    const one = await call(service, `/api/v1/invoices/${stored.json.iqDataId}`);
    expect(one.status, one.text).toBe(200);
    expect(one.json).toMatchObject({
      iqDataId: stored.json.iqDataId,
      documentId: stored.json.documentId,
      invoiceNumber: `STORED-${service.name}`,
      templateId: 'de-standard',
      totalAmountWithVat: '562.75',
    });
    expect(one.json.invoice.invoiceNumber).toBe(`STORED-${service.name}`);
    expect(Buffer.from(await (await fetch(one.json.downloadURL)).arrayBuffer()).toString('base64')).toBe(stored.json.filecontentB64);
    // The PDF's number is a document, but not a stored invoice.
    expectEnvelope(await call(service, `/api/v1/invoices/${stored.json.documentId}`), 404, 'NOT_FOUND');
    for (const bad of ['0', '-1', '1.5', 'abc', '99999999999'])
      expectEnvelope(await call(service, `/api/v1/invoices/${bad}`), 404, 'NOT_FOUND');

    // The UUID that earlier versions answered still works.
    const record = await (await storageOf(service)).documents.getByNumber(stored.json.iqDataId, service.accountId);
    expect(record?.kind).toBe('invoice');
    const byUuid = await call(service, `/api/v1/invoices/${record!.id}`);
    expect(byUuid.status, byUuid.text).toBe(200);
    expect(byUuid.json).toEqual({ ...one.json, downloadURL: expect.any(String) });
  });

  it('pages through stored invoices with a cursor', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await call(service, CREATE, {
        body: { invoice: { ...fixture, invoiceNumber: `PAGE-${i}` }, templateId: 'en-standard', invoicePassthrough: false },
      });
      expect(r.status, r.text).toBe(200);
    }
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { json: { invoices: Array<{ iqDataId: number }>; nextCursor: string | null } } = await call(
        service,
        `/api/v1/invoices?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.json.invoices.map((i) => i.iqDataId));
      cursor = page.json.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThanOrEqual(4);
    expectEnvelope(await call(service, '/api/v1/invoices?cursor=bogus'), 400, 'VALIDATION_ERROR');
  });

  it('Idempotency-Key: same body replays without creating or billing, another body is a 409', async () => {
    const storage = await storageOf(service);
    const key = `idem-${service.name}-${Date.now()}`;
    const body = { invoice: { ...fixture, invoiceNumber: `IDEM-${service.name}` }, templateId: 'de-standard' };
    const first = await call(service, CREATE, { body, headers: { 'idempotency-key': key } });
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get('x-idempotency-key-reused')).toBe('false');
    const usageBefore = await storage.usage.list(service.accountId, { limit: 1000 });

    // Same body, other key order and formatting: the same request.
    const reordered = JSON.stringify({ templateId: body.templateId, invoice: body.invoice }, null, 2);
    const again = await call(service, CREATE, { raw: reordered, headers: { 'idempotency-key': key } });
    expect(again.status, again.text).toBe(200);
    expect(again.headers.get('x-idempotency-key-reused')).toBe('true');
    expect(again.json).toEqual(first.json);

    const conflict = await call(service, CREATE, { body: { ...body, templateId: 'en-standard' }, headers: { 'idempotency-key': key } });
    expectEnvelope(conflict, 409, 'IDEMPOTENCY_CONFLICT');
    expect(await storage.usage.list(service.accountId, { limit: 1000 })).toEqual(usageBefore);
  });

  it('Idempotency-Key under 10 concurrent identical requests: one creation, one usage record, ten equal answers', async () => {
    const storage = await storageOf(service);
    const key = `race-${service.name}-${Date.now()}`;
    const body = { invoice: { ...fixture, invoiceNumber: `RACE-${service.name}` }, templateId: 'en-standard', invoicePassthrough: false };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call(service, CREATE, { body, headers: { 'idempotency-key': key } })),
    );
    for (const a of answers) expect(a.status, a.text).toBe(200);
    expect(answers.map((a) => a.headers.get('x-idempotency-key-reused')).sort()).toEqual(['false', ...Array(9).fill('true')]);
    const documentIds = new Set(answers.map((a) => a.json.documentId));
    expect(documentIds.size).toBe(1);
    const [documentNumber] = documentIds;
    const documentId = (await storage.documents.getByNumber(documentNumber, service.accountId))?.id;
    expect(documentId).toBeDefined();
    const usage = (await storage.usage.list(service.accountId, { limit: 1000 })).filter(
      (u) => u.operation === 'createInvoicePdfFromJson' && u.documentId === documentId,
    );
    expect(usage).toHaveLength(1);
    const list = await call(service, '/api/v1/invoices?limit=200');
    expect(list.json.invoices.filter((i: { invoiceNumber: string }) => i.invoiceNumber === `RACE-${service.name}`)).toHaveLength(1);
  });

  it('lists only stored invoices with full pages, however many other documents are newer', async () => {
    // A fresh account, so that the test's documents are all there is.
    const cli = async (...args: string[]) =>
      JSON.parse(
        (
          await promisify(execFile)(process.execPath, [path.join(repoRoot, 'dist/src/cli/accounts.js'), ...args, '--json'], {
            cwd: repoRoot,
            env: service.env,
          })
        ).stdout,
      );
    const account = (await cli('create-account', '--name', `lister ${service.name}`)) as { id: string };
    const { token } = (await cli('create-token', '--account', account.id, '--label', 'lister')) as { token: string };
    const as = (p: string, opts: Parameters<typeof call>[2] = {}) => call(service, p, { ...opts, token });

    const stored: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await as(CREATE, {
        body: { invoice: { ...fixture, invoiceNumber: `LIST-${i}` }, templateId: 'de-standard', invoicePassthrough: false },
      });
      expect(r.status, r.text).toBe(200);
      stored.push(r.json.iqDataId);
    }
    expect((await as(CREATE, { body: { invoice: fixture, templateId: 'de-standard' } })).status).toBe(200);
    // More newer non-invoice documents than the old list-then-filter code ever looked at (20 pages).
    const storage = await storageOf(service);
    for (let i = 0; i < 25; i++) {
      await storage.documents.create({
        accountId: account.id,
        kind: 'xrechnung-xml',
        blobKey: `filler-${i}`,
        fileName: `f${i}.xml`,
        contentType: 'application/xml',
        size: 1,
        sha256: 'f'.repeat(64),
      });
    }

    const pages: number[][] = [];
    let cursor: string | null = null;
    do {
      const page: {
        status: number;
        text: string;
        json: { invoices: Array<{ iqDataId: number; invoiceNumber: string }>; nextCursor: string | null };
      } = await as(`/api/v1/invoices?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status, page.text).toBe(200);
      pages.push(page.json.invoices.map((i) => i.iqDataId));
      cursor = page.json.nextCursor;
    } while (cursor && pages.length < 10);
    // Newest first, one invoice per page, and no cursor after the last one.
    expect(pages).toEqual([...stored].reverse().map((n) => [n]));
    const all = await as('/api/v1/invoices?limit=3');
    expect(all.json.invoices.map((i: { invoiceNumber: string }) => i.invoiceNumber)).toEqual(['LIST-2', 'LIST-1', 'LIST-0']);
    expect((await as('/api/v1/invoices?limit=200')).json.nextCursor).toBeNull();
  }, 120_000);

  it('refuses a malformed Idempotency-Key', async () => {
    const r = await call(service, CREATE, {
      body: { invoice: fixture, templateId: 'de-standard' },
      headers: { 'idempotency-key': 'a'.repeat(256) },
    });
    expectEnvelope(r, 400, 'VALIDATION_ERROR');
  });
});

describe('operator templates (sqlite)', () => {
  const service = byName('sqlite');
  const operatorDir = path.join(service.dataDir, 'templates');

  beforeAll(() => {
    // A copy of the English template, restyled, with a logo that has an alpha channel.
    const acme = path.join(operatorDir, 'acme');
    mkdirSync(acme, { recursive: true });
    const template = JSON.parse(readFileSync(path.join(builtinDir, 'en-standard/template.json'), 'utf8'));
    Object.assign(template, {
      id: 'acme',
      name: 'ACME',
      locale: 'fr-FR',
      font: { family: 'DejaVuSerif', size: 10 },
      logo: { file: 'mark.png', width: 30, align: 'right' },
    });
    template.page.size = 'LETTER';
    template.blocks = ['title', 'header', 'addresses', 'lines', 'vatBreakdown', 'totals', 'payment'];
    writeFileSync(path.join(acme, 'template.json'), JSON.stringify(template));
    writeFileSync(path.join(acme, 'mark.png'), alphaPng());

    const broken = path.join(operatorDir, 'broken');
    mkdirSync(broken, { recursive: true });
    const bad = JSON.parse(readFileSync(path.join(builtinDir, 'de-standard/template.json'), 'utf8'));
    delete bad.labels.amountDue;
    Object.assign(bad, { id: 'broken', colour: 'red' });
    bad.logo.file = 'missing.png';
    writeFileSync(path.join(broken, 'template.json'), JSON.stringify(bad));

    // An operator folder may not take a built-in's id.
    cpSync(path.join(builtinDir, 'de-standard'), path.join(operatorDir, 'de-standard'), { recursive: true });
  });
  afterAll(() => rmSync(operatorDir, { recursive: true, force: true }));

  it('discovers operator templates at request time and lists broken ones with their problems', async () => {
    const r = await call(service, '/api/v1/templates');
    const byId = (id: string, source: string) =>
      r.json.templates.find((t: { id: string; source: string }) => t.id === id && t.source === source);
    expect(byId('acme', 'operator')).toMatchObject({ valid: true, name: 'ACME', locale: 'fr-FR' });
    const broken = byId('broken', 'operator');
    expect(broken.valid).toBe(false);
    expect(broken.problems.join('\n')).toMatch(/labels\.amountDue/);
    expect(broken.problems.join('\n')).toMatch(/colour/);
    expect(byId('de-standard', 'operator')).toMatchObject({ valid: false, problems: [expect.stringContaining('built-in')] });
  });

  it('renders with an operator template; a broken one is refused with its problems', async () => {
    const r = await call(service, CREATE, { body: { invoice: invoiceWithLines(fixture, 40), templateId: 'acme' } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.zugferdValid && r.json.xInvoiceValid, JSON.stringify([r.json.zugferdErrorList, r.json.xInvoiceErrorList])).toBe(true);
    keep('sqlite-operator-acme', r.json.filecontentB64);
    const broken = await call(service, CREATE, { body: { invoice: fixture, templateId: 'broken' } });
    expectEnvelope(broken, 422, 'TEMPLATE_INVALID');
    expect(broken.json.error.detail).toContain('labels.amountDue');
  });
});

describe('OpenAPI document of the template endpoints', () => {
  const service = byName('sqlite');

  it('documents the Idempotency-Key header, X-Idempotency-Key-Reused and the integer ids', async () => {
    const r = await call(service, '/openapi.json', { token: null });
    expect(r.status).toBe(200);
    const op = r.json.paths['/api/v1/zugferd/createInvoicePdfFromJson'].post;
    const header = op.parameters.find((p: { in: string; name: string }) => p.in === 'header' && p.name === 'Idempotency-Key');
    expect(header).toMatchObject({ required: false, schema: { type: 'string' } });
    expect(header.description).toContain('cached for 24 hours');
    expect(header.description).toContain('409 Conflict');
    expect(op.responses['200'].headers['X-Idempotency-Key-Reused']).toMatchObject({ schema: { enum: ['true', 'false'] } });

    const created = r.json.components.schemas.CreateInvoicePdfFromJsonResponse.properties;
    expect(created.documentId.type).toBe('integer');
    expect(created.fsNodeId.type).toBe('integer');
    expect(created.iqDataId.type).toBe('integer');
    expect(created.downloadURL.anyOf.map((s: { type: string }) => s.type).sort()).toEqual(['null', 'string']);

    const get = r.json.paths['/api/v1/invoices/{id}'].get;
    expect(get.parameters).toEqual([
      expect.objectContaining({ name: 'id', in: 'path', required: true, description: expect.stringContaining('iqDataId') }),
    ]);
    expect(r.json.components.schemas.ListInvoicesResponse.properties.invoices.items.properties.iqDataId.type).toBe('integer');
    // The other create, convert and e-mail operations take the key too; the others get no header parameters they do not read.
    for (const path of [
      '/api/v1/zugferd/createXinvoiceFromJson',
      '/api/v1/zugferd/createZugferdFromJson',
      '/api/v1/zugferd/createZugferdPdfFromXinvoice',
      '/createZugferdFromPdf',
      '/api/v1/delivery',
      '/api/v1/delivery/resend',
    ]) {
      expect(
        r.json.paths[path].post.parameters.map((p: { name: string }) => p.name),
        path,
      ).toEqual(['Idempotency-Key']);
    }
    // Validation reads only the language of its HTML and PDF report.
    expect(r.json.paths['/api/v1/zugferd/validateXinvoiceXml'].post.parameters.map((p: { name: string }) => p.name)).toEqual([
      'Accept-Language',
    ]);
  });
});

describe('e-mail with the created PDF (sqlite)', () => {
  const service = byName('sqlite');
  const outbox = () =>
    readdirSync(path.join(service.dataDir, 'outbox'), { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
  const transport = {
    type: 'email',
    useTransport: true,
    sender: 'rechnung@templates.example',
    senderName: 'Rechnungen',
    receiver: 'einkauf@customer.example',
    subject: 'Rechnung {invoicenumber}',
    message: 'Guten Tag, anbei die Rechnung {invoicenumber}.',
  };

  // An account of its own: sender rules are per account, and other test files check the shared account's rules.
  let account: { id: string; token: string };
  beforeAll(async () => {
    const cli = async (...args: string[]) =>
      JSON.parse(
        (
          await promisify(execFile)(process.execPath, [path.join(repoRoot, 'dist/src/cli/accounts.js'), ...args, '--json'], {
            cwd: repoRoot,
            env: service.env,
          })
        ).stdout,
      );
    const { id } = await cli('create-account', '--name', 'templates mail');
    const { token } = await cli('create-token', '--account', id);
    await cli('allow-sender', '--account', id, '--sender', 'templates.example');
    account = { id, token };
  });

  it('attaches the PDF under invoiceFilename, and a replayed request sends nothing again', async () => {
    const body = { invoice: fixture, templateId: 'de-standard', invoiceFilename: 'Rechnung März', transport };
    const key = `mail-${Date.now()}`;
    const r = await call(service, CREATE, { body, token: account.token, headers: { 'idempotency-key': key } });
    expect(r.status, r.text).toBe(200);
    // The send record names the document by its UUID, as the e-mail endpoints do.
    const pdfDocument = await (await storageOf(service)).documents.getByNumber(r.json.documentId, account.id);
    expect(r.json.transport).toMatchObject({ status: 'sent', send: { via: 'outbox', documentId: pdfDocument!.id } });
    const name = /written to the outbox as (\S+\.eml)/.exec(r.json.transport.send.response)![1]!;
    const mail = await PostalMime.parse(readFileSync(path.join(service.dataDir, 'outbox', name)));
    expect(mail.subject).toBe('Rechnung RE-2025-00101');
    const pdf = mail.attachments.find((a) => a.filename === 'Rechnung März.pdf');
    expect(Buffer.from(pdf!.content as ArrayBuffer).toString('base64')).toBe(r.json.filecontentB64);

    const sent = outbox().length;
    const replay = await call(service, CREATE, { body, token: account.token, headers: { 'idempotency-key': key } });
    expect(replay.headers.get('x-idempotency-key-reused')).toBe('true');
    expect(replay.json).toEqual(r.json);
    expect(outbox().length).toBe(sent);
  });
});

describe('the judges', () => {
  it.skipIf(!veraPdfAvailable())(
    'veraPDF: every PDF created above is PDF/A-3b',
    async () => {
      expect(created.length).toBeGreaterThanOrEqual(2 * services.length + 1);
      const verdicts = await runVeraPdf(created.map((c) => c.file));
      for (const v of verdicts) expect(v.compliant, `${v.file}: ${JSON.stringify(v.failedRules)}`).toBe(true);
    },
    600_000,
  );

  it.skipIf(!mustangAvailable())(
    'Mustang: every PDF created above is a valid ZUGFeRD / Factur-X invoice',
    async () => {
      for (const c of created) {
        const verdict = await runMustang(c.file);
        expect(verdict.valid, `${c.label}: ${JSON.stringify(verdict.messages.slice(0, 5))}`).toBe(true);
        expect(verdict.pdf).toBe('valid');
        expect(verdict.xml).toBe('valid');
      }
    },
    900_000,
  );
});
