import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { decodeXml } from '../../src/pdf/inspect.js';
import { INVOICE_FILE_NAMES } from '../../src/pdf/profiles.js';
import { extractZugferdInvoice, validateZugferdPdf } from '../../src/pdf/zugferd.js';
import { repoRoot } from '../support/java-validators.js';

/**
 * The shared corpus (../shared/corpus, read-only, not part of the repository): every PDF that
 * carries XML must give back exactly that XML, and an invoice whose number, date, grand total,
 * parties and line count are those of the XML, read here straight from the XML's elements, not
 * through our mapping. The reference for "the XML" is Poppler's pdfdetach, an independent reader.
 * Without the corpus these tests are skipped; nothing else depends on it.
 */

const CORPUS = path.resolve(repoRoot, '../shared/corpus');
const present = existsSync(CORPUS);
const pdfsIn = (folder: string) =>
  present && existsSync(path.join(CORPUS, folder))
    ? readdirSync(path.join(CORPUS, folder))
        .filter((f) => f.toLowerCase().endsWith('.pdf'))
        .sort()
        .map((f) => path.join(folder, f))
    : [];
const WITH_XML = ['zugferd-1.0', 'zugferd-2.1', 'factur-x-fr', 'zugferd-other', 'invalid'].flatMap(pdfsIn);

/**
 * Embedded XML that does not become an invoice, and why; the extraction still returns the XML
 * and says so. Everything else must map.
 */
const UNMAPPABLE: Readonly<Record<string, RegExp>> = {
  // ZUGFeRD release-candidate format (2014), before ZUGFeRD 1.0 was published.
  'zugferd-1.0/MustangGnuaccountingBeispielRE-20140519_499.pdf':
    /Unknown root element \{urn:un:unece:uncefact:data:standard:CBFBUY:5\}Invoice/,
  'zugferd-1.0/MustangGnuaccountingBeispielRE-20140522_501.pdf':
    /Unknown root element \{urn:un:unece:uncefact:data:standard:CBFBUY:5\}Invoice/,
  // The official sample's billing period starts on "20139102".
  'zugferd-1.0/ZUGFeRD_1p0_EXTENDED_Kostenrechnung.pdf': /BT-73/,
  // Declares encoding="UTF-8-W/O-BOM": not well-formed, which is why it is in invalid/.
  'invalid/factur-x-invalid-xml-encoding-attribute.pdf': /not well-formed/,
};

/** The invoice XML as pdfdetach saves it, chosen by the names the standards use. */
function referenceXml(file: string): Buffer | undefined {
  const out = mkdtempSync(path.join(tmpdir(), 'pdfdetach-'));
  try {
    execFileSync('pdfdetach', ['-saveall', '-o', out, file], { stdio: 'ignore' });
    const saved = readdirSync(out);
    const pick =
      INVOICE_FILE_NAMES.map((n) => saved.find((s) => s.toLowerCase() === n)).find(Boolean) ??
      saved.find((s) => s.toLowerCase().endsWith('.xml'));
    return pick ? readFileSync(path.join(out, pick)) : undefined;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Element text by a path of local names below the root (any namespace, any generation). */
function at(root: Element, ...names: string[]): string | undefined {
  let current: Element | undefined = root;
  for (const name of names) {
    current = Array.from(current?.getElementsByTagNameNS('*', name) ?? [])[0];
    if (!current) return undefined;
  }
  return current?.textContent?.trim() || undefined;
}

const amount = (v: string | undefined) => (v === undefined ? undefined : Number(v).toFixed(2));
const isoDate = (v: string | undefined) => (v && /^\d{8}$/.test(v) ? `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}` : v);

function factsOfXml(xml: string) {
  const root = new DOMParser().parseFromString(xml, 'text/xml').documentElement!;
  const doc = at(root, 'ExchangedDocument', 'ID') !== undefined ? 'ExchangedDocument' : 'HeaderExchangedDocument';
  return {
    invoiceNumber: at(root, doc, 'ID'),
    invoiceIssueDate: isoDate(at(root, doc, 'IssueDateTime', 'DateTimeString')),
    grandTotal: amount(at(root, 'GrandTotalAmount')),
    sellerName: at(root, 'SellerTradeParty', 'Name'),
    buyerName: at(root, 'BuyerTradeParty', 'Name'),
    lines: root.getElementsByTagNameNS('*', 'IncludedSupplyChainTradeLineItem').length,
  };
}

describe.runIf(present)('shared corpus', () => {
  it('extraction gives back the embedded XML and its invoice for every PDF that carries one', { timeout: 300_000 }, async () => {
    const mismatches: string[] = [];
    let compared = 0;
    for (const file of WITH_XML) {
      const reference = referenceXml(path.join(CORPUS, file));
      if (!reference) continue;
      const found = await extractZugferdInvoice(new Uint8Array(readFileSync(path.join(CORPUS, file))));
      compared++;
      if (!found) {
        mismatches.push(`${file}: no XML found`);
        continue;
      }
      if (found.xml !== decodeXml(reference)) mismatches.push(`${file}: XML differs from pdfdetach's`);
      const unmappable = UNMAPPABLE[file];
      if (unmappable || !found.invoice) {
        if (!unmappable?.test(found.problem ?? '')) mismatches.push(`${file}: ${found.problem ?? 'mapped although listed as unmappable'}`);
        continue;
      }
      const expected = factsOfXml(found.xml);
      const inv = found.invoice;
      const actual = {
        invoiceNumber: inv.invoiceNumber,
        invoiceIssueDate: inv.invoiceIssueDate,
        grandTotal: amount(inv.documentTotals?.invoiceTotalAmountWithVat),
        sellerName: inv.seller?.sellerName,
        buyerName: inv.buyer?.buyerName,
        lines: inv.invoiceLine?.length ?? 0,
      };
      if (JSON.stringify(actual) !== JSON.stringify(expected))
        mismatches.push(`${file}: ${JSON.stringify(actual)} != ${JSON.stringify(expected)}`);
    }
    console.info(
      `corpus extraction: ${compared} PDFs with XML, ${compared - Object.keys(UNMAPPABLE).length} invoices compared, ${mismatches.length} mismatches`,
    );
    expect(compared).toBeGreaterThanOrEqual(60);
    expect(mismatches).toEqual([]);
  });

  it('a PDF without XML has nothing to extract', async () => {
    for (const file of pdfsIn('plain-pdf'))
      expect(await extractZugferdInvoice(new Uint8Array(readFileSync(path.join(CORPUS, file))))).toBeUndefined();
  });

  it('validateZugferdPdf reports the negative cases of corpus/invalid as invalid', { timeout: 600_000 }, async () => {
    const accepted: string[] = [];
    const files = pdfsIn('invalid');
    for (const file of files) {
      const report = await validateZugferdPdf(new Uint8Array(readFileSync(path.join(CORPUS, file))), { compareText: false });
      if (report.valid) accepted.push(file);
    }
    console.info(
      `corpus/invalid: ${files.length - accepted.length} of ${files.length} reported invalid; accepted: ${accepted.join(', ') || 'none'}`,
    );
    // The one exception: the Mustang CLI (2.26) finds nothing wrong with it either; what put it in
    // the corpus's fail folder is not something the EN 16931 or Factur-X rules check.
    expect(accepted).toEqual(['invalid/Avoir_FR_type381_BASICWL.pdf']);
  });
});
