import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { kositDir } from '../../scripts/lib/kosit.js';
import { customization, OUTDATED_IDS } from '../../scripts/lib/mutations.js';
import { SCENARIOS, XRECHNUNG_3, XRECHNUNG_3_CVD, XRECHNUNG_3_EXTENSION } from '../../src/validation/scenarios.js';
import { isErrorFinding, validateInvoiceXml, type Finding, type ValidationReport } from '../../src/validation/index.js';
import { writeInvoiceXml } from '../../src/xml/index.js';
import { invoiceFixture } from '../xml/fixtures.js';
import { fixture, replaceOnce } from './fixtures.js';

/**
 * Scenario selection as in the KoSIT validator's XRechnung configuration: the scenario a document
 * is judged under, its severity overrides (customLevel), and no verdict "valid" for a document
 * that no scenario supports.
 */

const cii = () => fixture('cii');
const ubl = () => fixture('ubl');
const creditNote = () => fixture('ublCreditNote');
const withId = (xml: string, id: string) =>
  xml.includes('<cbc:CustomizationID>') ? customization(id).ubl(xml) : customization(id).cii(xml);
const rule = (r: ValidationReport, id: string) => r.findings.filter((f) => f.ruleId === id);
const blocking = (r: ValidationReport) => r.findings.filter(isErrorFinding).map((f) => f.ruleId);

describe('the scenario a document is judged under', () => {
  it.each([
    ['cii', XRECHNUNG_3, 'EN16931 XRechnung (CII)', ['xsd', 'en16931', 'xrechnung']],
    ['ubl', XRECHNUNG_3, 'EN16931 XRechnung (UBL Invoice)', ['xsd', 'en16931', 'xrechnung']],
    ['ublCreditNote', XRECHNUNG_3, 'EN16931 XRechnung (UBL CreditNote)', ['xsd', 'en16931', 'xrechnung']],
    ['cii', XRECHNUNG_3_EXTENSION, 'EN16931 XRechnung Extension (CII)', ['xsd', 'en16931', 'xrechnung']],
    ['ubl', XRECHNUNG_3_CVD, 'EN16931 XRechnung CVD (UBL Invoice)', ['xsd', 'en16931', 'xrechnung']],
    ['ublCreditNote', 'urn:cen.eu:en16931:2017', 'EN16931 (UBL CreditNote)', ['xsd', 'en16931']],
    ['cii', 'urn:cen.eu:en16931:2017', 'EN16931 (CII)', ['xsd', 'en16931']],
    [
      'ubl',
      'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
      'Peppol BIS Billing 3.0, EN 16931 rules (UBL Invoice)',
      ['xsd', 'en16931'],
    ],
    [
      'cii',
      'urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic',
      'Factur-X 1.0 / ZUGFeRD 2.x BASIC (CII)',
      ['xsd', 'en16931', 'profile'],
    ],
  ] as const)('%s fixture with BT-24 %s: %s', async (base, id, name, layers) => {
    const r = await validateInvoiceXml(withId(fixture(base), id));
    expect(r.scenario).toMatchObject({ name, layers });
    expect(r.customization).toBe(id);
  });

  it('names the scenario in the report that travels through Temporal and the API', async () => {
    const r = await validateInvoiceXml(cii());
    expect(JSON.parse(JSON.stringify(r)).scenario).toEqual({
      id: 'xrechnung-cii',
      name: 'EN16931 XRechnung (CII)',
      layers: ['xsd', 'en16931', 'xrechnung'],
    });
  });
});

