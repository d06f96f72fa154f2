import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Invoice } from '../../src/invoice/model.js';
import { parseInvoiceXml, withXmlDefaults, writeInvoiceXml } from '../../src/xml/index.js';
import { repoRoot } from '../support/java-validators.js';

/**
 * The shared corpus (outside the repository, absent in a plain checkout): official CII and UBL
 * samples, twins by name. Our own fixtures cover the same ground when it is missing.
 */
const corpus = path.resolve(repoRoot, '../shared/corpus');
const ciiDir = path.join(corpus, 'xml-cii');
const ublDir = path.join(corpus, 'xml-ubl');
const present = existsSync(ciiDir) && existsSync(ublDir);

const files = (dir: string) =>
  present
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.xml'))
        .map((f) => path.join(dir, f))
    : [];
const read = (file: string) => readFileSync(file, 'utf8');

describe.runIf(present)('corpus XML → model → XML → model', () => {
  it.each([...files(ciiDir), ...files(ublDir)].map((f) => [path.basename(f), f]))('%s', (_name, file) => {
    const first = parseInvoiceXml(read(file));
    const second = parseInvoiceXml(writeInvoiceXml(first.invoice, { syntax: first.syntax }));
    expect(second).toEqual({ syntax: first.syntax, invoice: withXmlDefaults(first.invoice) });
  });
});

/**
 * What tells a CII twin from its UBL twin after parsing. Syntax limits: UBL has no project
 * name (BT-11-0). Everything else is in the sample files themselves, whose UBL versions were
 * produced by a converter: they declare a different specification and process (BT-23/24);
 * drop the CII seller's unschemed ram:ID next to its GlobalID (BT-29); repeat the registration
 * name as trading name (BT-28/45); drop every gross price (BT-148), adding a zero discount
 * (BT-147) to some; drop "#ef=" references to files embedded in a ZUGFeRD PDF (BT-124); and
 * write amounts with other trailing zeros ("275" for "275.00").
 */
function comparable(invoice: Invoice): unknown {
  const copy = structuredClone(invoice) as Invoice;
  delete copy.processControl;
  if (copy.projectReference) delete copy.projectReference.projectReferenceName;
  if (copy.seller?.sellerIdentifier) copy.seller.sellerIdentifier = copy.seller.sellerIdentifier.filter((id) => /^\d{13}$/.test(id));
  if (copy.seller?.sellerTradingName === copy.seller?.sellerName) delete copy.seller?.sellerTradingName;
  if (copy.buyer?.buyerTradingName === copy.buyer?.buyerName) delete copy.buyer?.buyerTradingName;
  for (const line of copy.invoiceLine ?? []) {
    const price = line.priceDetails;
    delete price?.itemGrossPrice;
    if (Number(price?.itemPriceDiscount) === 0) delete price?.itemPriceDiscount;
  }
  for (const doc of copy.additionalSupportingDocuments ?? [])
    if (doc.externalDocumentLocation?.startsWith('#ef=')) delete doc.externalDocumentLocation;
  return JSON.parse(JSON.stringify(copy), (_key, value: unknown) =>
    typeof value === 'string' && /^-?\d+\.\d+$/.test(value) ? value.replace(/\.?0+$/, '') : value,
  );
}

const twins = files(ciiDir)
  .map((cii) => [path.basename(cii, '.cii.xml'), cii, path.join(ublDir, path.basename(cii).replace('.cii.xml', '.ubl.xml'))] as const)
  // This sample's UBL twin has no payment instructions and tenfold amounts: it is a negative sample.
  .filter(([name, , ubl]) => existsSync(ubl) && !name.startsWith('not_validating'));

describe.runIf(present)('CII and UBL twins of the corpus parse to the same invoice', () => {
  it('finds the twins', () => {
    expect(twins.length).toBeGreaterThanOrEqual(20);
  });

  it.each(twins)('%s', (_name, cii, ubl) => {
    expect(comparable(parseInvoiceXml(read(ubl)).invoice)).toEqual(comparable(parseInvoiceXml(read(cii)).invoice));
  });
});
