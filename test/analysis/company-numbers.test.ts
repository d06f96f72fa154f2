import { describe, expect, it } from 'vitest';
import { sellerSiren, type PlacedFound } from '../../src/analysis/accounts.js';
import { frenchVatId, luhn, vatIdChecked } from '../../src/analysis/identifiers.js';
import { analyseInvoice } from '../../src/analysis/index.js';
import type { Segment } from '../../src/analysis/layout.js';
import { ConversionRefusal, prepareForZugferd } from '../../src/conversion/convertible.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { pdfOf, type Text } from './fixtures.js';

/** A French invoice whose parties print only their SIRET, as the cas-limites pages do. */
const facture: Text[] = [
  { s: 'FACTURE', x: 57, y: 60, size: 16, bold: true },
  { s: 'N° FA-2026-0001', x: 57, y: 84 },
  { s: 'Date : 15/08/2026 · Échéance : 14/09/2026', x: 57, y: 96 },
  { s: 'Émetteur', x: 57, y: 130, bold: true },
  { s: 'Atelier Berthier SARL', x: 57, y: 142 },
  { s: '14 rue des Fabriques', x: 57, y: 154 },
  { s: '45000 Orleans', x: 57, y: 166 },
  { s: 'SIRET 39280913700027', x: 57, y: 178 },
  { s: 'Destinataire', x: 57, y: 210, bold: true },
  { s: 'Communaute de communes du Val de Loire', x: 57, y: 222 },
  { s: '2 place de la Mairie', x: 57, y: 234 },
  { s: '41000 Blois', x: 57, y: 246 },
  { s: 'SIRET 24450001100015', x: 57, y: 258 },
  { s: 'Désignation', x: 57, y: 300, bold: true },
  { s: 'Qté', x: 425, y: 300, bold: true, right: true },
  { s: 'Montant HT', x: 539, y: 300, bold: true, right: true },
  { s: 'Maintenance preventive', x: 57, y: 314 },
  { s: '1.00', x: 425, y: 314, right: true },
  { s: '2400.00 €', x: 539, y: 314, right: true },
  { s: 'Total HT', x: 454, y: 350, right: true },
  { s: '2400.00 €', x: 539, y: 350, right: true },
  { s: 'TVA 20 %', x: 454, y: 362, right: true },
  { s: '480.00 €', x: 539, y: 362, right: true },
  { s: 'Total TTC', x: 454, y: 374, right: true },
  { s: '2880.00 €', x: 539, y: 374, right: true },
];

const refusalOf = (r: ReturnType<typeof analyseInvoice>) => {
  try {
    prepareForZugferd(r.invoice, { confidence: r.fieldConfidence, candidates: r.candidates, unread: r.unread });
  } catch (e) {
    return e as ConversionRefusal;
  }
};
const analysed = async (page: Text[]) => analyseInvoice(await extractTextLayer(await pdfOf([page])), { withLineItems: true });
const withLine = (page: Text[], from: string, to: Text) => page.map((t) => (t.s === from ? to : t));

describe("a French seller's company number", () => {
  it("is the seller's SIREN (BT-30, CIUS-FR) where no VAT id names the seller: the SIRET's first nine digits, not the buyer's", async () => {
    const r = await analysed(facture);
    expect(r.invoice.seller?.sellerLegalRegistrationIdentifier).toBe('392809137');
    expect(refusalOf(r)?.fields?.map((f) => f.bt) ?? []).not.toContain('BT-30');
  });

  it('makes the VAT id a person is asked to confirm where the page prints none and the rate is standard (BR-S-2)', async () => {
    const refused = refusalOf(await analysed(facture));
    expect(refused?.code).toBe('FIELDS_MISSING');
    expect(refused?.fields).toContainEqual(expect.objectContaining({ bt: 'BT-31', candidates: ['FR31392809137'] }));
  });

  it('is offered, SIRET and SIREN, where the VAT id names the seller: issuers put either there', async () => {
    const r = await analysed(withLine(facture, 'SIRET 39280913700027', { s: 'SIRET 39280913700027 · TVA FR40392809137', x: 57, y: 178 }));
    expect(r.invoice.seller?.sellerVatIdentifier).toBe('FR40392809137');
    expect(r.invoice.seller?.sellerLegalRegistrationIdentifier).toBeUndefined();
    expect(r.candidates?.['seller.sellerLegalRegistrationIdentifier']).toEqual(['39280913700027', '392809137']);
  });

  it('is offered where the seller prints two that differ, and the conversion asks a person for BT-30', async () => {
    const r = await analysed([...facture, { s: 'SIRET 51234567800016', x: 57, y: 400 }]);
    expect(r.invoice.seller?.sellerLegalRegistrationIdentifier).toBeUndefined();
    expect(refusalOf(r)?.fields).toContainEqual(
      expect.objectContaining({ bt: 'BT-30', candidates: ['39280913700027', '392809137', '51234567800016', '512345678'] }),
    );
  });
});

describe('sellerSiren', () => {
  const found = (value: string): PlacedFound => ({ value, score: 1, page: 1, y: 0, via: 'company-number', segment: {} as Segment });
  it("takes a scan's digits only where the SIRET's and the SIREN's check digits hold", () => {
    expect(sellerSiren([found('73282932000074')], false, true)?.value).toBe('732829320');
    expect(sellerSiren([found('73282932000074')], false, true)?.via).toBe('siren:checked');
    expect(sellerSiren([found('73282932000075')], false, true)).toBeUndefined();
    expect(sellerSiren([found('39280913700027')], false, false)?.via).toBe('siren:shape');
  });
});

describe('French check digits', () => {
  it('holds for a valid SIREN and fails for one digit changed', () => {
    expect(luhn('732829320')).toBe(true);
    expect(luhn('732829321')).toBe(false);
  });
  it("makes a SIREN's VAT id with its key, zero-padded, that the VAT id check accepts", () => {
    expect(frenchVatId('392809137')).toBe('FR31392809137');
    expect(frenchVatId('999999998')).toBe('FR11999999998');
    expect(vatIdChecked(frenchVatId('732829320'))).toBe(true);
    expect(vatIdChecked('FR40392809137')).toBe(false);
  });
});
