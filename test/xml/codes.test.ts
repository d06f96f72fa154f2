import { describe, expect, it } from 'vitest';
import {
  attachmentFileName,
  attachmentMimeCode,
  endpointFromXml,
  endpointIdentifier,
  endpointScheme,
  isCreditNoteType,
} from '../../src/xml/codes.js';
import { parseInvoiceXml, writeInvoiceXml } from '../../src/xml/index.js';
import { invoiceFixture } from './fixtures.js';

describe('electronic address schemes (BT-34-1, BT-49-1)', () => {
  it.each([
    ['rechnung@example.de', 'EM'],
    ['04011000-1234512345-06', '0204'],
    ['991-33333TEST-33', '0204'],
    ['05315000-HAUPTAMT01-75', '0204'],
    ['4099999000016', '0088'],
    ['9930:DE298765432', '9930'],
    ['0204:991-01234-12', '0204'],
    ['EM:invoices', 'EM'],
    ['some-portal-id', 'EM'],
  ])('%s → %s', (address, scheme) => {
    expect(endpointScheme(address)).toBe(scheme);
  });

  it('keeps an explicit scheme only where inference would not restore it', () => {
    expect(endpointIdentifier('9930:DE298765432')).toBe('DE298765432');
    expect(endpointFromXml('DE298765432', '9930')).toBe('9930:DE298765432');
    expect(endpointFromXml('rechnung@example.de', 'EM')).toBe('rechnung@example.de');
    expect(endpointFromXml('4099999000016', '0088')).toBe('4099999000016');
    expect(endpointFromXml('4099999000016', '0060')).toBe('0060:4099999000016');
    expect(endpointFromXml('anything', undefined)).toBe('anything');
  });

  it('writes the inferred schemes into both syntaxes and reads the addresses back unchanged', () => {
    const invoice = invoiceFixture('35-input-forms');
    const cii = writeInvoiceXml(invoice, { syntax: 'CII' });
    expect(cii).toContain('<ram:URIID schemeID="9930">DE298765432</ram:URIID>');
    expect(cii).toContain('<ram:URIID schemeID="0088">4099999000016</ram:URIID>');
    const ubl = writeInvoiceXml(invoiceFixture('28-public-buyer-leitweg'), { syntax: 'UBL' });
    expect(ubl).toMatch(/<cbc:EndpointID schemeID="0204">05315000-HAUPTAMT01-\d\d<\/cbc:EndpointID>/);
    expect(ubl).toContain('<cbc:EndpointID schemeID="EM">rechnung@elektro-brandt.example</cbc:EndpointID>');
    expect(parseInvoiceXml(cii).invoice.seller?.sellerElectronicAddress).toBe('9930:DE298765432');
  });
});

describe('VAT point date code (BT-8)', () => {
  const withCode = (code: string) => ({ ...invoiceFixture('31-vat-date-code'), valueAddedTaxPointDateCode: code });

  it.each([
    ['3', '5', '3'],
    ['35', '29', '35'],
    ['432', '72', '432'],
    ['5', '5', '3'],
    ['29', '29', '35'],
    ['72', '72', '432'],
  ])('model %s: CII writes %s, UBL writes %s, both read back the UNTDID 2005 code', (model, cii, ubl) => {
    const ciiXml = writeInvoiceXml(withCode(model), { syntax: 'CII' });
    const ublXml = writeInvoiceXml(withCode(model), { syntax: 'UBL' });
    expect(ciiXml).toContain(`<ram:DueDateTypeCode>${cii}</ram:DueDateTypeCode>`);
    expect(ublXml).toContain(`<cbc:DescriptionCode>${ubl}</cbc:DescriptionCode>`);
    expect(parseInvoiceXml(ciiXml).invoice.valueAddedTaxPointDateCode).toBe(ubl);
    expect(parseInvoiceXml(ublXml).invoice.valueAddedTaxPointDateCode).toBe(ubl);
  });
});

describe('attachments (BT-125)', () => {
  const b64 = (bytes: number[] | string) => Buffer.from(typeof bytes === 'string' ? bytes : Uint8Array.from(bytes)).toString('base64');

  it.each([
    ['PDF', b64('%PDF-1.7\n'), 'application/pdf'],
    ['PNG', b64([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]), 'image/png'],
    ['JPEG', b64([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg'],
    [
      'ODS',
      b64(`PK\u0003\u0004${'\u0000'.repeat(26)}mimetypeapplication/vnd.oasis.opendocument.spreadsheet`),
      'application/vnd.oasis.opendocument.spreadsheet',
    ],
    [
      'XLSX',
      b64(`PK\u0003\u0004${'\u0000'.repeat(26)}[Content_Types].xml`),
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ],
    ['CSV', b64('Datum;Betrag\n'), 'text/csv'],
  ])('sniffs %s', (_kind, content, mime) => {
    expect(attachmentMimeCode(content)).toBe(mime);
  });

  it('names files after the document reference, unique within the invoice', () => {
    const pdf = b64('%PDF-1.4');
    expect(attachmentFileName('Prüfbericht PV-2025/091', pdf, 0, ['Prüfbericht PV-2025/091'])).toBe('Pr_fbericht_PV-2025_091.pdf');
    expect(attachmentFileName(undefined, b64('a;b'), 0, [undefined])).toBe('attachment.csv');
    expect(attachmentFileName('Anlage', pdf, 1, ['Anlage', 'Anlage'])).toBe('Anlage-2.pdf');
  });

  it('writes MIME code and file name into both syntaxes', () => {
    const invoice = invoiceFixture('26-supporting-documents');
    const cii = writeInvoiceXml(invoice, { syntax: 'CII' });
    expect(cii).toMatch(/<ram:AttachmentBinaryObject mimeCode="application\/pdf" filename="Pr_fbericht_PV-2025-091.pdf">JVBERi/);
    expect(cii).toMatch(/mimeCode="text\/csv" filename="Stundennachweis_September.csv"/);
    const ubl = writeInvoiceXml(invoice, { syntax: 'UBL' });
    expect(ubl).toMatch(/<cbc:EmbeddedDocumentBinaryObject mimeCode="image\/png" filename="Lageplan.png">iVBOR/);
    expect(ubl).toContain('<cbc:URI>https://portal.nordlicht-solar.example/doku/PV-2025-091</cbc:URI>');
  });
});

describe('credit note type codes', () => {
  it('are the UNTDID 1001 codes EN 16931 binds to the UBL CreditNote', () => {
    expect(['381', '396', '81', '532'].every(isCreditNoteType)).toBe(true);
    expect(['380', '384', '389', '326', undefined].some(isCreditNoteType)).toBe(false);
  });
});
