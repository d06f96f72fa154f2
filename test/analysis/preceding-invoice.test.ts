import { describe, expect, it } from 'vitest';
import { analyseInvoice, analyseWithEvidence } from '../../src/analysis/index.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { pdfOf, type Text } from './fixtures.js';

async function preceding(texts: Text[]) {
  const { invoice } = analyseInvoice(await extractTextLayer(await pdfOf([texts])), { withLineItems: false });
  return { number: invoice.invoiceNumber, preceding: invoice.precedingInvoiceReference };
}

const letter = (title: Text[]): Text[] => [
  { s: 'Nordlicht Handel GmbH · Fjordweg 3 · 24103 Kiel', x: 60, y: 110, size: 7 },
  { s: 'Kontorbedarf Weser GmbH', x: 60, y: 130 },
  { s: 'Deichstraße 4', x: 60, y: 141 },
  { s: '28195 Bremen', x: 60, y: 152 },
  { s: 'Datum:', x: 380, y: 130 },
  { s: '24.09.2024', x: 460, y: 130 },
  ...title,
  { s: 'Gesamtbetrag', x: 380, y: 420, bold: true },
  { s: '-119,00', x: 545, y: 420, right: true, bold: true },
];

describe('the invoice a correction refers to (BG-3)', () => {
  it('reads the number a sentence under the title names, with the date printed after it, in German and English', async () => {
    const german = await preceding(
      letter([
        { s: 'Rechnungskorrektur Nr. RK-2024-118', x: 60, y: 220, size: 12, bold: true },
        { s: 'Korrektur zur Rechnung Nr. RE-2024-0931 vom 12.09.2024', x: 60, y: 240 },
      ]),
    );
    expect(german.number).toBe('RK-2024-118');
    expect(german.preceding).toEqual([{ precedingInvoiceReference: 'RE-2024-0931', precedingInvoiceIssueDate: '2024-09-12' }]);
    const english = await preceding(
      letter([
        { s: 'Corrected invoice No. 7730021', x: 60, y: 220, size: 12, bold: true },
        { s: 'for invoice No. 7730014 from 12 Sep 2024', x: 60, y: 240 },
      ]),
    );
    expect(english.number).toBe('7730021');
    expect(english.preceding).toEqual([{ precedingInvoiceReference: '7730014', precedingInvoiceIssueDate: '2024-09-12' }]);
    const refers = await preceding(
      letter([
        { s: 'Credit note CN-88', x: 60, y: 220, size: 12, bold: true },
        { s: 'This document refers to invoice INV-7712 dated September 1, 2023', x: 60, y: 240 },
      ]),
    );
    expect(refers.preceding).toEqual([{ precedingInvoiceReference: 'INV-7712', precedingInvoiceIssueDate: '2023-09-01' }]);
  });

  it('reads a labelled reference in a form of labels and values (French)', async () => {
    const { number, preceding: linked } = await preceding(
      letter([
        { s: 'Avoir AV-2024-0005', x: 60, y: 220, size: 12, bold: true },
        { s: 'Facture liée', x: 60, y: 250 },
        { s: 'FA-2024-0031', x: 200, y: 250 },
      ]),
    );
    expect(number).toBe('AV-2024-0005');
    expect(linked).toEqual([{ precedingInvoiceReference: 'FA-2024-0031' }]);
  });

  it('reads the original document\'s number a correction names ("Ursprungsbeleg-Nr : R87654321012345")', async () => {
    const { number, preceding: original } = await preceding(
      letter([
        { s: 'Rechnungskorrektur Nr. RK21012345', x: 60, y: 220, size: 12, bold: true },
        { s: 'Ursprungsbeleg-Nr : R87654321012345', x: 60, y: 250 },
        { s: 'Reklamationsnummer : REKLA-2018-235', x: 60, y: 262 },
      ]),
    );
    expect(number).toBe('RK21012345');
    expect(original).toEqual([{ precedingInvoiceReference: 'R87654321012345' }]);
  });

  it("reads the numbers and dates listed under a heading of previous invoices, whose labels are the invoice's own", async () => {
    const { number, preceding: listed } = await preceding(
      letter([
        { s: 'Rechnungsnummer:', x: 60, y: 200 },
        { s: 'GS-0042', x: 180, y: 200 },
        { s: 'Vorausgegangene Rechnungen', x: 60, y: 240, bold: true },
        { s: 'Rechnungsnummer:', x: 60, y: 256 },
        { s: '1/10416097', x: 180, y: 256 },
        { s: 'Rechnungsdatum:', x: 330, y: 256 },
        { s: '04.02.2018', x: 440, y: 256 },
        { s: 'Rechnungsnummer:', x: 60, y: 272 },
        { s: '24/9999999', x: 180, y: 272 },
        { s: 'Rechnungssummen', x: 60, y: 300, bold: true },
      ]),
    );
    expect(number).toBe('GS-0042');
    expect(listed).toEqual([
      { precedingInvoiceReference: '1/10416097', precedingInvoiceIssueDate: '2018-02-04' },
      { precedingInvoiceReference: '24/9999999' },
    ]);
  });

  it("tells a correction's title that names the invoice corrected from one that names none: only the first is surely a 384", async () => {
    const title: Text = { s: 'Rechnungskorrektur Nr. RK-2024-118', x: 60, y: 220, size: 12, bold: true };
    const evidenceOf = async (texts: Text[]) =>
      analyseWithEvidence(await extractTextLayer(await pdfOf([texts])), { withLineItems: false }).evidence.invoiceTypeCode;
    expect(await evidenceOf(letter([title, { s: 'Korrektur zur Rechnung Nr. RE-2024-0931 vom 12.09.2024', x: 60, y: 240 }]))).toBe(
      'title:384:names-invoice',
    );
    expect(await evidenceOf(letter([title]))).toBe('title:384');
  });

  it('reads none where no label or heading names one, and never the invoice its own number', async () => {
    expect((await preceding(letter([{ s: 'Rechnung Nr. RE-2024-0931', x: 60, y: 220, size: 12, bold: true }]))).preceding).toBeUndefined();
  });
});
