import { describe, expect, it } from 'vitest';
import { validateInvoiceXml, warmUpValidation, type Finding, type ValidationReport } from '../../src/validation/index.js';
import { fixture, replaceOnce } from './fixtures.js';

const ids = (r: ValidationReport, severity?: Finding['severity']) =>
  r.findings.filter((f) => severity === undefined || f.severity === severity).map((f) => f.ruleId);

describe('valid XRechnung fixtures', () => {
  it.each([
    ['cii', 'CII', '380'],
    ['ubl', 'UBL', '380'],
    ['ublCreditNote', 'UBL', '381'],
  ] as const)('%s passes XSD, EN 16931 and XRechnung rules without any finding', async (name, syntax, documentType) => {
    const r = await validateInvoiceXml(fixture(name));
    expect(r.findings).toEqual([]);
    expect(r.valid).toBe(true);
    expect(r.syntax).toBe(syntax);
    expect(r.documentType).toBe(documentType);
    expect(r.customization).toBe('urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0');
    expect(r.artefacts.map((a) => a.name)).toEqual([
      expect.stringContaining('XSD'),
      expect.stringContaining('EN 16931 schematron'),
      expect.stringContaining('XRechnung schematron'),
    ]);
    for (const a of r.artefacts) expect(a.version).toMatch(/^(D16B|2\.1|\d+\.\d+\.\d+)$/);
  });

  it('returns a report that survives a JSON round trip unchanged (it travels through Temporal)', async () => {
    const r = await validateInvoiceXml(replaceOnce(fixture('cii'), '<ram:GrandTotalAmount>119.00', '<ram:GrandTotalAmount>120.00'));
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
    expect(Object.getPrototypeOf(r)).toBe(Object.prototype);
  });

  it('accepts a document whose XML declaration names another encoding, since the string is already decoded', async () => {
    const xml = replaceOnce(fixture('cii'), 'encoding="UTF-8"', 'encoding="ISO-8859-1"');
    const r = await validateInvoiceXml(xml);
    expect(r.findings).toEqual([]);
  });
});

