import { describe, expect, it } from 'vitest';
import { analyseInvoice } from '../../src/analysis/index.js';
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

describe("a French seller's company number", () => {
  it("is no BT-30 of its own accord: the seller's SIRET and its SIREN are offered for a person to pick, the buyer's not", async () => {
    const r = analyseInvoice(await extractTextLayer(await pdfOf([facture])), { withLineItems: true });
    expect(r.invoice.seller?.sellerLegalRegistrationIdentifier).toBeUndefined();
    expect(r.candidates?.['seller.sellerLegalRegistrationIdentifier']).toEqual(['39280913700027', '392809137']);
    const refused = (() => {
      try {
        prepareForZugferd(r.invoice, { confidence: r.fieldConfidence, candidates: r.candidates, unread: r.unread });
      } catch (e) {
        return e as ConversionRefusal;
      }
    })();
    expect(refused?.code).toBe('FIELDS_MISSING');
    expect(refused?.fields).toContainEqual(expect.objectContaining({ bt: 'BT-30', candidates: ['39280913700027', '392809137'] }));
  });
});