describe('documents no scenario supports are not valid', () => {
  it.each(OUTDATED_IDS.map(([name, id]) => [name, id]))('%s (%s)', async (_name, id) => {
    for (const xml of [withId(cii(), id), withId(ubl(), id)]) {
      const r = await validateInvoiceXml(xml);
      expect(r.valid).toBe(false);
      expect(r.scenario).toBeUndefined();
      expect(r.findings).toHaveLength(1);
      expect(r.findings[0]).toMatchObject({ ruleId: 'SPECIFICATION-UNSUPPORTED', severity: 'fatal', location: 'BT-24', source: 'input' });
      // The finding names the identifier and the supported ones.
      expect(r.findings[0]!.message).toContain(`"${id}"`);
      expect(r.findings[0]!.message).toContain(XRECHNUNG_3);
      expect(r.artefacts).toEqual([]);
    }
  });

  it('says why for an XRechnung before 3.0', async () => {
    const r = await validateInvoiceXml(withId(cii(), 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_2.3'));
    expect(r.findings[0]!.message).toMatch(/names XRechnung 2\.3, which is no longer accepted/);
    expect(r.findings[0]!.message).toContain(`EN16931 XRechnung Extension: ${XRECHNUNG_3_EXTENSION}`);
  });

  it('says so for an identifier with white space around it', async () => {
    const r = await validateInvoiceXml(withId(ubl(), ` ${XRECHNUNG_3}`));
    expect(r.valid).toBe(false);
    expect(r.findings[0]!.message).toMatch(/white space around it/);
  });

  it('has no XRechnung extension for UBL credit notes, as KoSIT has none', async () => {
    const r = await validateInvoiceXml(withId(creditNote(), XRECHNUNG_3_EXTENSION));
    expect(blocking(r)).toEqual(['SPECIFICATION-UNSUPPORTED']);
    expect(r.findings[0]!.message).toContain('Supported for a UBL CreditNote');
  });

  it('rejects a document without BT-24', async () => {
    const r = await validateInvoiceXml(replaceOnce(ubl(), `<cbc:CustomizationID>${XRECHNUNG_3}</cbc:CustomizationID>`, ''));
    expect(r.valid).toBe(false);
    expect(r.findings[0]!.message).toMatch(/no specification identifier \(BT-24\)/);
  });
});

describe("the scenario's severity overrides (KoSIT customLevel)", () => {
  const unitZZZ = (xml: string) => xml.replace(/unitCode="[^"]*"/, 'unitCode="ZZZ"');

  it('lowers BR-CL-23 (unit code) to a warning for XRechnung, keeping the original severity', async () => {
    const r = await validateInvoiceXml(unitZZZ(ubl()));
    expect(rule(r, 'BR-CL-23')).toEqual([
      expect.objectContaining<Partial<Finding>>({ severity: 'warning', originalSeverity: 'error', source: 'en16931' }),
    ]);
    expect(r.valid).toBe(true);
  });

  it('keeps BR-CL-23 an error for plain EN 16931, with no original severity', async () => {
    const r = await validateInvoiceXml(unitZZZ(withId(ubl(), 'urn:cen.eu:en16931:2017')));
    const [finding] = rule(r, 'BR-CL-23');
    expect(finding).toMatchObject({ severity: 'error' });
    expect(finding).not.toHaveProperty('originalSeverity');
    expect(r.valid).toBe(false);
  });

  const twoPaymentTerms = (xml: string) =>
    xml.replace(/<ram:SpecifiedTradePaymentTerms>[\s\S]*?<\/ram:SpecifiedTradePaymentTerms>/, (terms) => terms + terms);

  it('raises CII-SR-452 (one payment terms) to an error for XRechnung CII', async () => {
    const r = await validateInvoiceXml(twoPaymentTerms(cii()));
    expect(rule(r, 'CII-SR-452')).toEqual([expect.objectContaining({ severity: 'error', originalSeverity: 'warning' })]);
    expect(r.valid).toBe(false);
    const plain = await validateInvoiceXml(twoPaymentTerms(withId(cii(), 'urn:cen.eu:en16931:2017')));
    expect(rule(plain, 'CII-SR-452')).toEqual([expect.objectContaining({ severity: 'warning' })]);
  });

  it('lowers BR-CL-13 (item classification scheme) to information for XRechnung CVD only', async () => {
    const classified = (xml: string) =>
      replaceOnce(
        xml,
        '<ram:Name>Beratungsleistung</ram:Name>',
        '<ram:Name>Beratungsleistung</ram:Name><ram:DesignatedProductClassification><ram:ClassCode listID="XX">1</ram:ClassCode></ram:DesignatedProductClassification>',
      );
    const cvd = await validateInvoiceXml(classified(withId(cii(), XRECHNUNG_3_CVD)));
    expect(rule(cvd, 'BR-CL-13')).toEqual([expect.objectContaining({ severity: 'information', originalSeverity: 'error' })]);
    const standard = await validateInvoiceXml(classified(cii()));
    expect(rule(standard, 'BR-CL-13')).toEqual([expect.objectContaining({ severity: 'error' })]);
  });

  it('lowers BR-CL-10 (identifier scheme) to information for the XRechnung extension', async () => {
    const identified = (xml: string) =>
      replaceOnce(
        xml,
        '<ram:Name>Beispiel Beratung GmbH</ram:Name>',
        '<ram:GlobalID schemeID="9999">1</ram:GlobalID><ram:Name>Beispiel Beratung GmbH</ram:Name>',
      );
    const extension = await validateInvoiceXml(identified(withId(cii(), XRECHNUNG_3_EXTENSION)));
    expect(rule(extension, 'BR-CL-10')).toEqual([expect.objectContaining({ severity: 'information', originalSeverity: 'error' })]);
    const standard = await validateInvoiceXml(identified(cii()));
    expect(rule(standard, 'BR-CL-10')).toEqual([expect.objectContaining({ severity: 'error' })]);
  });
});

describe('the rule versions of the KoSIT configuration', () => {
  it('reports CEN 1.3.15 and XRechnung schematron 2.5.0', async () => {
    const r = await validateInvoiceXml(cii());
    expect(r.artefacts).toEqual(
      expect.arrayContaining([
        { name: 'CEN EN 16931 schematron (CII)', version: '1.3.15' },
        { name: 'XRechnung schematron (CII)', version: '2.5.0' },
      ]),
    );
  });

  it('keeps BR-CO-25 (CEN 1.3.15; 1.3.16 dropped it): a positive amount due needs a due date or payment terms', async () => {
    const r = await validateInvoiceXml(cii().replace(/<ram:SpecifiedTradePaymentTerms>[\s\S]*?<\/ram:SpecifiedTradePaymentTerms>/, ''));
    expect(blocking(r)).toContain('BR-CO-25');
  });

  it('has PEPPOL-EN16931-R120 (line net = quantity × price) as a warning (XRechnung schematron 2.5.0; an error in 2.4.0)', async () => {
    const invoice = invoiceFixture('01-standard-19');
    const xml = writeInvoiceXml(invoice, { syntax: 'UBL' }).replace(
      /(<cac:Price>\s*<cbc:PriceAmount currencyID="EUR">)([\d.]+)/,
      (_m, head: string, price: string) => `${head}${(Number(price) + 0.07).toFixed(2)}`,
    );
    const r = await validateInvoiceXml(xml);
    expect(rule(r, 'PEPPOL-EN16931-R120')).toEqual([expect.objectContaining({ severity: 'warning', source: 'xrechnung' })]);
    expect(r.valid).toBe(true);
  });
});

const kositScenarios = path.join(kositDir, 'config', 'scenarios.xml');
if (!existsSync(kositScenarios))
  console.log(`scenarios: ${kositScenarios} not present; the scenario table was not compared with the KoSIT configuration (skipped)`);

describe.runIf(existsSync(kositScenarios))("the scenario table against the KoSIT configuration's scenarios.xml", () => {
  it('has the same scenarios, in the same order, with the same BT-24 and the same customLevels', () => {
    const NS = 'http://www.xoev.de/de/validator/framework/1/scenarios';
    const root = new DOMParser().parseFromString(readFileSync(kositScenarios, 'utf8'), 'text/xml').documentElement!;
    const child = (el: Element, name: string) => Array.from(el.getElementsByTagNameNS(NS, name));
    const theirs = child(root, 'scenario').map((s) => {
      const match = child(s, 'match')[0]!.textContent ?? '';
      const kind = match.includes('creditnote:CreditNote') ? 'ubl-creditnote' : match.includes('invoice:Invoice') ? 'ubl-invoice' : 'cii';
      const levels = Object.fromEntries(child(s, 'customLevel').map((c) => [(c.textContent ?? '').trim(), c.getAttribute('level')]));
      return { name: child(s, 'name')[0]!.textContent?.trim(), kind, customization: /'([^']+)'/.exec(match)?.[1], customLevels: levels };
    });
    const ours = SCENARIOS.filter((s) => s.name.startsWith('EN16931')).map(({ name, kind, customization: id, customLevels }) => ({
      name,
      kind,
      customization: id,
      customLevels,
    }));
    expect(ours).toEqual(theirs);
  });
});