describe('EN 16931 business rules', () => {
  it.each([
    ['cii', '<ram:ID>TEST-2024-0001</ram:ID>', '<ram:ID></ram:ID>'],
    ['ubl', '<cbc:ID>TEST-2024-0001</cbc:ID>', '<cbc:ID></cbc:ID>'],
  ] as const)('reports BR-02 when the invoice number (BT-1) is empty (%s)', async (name, search, replacement) => {
    const r = await validateInvoiceXml(replaceOnce(fixture(name), search, replacement));
    expect(r.valid).toBe(false);
    const br02 = r.findings.find((f) => f.ruleId === 'BR-02');
    expect(br02).toMatchObject({
      severity: 'error',
      source: 'en16931',
      location: expect.stringMatching(/^\/\*:(CrossIndustryInvoice|Invoice)\[/),
    });
    expect(br02?.message).toContain('BT-1');
    // XRechnung additionally forbids empty elements.
    expect(ids(r, 'error')).toEqual(['BR-02', 'PEPPOL-EN16931-R008']);
  });

  it.each([
    ['cii', '<ram:ID>TEST-2024-0001</ram:ID>', '/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:TypeCode', 'CII D16B XSD'],
    ['ubl', '<cbc:ID>TEST-2024-0001</cbc:ID>', '/*/cbc:IssueDate', 'UBL 2.1 Invoice XSD'],
  ] as const)(
    'reports a schema error, and skips the business rules, when BT-1 is missing altogether (%s)',
    async (name, element, location, schema) => {
      const r = await validateInvoiceXml(replaceOnce(fixture(name), element, ''));
      expect(r.valid).toBe(false);
      expect(ids(r)).toEqual(['XSD', 'SCHEMATRON-SKIPPED']);
      expect(r.findings[0]).toMatchObject({ severity: 'error', source: 'xsd', location });
      expect(r.findings[0]?.message).toContain('ID');
      expect(r.findings[1]).toMatchObject({ severity: 'information' });
      expect(r.artefacts.map((a) => a.name)).toEqual([expect.stringContaining(schema)]);
    },
  );

  it('reports BR-CO-15 when the total with VAT is not net total plus VAT (CII)', async () => {
    const r = await validateInvoiceXml(replaceOnce(fixture('cii'), '<ram:GrandTotalAmount>119.00', '<ram:GrandTotalAmount>120.00'));
    expect(r.valid).toBe(false);
    expect(ids(r, 'error')).toContain('BR-CO-15');
  });

  it('reports BR-CO-10 when the sum of line net amounts does not match (UBL)', async () => {
    const r = await validateInvoiceXml(
      replaceOnce(
        fixture('ubl'),
        '<cbc:LineExtensionAmount currencyID="EUR">100.00</cbc:LineExtensionAmount>\n    <cbc:TaxExclusiveAmount',
        '<cbc:LineExtensionAmount currencyID="EUR">90.00</cbc:LineExtensionAmount>\n    <cbc:TaxExclusiveAmount',
      ),
    );
    expect(r.valid).toBe(false);
    expect(ids(r, 'error')).toContain('BR-CO-10');
    expect(r.findings.every((f) => f.source === 'en16931' || f.source === 'xrechnung')).toBe(true);
  });

  it('reports BR-S-08 when the VAT breakdown does not add up (credit note)', async () => {
    const r = await validateInvoiceXml(
      replaceOnce(fixture('ublCreditNote'), '<cbc:TaxableAmount currencyID="EUR">100.00', '<cbc:TaxableAmount currencyID="EUR">80.00'),
    );
    expect(r.valid).toBe(false);
    expect(ids(r, 'error')).toContain('BR-S-08');
  });
});

describe('XRechnung rules', () => {
  const withoutBuyerReference = () => replaceOnce(fixture('cii'), '<ram:BuyerReference>04011000-12345-67</ram:BuyerReference>', '');

  it('applies the XRechnung rules automatically when BT-24 names XRechnung: BR-DE-15 for a missing buyer reference', async () => {
    const r = await validateInvoiceXml(withoutBuyerReference());
    expect(r.valid).toBe(false);
    expect(r.findings.find((f) => f.ruleId === 'BR-DE-15')).toMatchObject({ severity: 'error', source: 'xrechnung' });
  });

  it('does not apply the XRechnung rules to a plain EN 16931 document (BT-24 urn:cen.eu:en16931:2017)', async () => {
    const plain = replaceOnce(
      withoutBuyerReference(),
      'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
      'urn:cen.eu:en16931:2017',
    );
    const r = await validateInvoiceXml(plain);
    expect(r.findings).toEqual([]);
    expect(r.valid).toBe(true);
    expect(r.scenario).toEqual({ id: 'en16931-cii', name: 'EN16931 (CII)', layers: ['xsd', 'en16931'] });
    expect(r.artefacts.map((a) => a.name).some((n) => n.includes('XRechnung'))).toBe(false);
  });

  it('accepts a correct IBAN in BR-DE-19 (precision of the mod-97 check under SaxonJS) and flags a wrong one', async () => {
    const ok = await validateInvoiceXml(fixture('ubl'));
    expect(ids(ok)).not.toContain('BR-DE-19');
    const wrong = await validateInvoiceXml(
      replaceOnce(fixture('ubl'), '<cbc:ID>DE89370400440532013000</cbc:ID>', '<cbc:ID>DE89370400440532013001</cbc:ID>'),
    );
    expect(wrong.findings.find((f) => f.ruleId === 'BR-DE-19')).toMatchObject({ severity: 'warning', source: 'xrechnung' });
    expect(wrong.valid).toBe(true);
  });
});

describe('XML Schema', () => {
  it('reports an unexpected element with its XPath and does not run the schematrons', async () => {
    const r = await validateInvoiceXml(
      replaceOnce(fixture('cii'), '<ram:TypeCode>380</ram:TypeCode>', '<ram:TypeCode>380</ram:TypeCode><ram:Surprise/>'),
    );
    expect(r.valid).toBe(false);
    expect(r.findings[0]).toMatchObject({
      ruleId: 'XSD',
      severity: 'error',
      source: 'xsd',
      location: '/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:Surprise',
    });
    expect(r.findings[0]?.message).toContain('Surprise');
    expect(ids(r)).toContain('SCHEMATRON-SKIPPED');
  });

  it('reports a data type violation (a non-date in a date field)', async () => {
    const r = await validateInvoiceXml(
      replaceOnce(fixture('ubl'), '<cbc:IssueDate>2024-03-15</cbc:IssueDate>', '<cbc:IssueDate>15.03.2024</cbc:IssueDate>'),
    );
    expect(r.findings[0]).toMatchObject({ ruleId: 'XSD', location: '/*/cbc:IssueDate' });
    expect(r.findings[0]?.message).toContain('date');
  });
});

describe('performance', () => {
  it('warms up every schema and rule set ahead of the first document', async () => {
    // Idempotent: a second call must neither fail nor reload anything.
    warmUpValidation();
    warmUpValidation();
    for (const name of ['cii', 'ubl', 'ublCreditNote'] as const) {
      expect((await validateInvoiceXml(fixture(name))).valid).toBe(true);
    }
  });

  it('validates a typical invoice well under a second once warm', async () => {
    const xml = fixture('cii');
    await validateInvoiceXml(xml);
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await validateInvoiceXml(xml);
      runs.push(performance.now() - t);
    }
    const median = [...runs].sort((a, b) => a - b)[2] ?? Infinity;
    console.log(`validation: warm CII XRechnung median ${median.toFixed(1)} ms (runs ${runs.map((t) => t.toFixed(0)).join(', ')})`);
    expect(median).toBeLessThan(500);
  });
});
