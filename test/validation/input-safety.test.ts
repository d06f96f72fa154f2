import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_INPUT_BYTES, validateInvoiceXml } from '../../src/validation/index.js';
import { hasDoctype } from '../../src/validation/input-guard.js';
import { fixture, replaceOnce } from './fixtures.js';

const secretDir = mkdtempSync(path.join(tmpdir(), 'xxe-'));
const secret = `SECRET-${randomBytes(12).toString('hex')}`;
const secretFile = path.join(secretDir, 'secret.txt');
writeFileSync(secretFile, secret);
afterAll(() => rmSync(secretDir, { recursive: true, force: true }));

/** The CII fixture with a prolog inserted right after the XML declaration. */
function withProlog(prolog: string, body = fixture('cii')): string {
  return replaceOnce(body, '<?xml version="1.0" encoding="UTF-8"?>', `<?xml version="1.0" encoding="UTF-8"?>\n${prolog}`);
}

describe('DOCTYPE and external entities', () => {
  it('rejects an XXE attempt before parsing, and the file content never reaches the report', async () => {
    const xml = replaceOnce(
      withProlog(`<!DOCTYPE rsm:CrossIndustryInvoice [<!ENTITY xxe SYSTEM "file://${secretFile}">]>`),
      'TEST-2024-0001',
      '&xxe;',
    );
    const r = await validateInvoiceXml(xml);
    expect(r.valid).toBe(false);
    expect(r.findings).toEqual([expect.objectContaining({ ruleId: 'INPUT-DOCTYPE', severity: 'fatal', source: 'input' })]);
    expect(r.syntax).toBeUndefined();
    expect(JSON.stringify(r)).not.toContain(secret);
  });

  it('rejects an external DTD reference', async () => {
    const r = await validateInvoiceXml(withProlog(`<!DOCTYPE rsm:CrossIndustryInvoice SYSTEM "file://${secretFile}">`));
    expect(r.findings.map((f) => f.ruleId)).toEqual(['INPUT-DOCTYPE']);
  });

  it('rejects entity expansion bombs quickly', async () => {
    const levels = Array.from({ length: 10 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
    const xml = withProlog(`<!DOCTYPE r [<!ENTITY l0 "lol">${levels}]>`).replace('TEST-2024-0001', '&l10;');
    const t = performance.now();
    const r = await validateInvoiceXml(xml);
    expect(performance.now() - t).toBeLessThan(1000);
    expect(r.findings.map((f) => f.ruleId)).toEqual(['INPUT-DOCTYPE']);
  });

  it('ignores xsi:schemaLocation hints: a document cannot bring its own, laxer schema', async () => {
    const lax = path.join(secretDir, 'lax.xsd');
    writeFileSync(
      lax,
      '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><xs:element name="Invoice"/></xs:schema>',
    );
    const hinted = replaceOnce(
      fixture('ubl'),
      '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"',
      `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2 file://${lax}"`,
    );
    const r = await validateInvoiceXml(replaceOnce(hinted, '<cbc:ID>TEST-2024-0001</cbc:ID>', ''));
    expect(r.findings.map((f) => f.ruleId)).toEqual(['XSD', 'SCHEMATRON-SKIPPED']);
  });

  it('finds a DOCTYPE behind comments, processing instructions and a byte order mark', () => {
    expect(hasDoctype('\uFEFF<?xml version="1.0"?>\n<!-- a -->\n<?pi x?>\n<!DOCTYPE x><x/>')).toBe(true);
    expect(hasDoctype('<!doctype x><x/>')).toBe(true);
  });

  it('does not mistake DOCTYPE text inside a comment or element content for a declaration', async () => {
    expect(hasDoctype('<?xml version="1.0"?><!-- <!DOCTYPE x> --><x>&lt;!DOCTYPE</x>')).toBe(false);
    const r = await validateInvoiceXml(withProlog('<!-- an old generator wrote <!DOCTYPE here -->'));
    expect(r.findings).toEqual([]);
    expect(r.valid).toBe(true);
  });
});

describe('malformed and unsupported input', () => {
  it('reports a document that is not well-formed as fatal, with line and column', async () => {
    const xml = fixture('cii').replace('</rsm:ExchangedDocument>', '</rsm:ExchangedDocumentX>');
    const r = await validateInvoiceXml(xml);
    expect(r.valid).toBe(false);
    expect(r.findings.length).toBeGreaterThan(0);
    expect(r.findings[0]).toMatchObject({
      ruleId: 'XML-NOT-WELL-FORMED',
      severity: 'fatal',
      source: 'xml',
      location: expect.stringMatching(/^\d+:\d+$/),
    });
    expect(r.findings[0]?.message).toMatch(/mismatch|ExchangedDocument/);
  });

  it('reports a truncated document as fatal', async () => {
    const xml = fixture('ubl');
    const r = await validateInvoiceXml(xml.slice(0, xml.length / 2));
    expect(r.findings.every((f) => f.ruleId === 'XML-NOT-WELL-FORMED' && f.severity === 'fatal')).toBe(true);
    expect(r.valid).toBe(false);
  });

  it.each([
    ['a foreign root element', '<order xmlns="urn:example:orders"><id>1</id></order>', '{urn:example:orders}order'],
    [
      'a UBL Order',
      '<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>',
      '{urn:oasis:names:specification:ubl:schema:xsd:Order-2}Order',
    ],
    ['CrossIndustryInvoice without its namespace', '<CrossIndustryInvoice/>', 'CrossIndustryInvoice'],
  ])('rejects %s as an unsupported document', async (_label, xml, root) => {
    const r = await validateInvoiceXml(xml);
    expect(r.valid).toBe(false);
    expect(r.findings).toEqual([expect.objectContaining({ ruleId: 'UNSUPPORTED-DOCUMENT', severity: 'fatal', source: 'input' })]);
    expect(r.findings[0]?.message).toContain(root);
  });

  it('rejects input over the size limit without parsing it', async () => {
    const xml = fixture('cii') + ' '.repeat(MAX_INPUT_BYTES);
    const r = await validateInvoiceXml(xml);
    expect(r.findings).toEqual([expect.objectContaining({ ruleId: 'INPUT-TOO-LARGE', severity: 'fatal', source: 'input' })]);
  });

  it('measures the limit in UTF-8 bytes, not characters', async () => {
    // Just under the limit in characters, but over it in bytes (ä is 2 bytes).
    const padding = `<!-- ${'ä'.repeat(MAX_INPUT_BYTES / 2)} -->`;
    const r = await validateInvoiceXml(withProlog(padding));
    expect(r.findings.map((f) => f.ruleId)).toEqual(['INPUT-TOO-LARGE']);
  });

  it('rejects empty input and non-string input', async () => {
    expect((await validateInvoiceXml('  \n')).findings.map((f) => f.ruleId)).toEqual(['INPUT-EMPTY']);
    expect((await validateInvoiceXml(42 as unknown as string)).findings.map((f) => f.ruleId)).toEqual(['INPUT-NOT-TEXT']);
  });
});
