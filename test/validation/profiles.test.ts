import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyProfileScope } from '../../src/pdf/validate.js';
import { extractZugferdInvoice } from '../../src/pdf/zugferd.js';
import { isErrorFinding as isBlocking, validateInvoiceXml, type ValidationReport } from '../../src/validation/index.js';
import { writeInvoiceXml, type CiiProfile } from '../../src/xml/index.js';
import { repoRoot } from '../support/java-validators.js';
import { invoiceFixture } from '../xml/fixtures.js';
import { replaceOnce } from './fixtures.js';

/**
 * The Factur-X / ZUGFeRD profile rules (profile XSD + profile schematron from
 * Mustang's validator jar), applied when a CII document's BT-24 names a
 * profile. Fixtures are the service's own output for each profile.
 */

const invoice = invoiceFixture('01-standard-19');
const profileXml = (profile: CiiProfile) => writeInvoiceXml(invoice, { profile });
const profileFindings = (r: ValidationReport) => r.findings.filter((f) => f.source === 'profile');
const names = (r: ValidationReport) => r.artefacts.map((a) => a.name);

describe('Factur-X / ZUGFeRD profile rules', () => {
  it.each([
    ['MINIMUM', 'Factur-X MINIMUM'],
    ['BASICWL', 'Factur-X BASIC WL'],
  ] as const)('%s output that follows its profile passes the profile XSD and schematron', async (profile, label) => {
    const r = await validateInvoiceXml(profileXml(profile));
    expect(profileFindings(r).filter(isBlocking)).toEqual([]);
    expect(names(r)).toEqual(expect.arrayContaining([`${label} XSD`, `${label} schematron`]));
    for (const a of r.artefacts.filter((x) => x.name.startsWith('Factur-X'))) expect(a.version).toMatch(/^\d+\.\d+(\.\d+)?$/);
    // The EN 16931 rules do not apply to these profiles (no lines): the PDF
    // validator keeps them as information, after which the XML is valid.
    expect(applyProfileScope(r, profile).filter(isBlocking)).toEqual([]);
  });

  // The EN16931 profile writes plain EN 16931 into BT-24: it is the Factur-X profile inside a PDF.
  it.each(['BASIC', 'EN16931'] as const)(
    '%s output in a PDF is valid with the profile XSD and schematron applied as their own layer',
    async (profile) => {
      const r = await validateInvoiceXml(profileXml(profile), { container: 'pdf' });
      expect(r.findings.filter(isBlocking)).toEqual([]);
      expect(r.valid).toBe(true);
      const label = `Factur-X ${profile}`;
      expect(names(r)).toEqual([
        expect.stringContaining('CII D16B XSD'),
        'CEN EN 16931 schematron (CII)',
        `${label} XSD`,
        `${label} schematron`,
      ]);
      expect(r.scenario).toMatchObject({ id: `factur-x-${profile.toLowerCase()}-cii`, layers: ['xsd', 'en16931', 'profile'] });
    },
  );

  // Two seller contact names (BT-41 twice): CII-SR-465 is a warning of the CEN rules, an error of the Factur-X profiles.
  const withDepartment = () =>
    replaceOnce(
      profileXml('EN16931'),
      'Debitorenbuchhaltung</ram:PersonName>',
      'Debitorenbuchhaltung</ram:PersonName><ram:DepartmentName>Buchhaltung</ram:DepartmentName>',
    );

  it('judges plain EN 16931 XML on its own as EN 16931 (CII), without the Factur-X layer, as KoSIT does', async () => {
    const r = await validateInvoiceXml(withDepartment());
    expect(r.scenario).toEqual({ id: 'en16931-cii', name: 'EN16931 (CII)', layers: ['xsd', 'en16931'] });
    expect(names(r).some((n) => n.startsWith('Factur-X'))).toBe(false);
    expect(r.findings.filter((f) => f.ruleId === 'CII-SR-465').map((f) => [f.source, f.severity])).toEqual([['en16931', 'warning']]);
    expect(r.valid).toBe(true);
  });

  it('applies the Factur-X EN16931 layer to the same XML inside a PDF', async () => {
    const r = await validateInvoiceXml(withDepartment(), { container: 'pdf' });
    expect(r.scenario?.name).toBe('Factur-X 1.0 / ZUGFeRD 2.x EN 16931 (CII)');
    expect(
      r.findings
        .filter((f) => f.ruleId === 'CII-SR-465')
        .map((f) => [f.source, f.severity])
        .sort(),
    ).toEqual([
      ['en16931', 'warning'],
      ['profile', 'error'],
    ]);
    expect(r.valid).toBe(false);
  });

  it('EXTENDED output is valid with the EXTENDED XSD and schematron applied', async () => {
    // The EXTENDED schematron runs under SaxonJS only with the set-up patch of
    // BR-FXEXT-CO-10/13 (scripts/setup-validators.sh); before it, every
    // EXTENDED invoice with lines stopped with XPTY0004.
    const r = await validateInvoiceXml(profileXml('EXTENDED'));
    expect(r.findings.filter(isBlocking)).toEqual([]);
    expect(ids(r)).not.toContain('SCHEMATRON-PROCESSING');
    expect(r.valid).toBe(true);
    expect(names(r)).toEqual([
      expect.stringContaining('CII D16B XSD'),
      'CEN EN 16931 schematron (CII)',
      'Factur-X EXTENDED XSD',
      'Factur-X EXTENDED schematron',
    ]);
  });

  // 01-standard-19 has three lines with net amounts summing to 472.90 (BT-106).
  // BR-FXEXT-CO-10 allows |BT-106 - sum of BT-131| <= 0.01 per line, i.e. 0.03 here.
  const extendedWithLineTotal = (total: string) =>
    replaceOnce(
      profileXml('EXTENDED'),
      '<ram:LineTotalAmount>472.90</ram:LineTotalAmount>',
      `<ram:LineTotalAmount>${total}</ram:LineTotalAmount>`,
    );

  it('reports an EXTENDED sum of line net amounts outside the profile tolerance with BR-FXEXT-CO-10', async () => {
    const r = await validateInvoiceXml(extendedWithLineTotal('473.00'));
    expect(r.valid).toBe(false);
    expect(profileFindings(r).filter(isBlocking)).toEqual([
      expect.objectContaining({
        ruleId: 'BR-FXEXT-CO-10',
        severity: 'error',
        source: 'profile',
        location: expect.stringContaining('SpecifiedTradeSettlementHeaderMonetarySummation'),
      }),
    ]);
    expect(names(r)).toContain('Factur-X EXTENDED schematron');
  });

  it('accepts an EXTENDED sum of line net amounts within the profile tolerance (EN 16931 BR-CO-10 still applies)', async () => {
    const r = await validateInvoiceXml(extendedWithLineTotal('472.92'));
    expect(profileFindings(r).filter(isBlocking)).toEqual([]);
    // EN 16931 compares exactly: BR-CO-10 (lines) and BR-CO-13 (tax basis = BT-106 - allowances + charges).
    expect(
      r.findings
        .filter(isBlocking)
        .map((f) => `${f.source}:${f.ruleId}`)
        .sort(),
    ).toEqual(['en16931:BR-CO-10', 'en16931:BR-CO-13']);
  });

  it('decides a sum exactly at the EXTENDED tolerance as Saxon-HE (Mustang) does', async () => {
    // |472.93 - 472.90| = 0.03 = 3 x 0.01, but the rule casts the xs:double
    // sum to xs:decimal, which Saxon-HE does exactly (472.8999999999999772...),
    // so the difference is just above 0.03 and Mustang reports BR-FXEXT-CO-10.
    // SaxonJS alone would cast to 472.9 and pass; the set-up's fx:decimal patch
    // reproduces the exact cast.
    const r = await validateInvoiceXml(extendedWithLineTotal('472.93'));
    expect(
      profileFindings(r)
        .filter(isBlocking)
        .map((f) => f.ruleId),
    ).toEqual(['BR-FXEXT-CO-10']);
  });

  it('reports an EXTENDED tax basis that does not match the lines, allowances and charges with BR-FXEXT-CO-13', async () => {
    const xml = replaceOnce(
      profileXml('EXTENDED'),
      '<ram:TaxBasisTotalAmount>472.90</ram:TaxBasisTotalAmount>',
      '<ram:TaxBasisTotalAmount>473.90</ram:TaxBasisTotalAmount>',
    );
    const r = await validateInvoiceXml(xml);
    expect(r.valid).toBe(false);
    // BR-FXEXT-CO-15 (grand total = tax basis + VAT) follows from the same change.
    expect(
      profileFindings(r)
        .filter(isBlocking)
        .map((f) => f.ruleId)
        .sort(),
    ).toEqual(['BR-FXEXT-CO-13', 'BR-FXEXT-CO-15']);
  });

  it('rejects invoice lines in BASIC WL with a profile XSD finding', async () => {
    // EN16931 output has lines; naming it BASIC WL puts content the profile forbids into a BASIC WL document.
    const xml = replaceOnce(
      profileXml('EN16931'),
      '<ram:ID>urn:cen.eu:en16931:2017</ram:ID>',
      '<ram:ID>urn:factur-x.eu:1p0:basicwl</ram:ID>',
    );
    const r = await validateInvoiceXml(xml);
    expect(r.valid).toBe(false);
    expect(r.customization).toBe('urn:factur-x.eu:1p0:basicwl');
    const xsd = profileFindings(r).filter((f) => f.ruleId === 'PROFILE-XSD');
    expect(xsd.length).toBeGreaterThan(0);
    expect(xsd.every(isBlocking)).toBe(true);
    expect(xsd.map((f) => f.message).join('\n')).toContain('IncludedSupplyChainTradeLineItem');
    expect(ids(r)).toContain('PROFILE-SCHEMATRON-SKIPPED');
    expect(names(r)).toContain('Factur-X BASIC WL XSD');
    expect(names(r)).not.toContain('Factur-X BASIC WL schematron');
  });

  it('reports a code the profile does not allow with the profile schematron rule id', async () => {
    const bad = replaceOnce(profileXml('MINIMUM'), '<ram:TypeCode>380</ram:TypeCode>', '<ram:TypeCode>999</ram:TypeCode>');
    const r = await validateInvoiceXml(bad);
    expect(r.valid).toBe(false);
    const typeCode = profileFindings(r).filter((f) => f.location?.includes('TypeCode'));
    expect(typeCode).toEqual([expect.objectContaining({ ruleId: 'FX-SCH-A-000023', severity: 'error', source: 'profile' })]);
    expect(names(r)).toContain('Factur-X MINIMUM schematron');
  });

  it('keeps the schematron\'s "not used in the given context" reports as warnings, as Mustang does not fail them', async () => {
    // The service's MINIMUM output has the buyer's address and VAT id, which the Factur-X 1.09 MINIMUM schematron reports.
    const r = await validateInvoiceXml(profileXml('MINIMUM'));
    const notUsed = profileFindings(r).filter((f) => f.ruleId === 'PROFILE-NOT-USED');
    expect(notUsed.length).toBeGreaterThan(0);
    expect(notUsed.every((f) => f.severity === 'warning' && /not used in the given context/.test(f.message))).toBe(true);
  });

  it('leaves XRechnung documents to the EN 16931 + XRechnung rules', async () => {
    const r = await validateInvoiceXml(profileXml('XRECHNUNG'));
    expect(profileFindings(r)).toEqual([]);
    expect(names(r).some((n) => n.startsWith('Factur-X'))).toBe(false);
  });

  const avoir = path.resolve(repoRoot, '../shared/corpus/invalid/Avoir_FR_type381_BASICWL.pdf');
  // The corpus lists this credit note as invalid: its BASIC WL XML puts
  // currencyID on amounts where the profile does not use it. Mustang 2.26
  // reports its XML as valid; the profile schematron flags every such
  // attribute, which we report as warnings like the other "not used" reports,
  // so after the BASIC WL scoping of the EN 16931 rules nothing blocks.
  it.runIf(existsSync(avoir))(
    'corpus: Avoir_FR_type381_BASICWL.pdf gets profile findings for the currencyID the profile does not use',
    { timeout: 60_000 },
    async () => {
      const extracted = await extractZugferdInvoice(readFileSync(avoir));
      expect(extracted).toBeDefined();
      const r = await validateInvoiceXml(extracted!.xml);
      expect(r.customization).toBe('urn:factur-x.eu:1p0:basicwl');
      expect(names(r)).toEqual(expect.arrayContaining(['Factur-X BASIC WL XSD', 'Factur-X BASIC WL schematron']));
      const notUsed = profileFindings(r).filter((f) => f.ruleId === 'PROFILE-NOT-USED');
      expect(notUsed.length).toBeGreaterThan(0);
      expect(notUsed.every((f) => f.message.includes('currencyID') && f.severity === 'warning')).toBe(true);
      expect(profileFindings(r).filter(isBlocking)).toEqual([]);
      expect(applyProfileScope(r, 'BASICWL').filter(isBlocking)).toEqual([]);
    },
  );
});

function ids(r: ValidationReport): string[] {
  return r.findings.map((f) => f.ruleId);
}
