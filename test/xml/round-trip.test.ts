import { describe, expect, it } from 'vitest';
import type { Invoice } from '../../src/invoice/model.js';
import { parseInvoiceXml, withXmlDefaults, writeInvoiceXml, type SyntaxId } from '../../src/xml/index.js';
import { invoiceFixture, invoiceFixtures } from './fixtures.js';

const SYNTAXES: SyntaxId[] = ['CII', 'UBL'];

/** What the XML of a syntax can carry: UBL has no element for the project name (BT-11-0, a CII extra). */
function carried(invoice: Invoice, syntax: SyntaxId): Invoice {
  const expected = withXmlDefaults(invoice);
  if (syntax === 'CII' || !expected.projectReference) return expected;
  const { projectReferenceName: _dropped, ...projectReference } = expected.projectReference;
  return { ...expected, projectReference };
}

describe('model → XML → model', () => {
  it('has at least 30 fixtures', () => {
    expect(invoiceFixtures.length).toBeGreaterThanOrEqual(30);
  });

  describe.each(SYNTAXES)('%s', (syntax) => {
    it.each(invoiceFixtures.map((f) => [f.name, f.invoice] as const))(
      '%s is the identity (plus the BT-23/BT-24 defaults)',
      (_name, invoice) => {
        const parsed = parseInvoiceXml(writeInvoiceXml(invoice, { syntax }));
        expect(parsed.syntax).toBe(syntax);
        expect(parsed.invoice).toEqual(carried(invoice, syntax));
      },
    );
  });

  it('fills BT-23 and BT-24 only when the invoice leaves them empty', () => {
    const invoice = invoiceFixture('01-standard-19');
    expect(invoice.processControl).toBeUndefined();
    expect(withXmlDefaults(invoice).processControl).toEqual({
      businessProcessTypeIdentifier: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
      specificationIdentifier: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
    });
    const own = {
      ...invoice,
      processControl: { businessProcessTypeIdentifier: 'urn:example:process', specificationIdentifier: 'urn:cen.eu:en16931:2017' },
    };
    expect(parseInvoiceXml(writeInvoiceXml(own, { syntax: 'UBL' })).invoice.processControl).toEqual(own.processControl);
  });
});

describe('UBL document types', () => {
  it('writes a credit note (381) as CreditNote with credit note element names', () => {
    const xml = writeInvoiceXml(invoiceFixture('03-credit-note-381'), { syntax: 'UBL' });
    expect(xml).toMatch(/<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/);
    expect(xml).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
    expect(xml).toContain('<cac:CreditNoteLine>');
    expect(xml).toMatch(/<cbc:CreditedQuantity unitCode="H87">2<\/cbc:CreditedQuantity>/);
    // BT-9 has no header element in a credit note: it moves into the payment means.
    expect(xml).not.toContain('<cbc:DueDate>');
    expect(xml).toMatch(
      /<cac:PaymentMeans>\s*<cbc:PaymentMeansCode[^>]*>58<\/cbc:PaymentMeansCode>\s*<cbc:PaymentDueDate>2025-04-03<\/cbc:PaymentDueDate>/,
    );
    expect(xml).not.toContain('InvoiceLine');
  });

  it('writes other type codes, self-billing (389) included, as Invoice', () => {
    for (const name of ['01-standard-19', '04-corrected-invoice-384', '05-partial-invoice-326', '36-self-billed-389']) {
      const xml = writeInvoiceXml(invoiceFixture(name), { syntax: 'UBL' });
      expect(xml).toMatch(/<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/);
      expect(xml).toContain('<cac:InvoiceLine>');
    }
  });

  it('carries BT-11 of a credit note as a document reference of type 50', () => {
    const invoice = { ...invoiceFixture('03-credit-note-381'), projectReference: { projectReferenceIdentifier: 'P-4711' } };
    const xml = writeInvoiceXml(invoice, { syntax: 'UBL' });
    expect(xml).toMatch(/<cac:AdditionalDocumentReference>\s*<cbc:ID>P-4711<\/cbc:ID>\s*<cbc:DocumentTypeCode>50<\/cbc:DocumentTypeCode>/);
    expect(xml).not.toContain('ProjectReference');
    expect(parseInvoiceXml(xml).invoice.projectReference).toEqual({ projectReferenceIdentifier: 'P-4711' });
  });

  it('refuses a profile for UBL, where it has no meaning', () => {
    expect(() => writeInvoiceXml(invoiceFixture('01-standard-19'), { syntax: 'UBL', profile: 'BASIC' })).toThrow(/UBL/);
  });

  it('writes CII unless UBL is asked for', () => {
    expect(writeInvoiceXml(invoiceFixture('01-standard-19'))).toContain('<rsm:CrossIndustryInvoice');
  });
});

describe('text content', () => {
  const invoice = invoiceFixture('01-standard-19');

  it.each(SYNTAXES)('keeps markup characters, umlauts and emoji in %s; drops what XML 1.0 cannot carry', (syntax) => {
    const note = (invoiceNote: string) => ({ ...invoice, invoiceNote: [{ invoiceNote }] });
    const text = 'Grüße & "Dank" <für> ]]> alles 🧾\nZeile 2';
    expect(parseInvoiceXml(writeInvoiceXml(note(text), { syntax })).invoice.invoiceNote).toEqual([{ invoiceNote: text }]);
    const xml = writeInvoiceXml(note('Steuer\u0001zeichen \uD800ohne Paar'), { syntax });
    expect(parseInvoiceXml(xml).invoice.invoiceNote).toEqual([{ invoiceNote: 'Steuerzeichen ohne Paar' }]);
  });
});
