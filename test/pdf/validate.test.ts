import { beforeAll, describe, expect, it } from 'vitest';
import { embedInvoiceXml } from '../../src/pdf/embed.js';
import { convertToPdfA3 } from '../../src/pdf/ghostscript.js';
import { isErrorFinding } from '../../src/validation/index.js';
import { CII_GUIDELINES, writeInvoiceXml } from '../../src/xml/index.js';
import { validateZugferdPdf } from '../../src/pdf/zugferd.js';
import type { ZugferdProfile } from '../../src/pdf/profiles.js';
import { veraPdfAvailable } from '../support/java-validators.js';
import { invoiceFixture } from '../xml/fixtures.js';
import { samplePdf } from './sample-pdf.js';
import { ZF1 } from './zugferd1-sample.js';

/** validateZugferdPdf on files made to be right and files made wrong in one known way each. */

const invoice = invoiceFixture('01-standard-19');
const ids = (report: { findings: Array<{ ruleId: string; severity: string }> }) =>
  report.findings.filter(isErrorFinding).map((f) => f.ruleId);

async function zugferd(
  opts: { xml?: string; metadataProfile?: ZugferdProfile; omit?: Parameters<typeof samplePdf>[1]['omit'] } = {},
): Promise<Uint8Array> {
  const pdfa = await convertToPdfA3(await samplePdf(invoice, { omit: opts.omit }));
  const { pdf } = await embedInvoiceXml({
    pdf: pdfa,
    xml: Buffer.from(opts.xml ?? writeInvoiceXml(invoice, { profile: 'EN16931' })),
    profile: opts.metadataProfile ?? 'EN16931',
    title: 'Invoice',
    now: new Date(),
  });
  return pdf;
}

describe('validateZugferdPdf', () => {
  let good: Uint8Array;
  beforeAll(async () => {
    good = await zugferd();
  });

  it('finds nothing wrong with a correct EN16931 file, its printout included', async () => {
    const report = await validateZugferdPdf(good, { compareText: true });
    expect(ids(report)).toEqual([]);
    expect(report).toMatchObject({ valid: true, pdfValid: true, xmlValid: true, profile: 'EN16931', xmlFileName: 'factur-x.xml' });
    if (veraPdfAvailable()) expect(report.artefacts.map((a) => a.name)).toContain('veraPDF PDF/A-3B');
  });

  it('reports XMP metadata that contradicts the XML', async () => {
    const report = await validateZugferdPdf(await zugferd({ metadataProfile: 'MINIMUM' }), { compareText: false });
    expect(ids(report)).toEqual(['ZF-XMP-LEVEL']);
    expect(report.findings.find((f) => f.ruleId === 'ZF-AFRELATIONSHIP')).toMatchObject({ severity: 'warning' });
    expect(report).toMatchObject({ valid: false, pdfValid: false, xmlValid: true });
  });

  it('reports content the profile does not allow', async () => {
    const xml = writeInvoiceXml(invoice, { profile: 'EN16931' }).replace(CII_GUIDELINES.EN16931, CII_GUIDELINES.MINIMUM);
    const report = await validateZugferdPdf(await zugferd({ xml, metadataProfile: 'MINIMUM' }), { compareText: false });
    const content = report.findings.filter((f) => f.ruleId === 'ZF-PROFILE-CONTENT');
    expect(content.map((f) => f.location)).toEqual(
      expect.arrayContaining(['invoiceLine[0].invoicedQuantity', 'seller.sellerPostalAddress.sellerCity']),
    );
    expect(report.xmlValid).toBe(false);
  });

  it('with comparePDF2XML, reports what the printout does not show', async () => {
    const report = await validateZugferdPdf(await zugferd({ omit: ['invoiceNumber', 'totals', 'buyer'] }), { compareText: true });
    expect(ids(report).sort()).toEqual([
      'PDF2XML-BT-1',
      'PDF2XML-BT-109',
      'PDF2XML-BT-110',
      'PDF2XML-BT-112',
      'PDF2XML-BT-115',
      'PDF2XML-BT-44',
    ]);
    expect(report).toMatchObject({ pdfValid: false, xmlValid: true });
  });

  it('validates ZUGFeRD 1.0 XML after migrating it to EN 16931, and says so', async () => {
    const report = await validateZugferdPdf(await zugferd({ xml: ZF1 }), { compareText: false });
    expect(report.generation).toBe('ZUGFeRD 1.0');
    expect(report.findings.map((f) => f.ruleId)).not.toContain('UNSUPPORTED-DOCUMENT');
    expect(report.findings.find((f) => f.source !== 'pdf')).toMatchObject({ ruleId: 'ZF1-MIGRATED', severity: 'information' });
    expect(report.artefacts.map((a) => a.name)).toContain('CEN EN 16931 schematron (CII)');
    // The minimal 2014 sample lacks what EN 16931 added later (addresses, the item price): the business rules say so.
    expect(ids(report)).toEqual(expect.arrayContaining(['BR-08', 'BR-10', 'BR-26']));
    expect(report.xmlValid).toBe(false);
  });

  it('reports a plain PDF: not PDF/A, fonts not embedded, no invoice', async () => {
    const report = await validateZugferdPdf(await samplePdf(invoice), { compareText: false });
    expect(ids(report)).toEqual(
      expect.arrayContaining(['PDF-XMP-MISSING', 'PDF-OUTPUTINTENT', 'PDF-TRAILER-ID', 'PDF-FONT-NOT-EMBEDDED', 'ZF-XML-MISSING']),
    );
    if (veraPdfAvailable()) expect(ids(report).some((id) => id.startsWith('PDFA-6.'))).toBe(true);
    expect(report).toMatchObject({ valid: false, pdfValid: false, xmlValid: false });
  });
});
