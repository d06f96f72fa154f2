import { describe, expect, it } from 'vitest';
import { MAX_XML_BYTES, parseInvoiceXml, writeInvoiceXml, XmlSyntaxError } from '../../src/xml/index.js';
import { invoiceFixture } from './fixtures.js';

const cii = writeInvoiceXml(invoiceFixture('01-standard-19'), { syntax: 'CII' });

function rejection(xml: string): XmlSyntaxError {
  try {
    parseInvoiceXml(xml);
  } catch (err) {
    expect(err).toBeInstanceOf(XmlSyntaxError);
    return err as XmlSyntaxError;
  }
  throw new Error('parsed');
}

describe('parsing untrusted XML', () => {
  it('rejects any DOCTYPE, so no entity is ever expanded', () => {
    const laughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100">&lol2;</rsm:CrossIndustryInvoice>`;
    expect(rejection(laughs).message).toMatch(/DOCTYPE/);
    const external = cii
      .replace('<?xml version="1.0" encoding="UTF-8"?>', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>')
      .replace('RE-2025-00101', '&xxe;');
    expect(rejection(external).message).toMatch(/DOCTYPE/);
    expect(rejection('<!doctype html><html/>').message).toMatch(/DOCTYPE/);
  });

  it('rejects XML that is not well-formed', () => {
    expect(rejection(cii.replace('</rsm:ExchangedDocument>', '')).message).toMatch(/not well-formed/);
    expect(rejection('').message).toMatch(/not well-formed|no root/);
    expect(rejection('invoice').message).toMatch(/not well-formed|no root/);
    expect(rejection(cii.replace('RE-2025-00101', 'RE&undefined;')).message).toMatch(/not well-formed/);
  });

  it('rejects unknown roots, naming what it found', () => {
    expect(rejection('<Invoice xmlns="urn:example:other"/>').message).toMatch(/Unknown root element \{urn:example:other\}Invoice/);
    expect(rejection('<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>').message).toMatch(/Order/);
  });

  it('rejects more than the size limit before parsing', () => {
    const big = cii.replace('</rsm:CrossIndustryInvoice>', `<!--${'x'.repeat(MAX_XML_BYTES)}--></rsm:CrossIndustryInvoice>`);
    expect(rejection(big).message).toMatch(/larger than 20 MB/);
    // Multi-byte characters count as bytes, not as UTF-16 units.
    const wide = cii.replace('</rsm:CrossIndustryInvoice>', `<!--${'ä'.repeat(MAX_XML_BYTES / 2 + 1)}--></rsm:CrossIndustryInvoice>`);
    expect(rejection(wide).message).toMatch(/larger than 20 MB/);
  });

  it('names field and business term when the content does not fit the model', () => {
    const message = rejection(
      cii.replace(
        '<udt:DateTimeString format="102">20250303</udt:DateTimeString>',
        '<udt:DateTimeString format="102">20250230</udt:DateTimeString>',
      ),
    ).message;
    expect(message).toMatch(/invoiceIssueDate \(BT-2\)/);
    expect(
      rejection(cii.replace('<ram:LineTotalAmount>95.80</ram:LineTotalAmount>', '<ram:LineTotalAmount>lots</ram:LineTotalAmount>')).message,
    ).toMatch(/BT-131/);
  });

  it('accepts a byte order mark, comments and processing instructions', () => {
    const decorated = `\uFEFF${cii.replace('<rsm:CrossIndustryInvoice', '<!-- exported --><?app hint?><rsm:CrossIndustryInvoice')}`;
    expect(parseInvoiceXml(decorated).invoice.invoiceNumber).toBe('RE-2025-00101');
  });
});
