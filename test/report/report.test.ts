import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { visibleText } from '../../src/pdf/visible-text.js';
import { preferredType } from '../../src/api/negotiate.js';
import { reportHtml } from '../../src/report/html.js';
import { invoiceHtml } from '../../src/report/invoice-html.js';
import { pickLanguage } from '../../src/report/language.js';
import { reportPdf } from '../../src/report/pdf.js';
import { readableLocation, reportView, termsOf, type ReportSubject } from '../../src/report/validation-report.js';
import { fixtureInvoice } from '../reading/fixtures.js';

const TYPES = ['application/json', 'text/html', 'application/pdf'] as const;

describe('content negotiation and language', () => {
  it('keeps JSON for absent, wildcard and unknown Accept headers; picks by quality, then order', () => {
    expect(preferredType(undefined, TYPES)).toBe('application/json');
    expect(preferredType('*/*', TYPES)).toBe('application/json');
    expect(preferredType('image/png', TYPES)).toBe('application/json');
    expect(preferredType('text/html', TYPES)).toBe('text/html');
    expect(preferredType('text/html;q=0.5, application/pdf', TYPES)).toBe('application/pdf');
    expect(preferredType('application/pdf, text/html', TYPES)).toBe('application/pdf');
    expect(preferredType('text/html;q=0', TYPES)).toBe('application/json');
  });

  it('takes an explicit language first, then Accept-Language by quality, else English', () => {
    expect(pickLanguage('de', 'en')).toBe('de');
    expect(pickLanguage('fr', 'de-AT')).toBe('de');
    expect(pickLanguage(undefined, 'fr-FR, de;q=0.8, en;q=0.9')).toBe('en');
    expect(pickLanguage(undefined, 'fr')).toBe('en');
    expect(pickLanguage(undefined, undefined)).toBe('en');
  });
});

const subject: ReportSubject = {
  kind: 'zugferd',
  valid: false,
  pdfValid: false,
  xmlValid: false,
  findings: [
    {
      ruleId: 'BR-DE-15',
      severity: 'error',
      message: '[BR-DE-15] Das Element "Buyer reference" (BT-10) muss übermittelt werden.',
      source: 'xrechnung',
      location: '/*:CrossIndustryInvoice[1]',
    },
    { ruleId: 'BR-CL-23', severity: 'warning', originalSeverity: 'error', message: 'Unit code <ZZZ> & "quoted"', source: 'en16931' },
    { ruleId: 'PDFA-6.2.11.4.1-1', severity: 'error', message: 'font not embedded', source: 'pdf' },
    { ruleId: 'ZF-XMP-LEVEL', severity: 'error', message: 'XMP level', source: 'pdf' },
    { ruleId: 'PDF2XML-BT-112', severity: 'warning', message: 'total not shown', source: 'pdf' },
  ],
  artefacts: [{ name: 'veraPDF', version: '1.28' }],
};

describe('the validation report for people', () => {
  it('finds the business terms of a finding in its rule id and message', () => {
    expect(termsOf({ ruleId: 'BR-CO-15', message: 'Invoice total amount with VAT (BT-112) = (BT-109) + (BT-110); BG-22' })).toEqual([
      'BT-112',
      'BT-109',
      'BT-110',
      'BG-22',
    ]);
    expect(termsOf({ ruleId: 'PDF2XML-BT-1', message: 'not on the page' })).toEqual(['BT-1']);
  });

  it('shows schematron locations without their namespace tests', () => {
    expect(
      readableLocation(
        "/*:CrossIndustryInvoice[namespace-uri()='urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100'][1]/*:ExchangedDocument[namespace-uri()='x'][1]",
      ),
    ).toBe('/CrossIndustryInvoice[1]/ExchangedDocument[1]');
    expect(readableLocation('12:7')).toBe('12:7');
  });

  it("groups findings by validator, PDF/A apart from the container, errors first, in the reader's language", () => {
    const view = reportView(subject, 'de');
    expect(view.verdict).toBe('Ungültig: 3 Fehler.');
    expect(view.groups.map((g) => [g.id, g.findings.map((f) => f.ruleId)])).toEqual([
      ['en16931', ['BR-CL-23']],
      ['xrechnung', ['BR-DE-15']],
      ['pdfa', ['PDFA-6.2.11.4.1-1']],
      ['container', ['ZF-XMP-LEVEL', 'PDF2XML-BT-112']],
    ]);
    expect(view.facts).toContainEqual(['PDF-Teil', 'ungültig']);
  });

  it('escapes everything the document brought in, and shows the overridden severity', () => {
    const html = reportHtml(reportView(subject, 'en'));
    expect(html).toContain('Unit code &lt;ZZZ&gt; &amp; &quot;quoted&quot;');
    expect(html).not.toContain('<ZZZ>');
    expect(html).toContain('warning<br><span class="note">rule set: error</span>');
    expect(html).toContain('<td>veraPDF</td><td>1.28</td>');
  });

  it('prints the same view as a PDF: verdict, every finding, versions; running over pages', async () => {
    const pdf = await reportPdf(reportView(subject, 'en'));
    const text = (await visibleText(pdf)).replace(/\s+/g, ' ');
    for (const words of [
      'Invalid: 3 error(s).',
      'BR-DE-15',
      'BT-10',
      'PDFA-6.2.11.4.1-1',
      'ZF-XMP-LEVEL',
      'Unit code <ZZZ>',
      'veraPDF: 1.28',
    ])
      expect(text).toContain(words);
    const many = { ...subject, findings: Array.from({ length: 120 }, (_, i) => ({ ...subject.findings[0]!, ruleId: `BR-X-${i}` })) };
    const long = await PDFDocument.load(await reportPdf(reportView(many, 'en')));
    expect(long.getPageCount()).toBeGreaterThan(3);
  });
});

describe('the readable view of an invoice', () => {
  it("shows parties, lines, VAT and totals in the reader's locale, amounts exact", () => {
    const invoice = fixtureInvoice('01-standard-19.json');
    const html = invoiceHtml(invoice, 'de');
    expect(html).toContain(`<h1>Rechnung ${invoice.invoiceNumber}</h1>`);
    expect(html).toContain('Rheinwerk Bürobedarf GmbH');
    // Every term under its name in the reader's language (src/invoice/term-names.ts).
    expect(html).toContain('Rechnungsdatum (BT-2)</dt><dd>03.03.2025');
    expect(html).toContain('Name des Käufers (BT-44)');
    expect(invoiceHtml(invoice, 'en')).toContain('Invoice issue date (BT-2)</dt><dd>3 Mar 2025');
    expect(html).toContain(
      new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(
        Number(invoice.documentTotals!.invoiceTotalAmountWithVat),
      ),
    );
    expect((html.match(/<tr>/g) ?? []).length).toBe(invoice.invoiceLine!.length + 1 + invoice.vatBreakdown!.length + 1);
  });
});
