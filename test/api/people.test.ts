import { describe, expect, it } from 'vitest';
import { writeInvoiceXml } from '../../src/xml/index.js';
import { fixtureInvoice, invoicePdf, pdfWithInvoiceXml } from '../reading/fixtures.js';
import { call, ownAccountToken, services } from './client.js';

/**
 * What the page at /app and people use from the API: validation reports as HTML and PDF,
 * the readable view of an e-invoice, the account's recent jobs, and the page itself.
 */

const invoice = fixtureInvoice('01-standard-19.json');
const broken = { ...invoice, buyerReference: undefined, documentTotals: { ...invoice.documentTotals, invoiceTotalAmountWithVat: '1.00' } };
const brokenXml = writeInvoiceXml(broken);
const validXml = writeInvoiceXml(invoice);
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

const VALIDATE_XML = '/api/v1/zugferd/validateXinvoiceXml';
const VALIDATE_PDF = '/api/v1/zugferd/validateZugferdPdf';
const VISUALIZE = '/api/v1/zugferd/visualizeXinvoice';

async function raw(service: (typeof services)[number], path: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, type: res.headers.get('content-type') ?? '', bytes: Buffer.from(await res.arrayBuffer()) };
}

describe.each(services)('reports and views for people ($name)', (service) => {
  it('answers the XML validation report as HTML with every error rule id, grouped by validator, in the asked language', async () => {
    const json = await call(service, VALIDATE_XML, { body: { xinvoiceXML: brokenXml } });
    const errorIds = new Set<string>(
      json.json.findings.filter((f: { severity: string }) => f.severity === 'error').map((f: { ruleId: string }) => f.ruleId),
    );
    expect([...errorIds]).toEqual(expect.arrayContaining(['BR-CO-15', 'BR-DE-15']));

    const html = await raw(
      service,
      VALIDATE_XML,
      { xinvoiceXML: brokenXml },
      { accept: 'text/html', 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' },
    );
    expect(html.status).toBe(200);
    expect(html.type).toContain('text/html');
    const page = html.bytes.toString('utf8');
    expect(page).toContain('<html lang="de">');
    expect(page).toContain(`Ungültig: ${errorIds.size} Fehler.`);
    const shown = new Set([...page.matchAll(/<code class="rule-id">([^<]+)<\/code>/g)].map((m) => m[1]));
    for (const id of errorIds) expect(shown).toContain(id);
    expect(page).toMatch(/data-group="en16931"[\s\S]*BR-CO-15/);
    expect(page).toMatch(/data-group="xrechnung"[\s\S]*BR-DE-15/);
    // The BT the rule names, the XPath it fired on, and the validators' versions.
    expect(page).toMatch(/<code class="rule-id">BR-CO-15<\/code><\/td><td>[^<]*<\/td><td>[^<]*BT-112/);
    const line = json.json.xInvoiceErrors.find((m: { id: string }) => m.id === 'BR-CO-16').line;
    expect(line).toMatch(/^\d+$/);
    expect(page).toContain(
      `Zeile ${line}<br><span class="loc">/CrossIndustryInvoice[1]/SupplyChainTradeTransaction[1]/ApplicableHeaderTradeSettlement[1]/SpecifiedTradeSettlementHeaderMonetarySummation[1]</span>`,
    );
    expect(page).toMatch(/data-group="en16931"><h2>.*?<\/h2><p class="note">CEN EN 16931 schematron \(CII\) 1\.3\.15<\/p>/);
    for (const a of json.json.validationArtefacts as Array<{ name: string; version: string }>)
      expect(page).toContain(`<td>${a.version}</td>`);
  });

  it('answers the same report as a PDF, and JSON when the client asks for anything', async () => {
    const pdf = await raw(service, VALIDATE_XML, { xinvoiceXML: brokenXml }, { accept: 'application/pdf' });
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const any = await raw(service, VALIDATE_XML, { xinvoiceXML: validXml }, { accept: '*/*' });
    expect(any.type).toContain('application/json');
    expect(JSON.parse(any.bytes.toString()).isValid).toBe(true);
  });

  it('answers the ZUGFeRD report as HTML with the PDF groups', { timeout: 120_000 }, async () => {
    const zugferd = b64(await pdfWithInvoiceXml(invoice));
    const html = await raw(service, VALIDATE_PDF, { zugferdFile64: zugferd }, { accept: 'text/html' });
    expect(html.status).toBe(200);
    const page = html.bytes.toString('utf8');
    expect(page).toContain('ZUGFeRD / Factur-X PDF');
    expect(page).toMatch(/Valid: no errors\.|Invalid: \d+ error\(s\)\./);
  });

  it('shows an e-invoice as a readable page and as a PDF; refuses XML that is no invoice', async () => {
    const html = await raw(service, VISUALIZE, { xinvoiceXML: validXml }, { 'accept-language': 'en' });
    expect(html.status).toBe(200);
    expect(html.type).toContain('text/html');
    const page = html.bytes.toString('utf8');
    expect(page).toContain(`Invoice ${invoice.invoiceNumber}`);
    expect(page).toContain('Rheinwerk Bürobedarf GmbH');
    expect(page).toContain('Buyer reference (BT-10)');
    expect(page).toContain('€');

    const de = await raw(service, VISUALIZE, { xinvoiceXML: validXml, language: 'de' }, { accept: 'application/pdf' });
    expect(de.status).toBe(200);
    expect(de.bytes.subarray(0, 5).toString()).toBe('%PDF-');

    const bad = await call(service, VISUALIZE, { body: { xinvoiceXML: '<x/>' } });
    expect(bad.status).toBe(422);
    expect(bad.json.error.code).toBe('XML_UNREADABLE');
    const both = await call(service, VISUALIZE, { body: { xinvoiceXML: validXml, zugferdFile64: 'AA==' } });
    expect(both.status).toBe(400);
    const plain = await call(service, VISUALIZE, { body: { zugferdFile64: b64(await invoicePdf(invoice)) } });
    expect(plain.json.error.code).toBe('INVOICE_XML_MISSING');
  });

  it("lists the account's recent jobs, newest first; linked to the Temporal UI where the service runs its own", async () => {
    const token = await ownAccountToken(service, 'jobs list');
    const v = await call(service, VALIDATE_XML, { body: { xinvoiceXML: validXml }, token });
    const id = `validateXinvoiceXml-${v.headers.get('x-request-id')}`;
    const other = await call(service, VALIDATE_XML, { body: { xinvoiceXML: validXml } });
    // Temporal's visibility store follows the workflow with a short delay: poll until it shows the finished job.
    let r = await call(service, '/api/v1/jobs?limit=5', { token });
    const listed = async () => {
      r = await call(service, '/api/v1/jobs?limit=5', { token });
      expect(r.status, r.text).toBe(200);
      return r.json.jobs.find((j: { workflowId: string }) => j.workflowId === id);
    };
    await expect
      .poll(listed, { timeout: 15_000, interval: 500 })
      .toMatchObject({ operation: 'validateXinvoiceXml', status: 'COMPLETED', outcome: 'valid' });
    const job = r.json.jobs.find((j: { workflowId: string }) => j.workflowId === id);
    // Only the account's own: another account's job is not listed.
    expect(r.json.jobs.map((j: { workflowId: string }) => j.workflowId)).toEqual([id]);
    expect(other.status).toBe(200);
    // The sqlite service owns the dev server and its UI; the postgres one borrows its Temporal without a UI address.
    if (service.name === 'sqlite') {
      expect(job.temporalUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/namespaces\/einvoice-test\/workflows\/validateXinvoiceXml-/);
      expect((await fetch(job.temporalUrl)).status).toBeLessThan(500);
    } else expect(job.temporalUrl).toBeUndefined();
    expect((await call(service, '/api/v1/jobs', { token: 'einv_wrong' })).status).toBe(401);
  });

  it("serves the page in the reader's language, with its script and styles", async () => {
    const de = await fetch(`${service.url}/app`, { headers: { 'accept-language': 'de-CH, en;q=0.5' } });
    expect(de.status).toBe(200);
    const html = await de.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('<label for="token">Ihr API-Token</label>');
    const en = await (await fetch(`${service.url}/app?lang=en`)).text();
    expect(en).toContain('<label for="token">Your API token</label>');
    // The fields' labels: each business term's name in the page's language, and the name of a list's item.
    const data = (page: string) => JSON.parse(/<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(page)![1]!);
    expect(data(html).names).toMatchObject({
      invoiceNumber: 'Rechnungsnummer',
      'seller.sellerName': 'Name des Verkäufers',
      'invoiceLine[].invoicedQuantity': 'Menge',
    });
    expect(data(html).lists['invoiceLine[]']).toBe('Rechnungsposition');
    expect(data(en).names).toMatchObject({
      invoiceNumber: 'Invoice number',
      'seller.sellerName': 'Seller name',
      'invoiceLine[].invoicedQuantity': 'Invoiced quantity',
    });
    expect(en).not.toContain('Rechnungsnummer');
    for (const asset of ['app.js', 'app.css', 'report.css']) expect((await fetch(`${service.url}/app/${asset}`)).status).toBe(200);
    expect((await fetch(`${service.url}/app/secret.txt`)).status).toBe(404);
  });

  it('documents the HTML and PDF answers and the new operations in the OpenAPI document', async () => {
    const doc = (await call(service, '/openapi.json', { token: null })).json;
    for (const path of [VALIDATE_XML, VALIDATE_PDF]) {
      const op = doc.paths[path].post;
      expect(Object.keys(op.responses['200'].content)).toEqual(['application/json', 'text/html', 'application/pdf']);
      expect(op.parameters.map((p: { name: string }) => p.name)).toContain('Accept-Language');
      expect(op.description).toContain('Accept: text/html');
    }
    expect(Object.keys(doc.paths[VISUALIZE].post.responses['200'].content)).toEqual(['text/html', 'application/pdf']);
    expect(doc.paths['/api/v1/jobs'].get.responses['200'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/ListRecentJobsResponse',
    );
    expect(doc.paths['/app']).toBeUndefined();
  });
});
