import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectEnvelope, services } from './client.js';

const fixturesDir = path.resolve(import.meta.dirname, '../fixtures/invoices');
const fixtures = readdirSync(fixturesDir)
  .filter((f) => f.endsWith('.json'))
  .sort();
const load = (name: string) => JSON.parse(readFileSync(path.join(fixturesDir, name), 'utf8'));
const first = load(fixtures[0]!);

const CREATE = '/api/v1/zugferd/createXinvoiceFromJson';
const VALIDATE = '/api/v1/zugferd/validateXinvoiceXml';

describe.each(services)('XRechnung creation and validation ($name)', (service) => {
  it('creates valid CII XML from JSON through the workflow, with a working download link', async () => {
    const r = await call(service, CREATE, { body: { invoice: first } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.valid, JSON.stringify(r.json.xInvoiceErrors)).toBe(true);
    expect(r.json.numberOfXInvoiceErrors).toBe(0);
    expect(r.json.xInvoice).toContain('CrossIndustryInvoice');
    expect(r.json.xInvoice).toContain(first.invoiceNumber);
    expect(r.json.validationArtefacts.map((a: { name: string }) => a.name).join(' ')).toMatch(/EN.?16931/i);
    expect(r.json.resendToken).toMatch(/\S{20,}/);

    const download = await fetch(r.json.downloadURL);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toContain('xml');
    expect(await download.text()).toBe(r.json.xInvoice);

    const tampered = new URL(r.json.downloadURL);
    tampered.searchParams.set('signature', 'A'.repeat(43));
    expectEnvelope(await call(service, tampered.pathname + tampered.search, { token: null }), 403, 'LINK_INVALID');
  });

  it('creates UBL XML on request', async () => {
    const r = await call(service, CREATE, { body: { invoice: first, syntax: 'UBL' } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.valid, JSON.stringify(r.json.xInvoiceErrors)).toBe(true);
    expect(r.json.xInvoice).toMatch(/<(\w+:)?Invoice\b/);
  });

  it('keeps amounts exact: decimals travel as decimals, not floats', async () => {
    const r = await call(service, CREATE, { raw: JSON.stringify({ invoice: first }).replace(/"(\d+\.\d+)"/g, '$1') });
    expect(r.status, r.text).toBe(200);
    const total = first.documentTotals.invoiceTotalAmountWithVat as string;
    expect(r.json.xInvoice).toContain(`>${Number(total).toFixed(2)}<`);
  });

  it('reports an invoice that breaks the business rules as invalid, with rule ids', async () => {
    const broken = structuredClone(first);
    delete broken.buyerReference;
    broken.documentTotals.invoiceTotalAmountWithVat = '1.00';
    const r = await call(service, CREATE, { body: { invoice: broken } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.valid).toBe(false);
    const ids = (r.json.xInvoiceErrors as Array<{ ruleId: string }>).map((e) => e.ruleId);
    expect(ids).toContain('BR-DE-15');
    expect(ids).toContain('BR-CO-15');
    expect(r.json.numberOfXInvoiceErrors).toBe(ids.length);
  });

  it('refuses an invoice without a mandatory field with 412, naming it, its business term and JSON path', async () => {
    const broken = structuredClone(first);
    delete broken.invoiceNumber;
    const r = await call(service, CREATE, { body: { invoice: broken } });
    expectEnvelope(r, 412, 'INVOICE_INCOMPLETE');
    expect(r.json).toMatchObject({
      message: r.json.error.userMessage,
      noOfMissingData: 1,
      errorlist: [{ field: 'invoice.invoiceNumber', bt: 'BT-1', message: expect.stringContaining('BR-02') }],
    });
  });

  it('names a stored XML file .xml, and a download by its name, non-ASCII included', async () => {
    const r = await call(service, CREATE, { body: { invoice: first, fileName: 'Rechnung Größe' } });
    expect(r.status, r.text).toBe(200);
    const download = await fetch(r.json.downloadURL);
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="Rechnung Gro_e.xml"; filename*=UTF-8''Rechnung%20Gr%C3%B6%C3%9Fe.xml`,
    );
  });

  it('validates XML it did not create: valid, invalid, not well-formed, and an XXE attempt', async () => {
    const created = await call(service, CREATE, { body: { invoice: first } });
    const ok = await call(service, VALIDATE, { body: { xinvoiceXML: created.json.xInvoice } });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ isValid: true, syntax: 'CII', numberOfErrors: 0 });

    const wrongSum = created.json.xInvoice.replace(/<ram:DuePayableAmount>[^<]+</, '<ram:DuePayableAmount>0.01<');
    const bad = await call(service, VALIDATE, { body: { xinvoiceXML: wrongSum } });
    expect(bad.json.isValid).toBe(false);
    expect(bad.json.findings.some((f: { ruleId: string }) => f.ruleId.startsWith('BR-CO-'))).toBe(true);

    const broken = await call(service, VALIDATE, { body: { xinvoiceXML: '<rsm:CrossIndustryInvoice' } });
    expect(broken.json.isValid).toBe(false);
    expect(broken.json.findings[0].severity).toBe('fatal');

    const xxe = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>`;
    const attack = await call(service, VALIDATE, { body: { xinvoiceXML: xxe } });
    expect(attack.json.isValid).toBe(false);
    expect(attack.text).not.toContain('root:');
  });

  it('names the scenario, keeps the original severity of an overridden rule, and refuses an outdated XRechnung', async () => {
    const created = await call(service, CREATE, { body: { invoice: first } });
    expect(created.json.scenario).toMatchObject({ name: 'EN16931 XRechnung (CII)' });
    const xml: string = created.json.xInvoice;
    const ok = await call(service, VALIDATE, { body: { xinvoiceXML: xml.replace(/unitCode="[^"]*"/, 'unitCode="ZZZ"') } });
    expect(ok.json).toMatchObject({
      isValid: true,
      scenario: { id: 'xrechnung-cii', name: 'EN16931 XRechnung (CII)', layers: ['xsd', 'en16931', 'xrechnung'] },
    });
    expect(ok.json.findings).toContainEqual(
      expect.objectContaining({ ruleId: 'BR-CL-23', severity: 'warning', originalSeverity: 'error' }),
    );

    const old = await call(service, VALIDATE, { body: { xinvoiceXML: xml.replace('kosit:xrechnung_3.0', 'kosit:xrechnung_2.3') } });
    expect(old.status).toBe(200);
    expect(old.json.isValid).toBe(false);
    expect(old.json.scenario).toBeUndefined();
    expect(old.json.findings).toEqual([expect.objectContaining({ ruleId: 'SPECIFICATION-UNSUPPORTED', severity: 'fatal' })]);
    expect(old.json.findings[0].message).toContain('xrechnung_2.3');
  });
});

describe('Temporal visibility', () => {
  const service = services[0]!;
  let connection: Connection;
  let client: Client;
  beforeAll(async () => {
    connection = await Connection.connect({ address: service.temporalAddress });
    client = new Client({ connection, namespace: service.namespace });
  });
  afterAll(async () => connection?.close());

  it('finds each request by operation, account and outcome, with a summary, and the reference leads to the workflow', async () => {
    const r = await call(service, CREATE, { body: { invoice: first } });
    const reference = r.headers.get('x-request-id')!;
    const handle = client.workflow.getHandle(`createXinvoiceFromJson-${reference}`);
    const description = await handle.describe();
    expect(description.status.name).toBe('COMPLETED');
    expect(description.typedSearchAttributes.get({ name: 'EinvoiceOutcome', type: 'KEYWORD' } as never)).toBe('valid');
    expect(await description.staticSummary()).toContain('XRechnung');

    const query = `EinvoiceOperation = "createXinvoiceFromJson" AND EinvoiceAccount = "${service.accountId}" AND EinvoiceOutcome = "valid"`;
    const deadline = Date.now() + 15_000;
    let found = false;
    while (!found && Date.now() < deadline) {
      for await (const wf of client.workflow.list({ query })) if (wf.workflowId === handle.workflowId) found = true;
      if (!found) await new Promise((res) => setTimeout(res, 300));
    }
    expect(found).toBe(true);
  });

  it('keeps workflow history free of file contents (blob references only)', async () => {
    const r = await call(service, CREATE, { body: { invoice: first } });
    const history = await client.workflow.getHandle(`createXinvoiceFromJson-${r.headers.get('x-request-id')}`).fetchHistory();
    const text = payloadText(history);
    expect(text).toContain('invoiceBlobKey');
    expect(text).not.toContain(first.seller.sellerName);
    expect(text).not.toContain('CrossIndustryInvoice');
  });

  it('sets the namespace retention to 24 hours', async () => {
    const ns = await connection.workflowService.describeNamespace({ namespace: service.namespace });
    expect(Number(ns.config?.workflowExecutionRetentionTtl?.seconds)).toBe(86_400);
  });
});

/** All payload bytes of a history decoded as text, so the check sees what Temporal stores. */
function payloadText(node: unknown, out: string[] = []): string {
  if (node instanceof Uint8Array) out.push(Buffer.from(node).toString('utf8'));
  else if (Array.isArray(node)) for (const n of node) payloadText(n, out);
  else if (node && typeof node === 'object') for (const v of Object.values(node)) payloadText(v, out);
  return out.join('\n');
}
