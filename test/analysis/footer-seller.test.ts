import { describe, expect, it } from 'vitest';
import { analyseInvoice } from '../../src/analysis/index.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { pdfOf, type Text } from './fixtures.js';

/**
 * A seller named only in the page's foot: no letterhead, its name centred in small print over the legal notice,
 * and again as the holder of the account it is paid to. Layout drawn for the test.
 */
describe('a seller named only in the footer and as the account holder', () => {
  it('is read as the seller', async () => {
    const texts: Text[] = [
      { s: 'CAFE DES ARTS', x: 400, y: 110 },
      { s: 'Durand Sophie', x: 400, y: 122 },
      { s: '12 place Bellecour', x: 400, y: 134 },
      { s: '69002 Lyon', x: 400, y: 146 },
      { s: 'Facture n° 2024051177', x: 300, y: 180 },
      { s: 'Date : 14/05/2024', x: 160, y: 195 },
      { s: 'Numéro de dossier : 88120 - CAFE DES ARTS', x: 160, y: 207 },
      { s: 'Désignation', x: 220, y: 230 },
      { s: 'Montant HT', x: 520, y: 230, right: true },
      { s: 'Annonce légale du 20/05/2024', x: 160, y: 245 },
      { s: '120,00 €', x: 520, y: 245, right: true },
      { s: 'Total HT :', x: 430, y: 275 },
      { s: '120,00 €', x: 520, y: 275, right: true },
      { s: 'TVA 20% :', x: 430, y: 287 },
      { s: '24,00 €', x: 520, y: 287, right: true },
      { s: 'Total TTC :', x: 430, y: 299 },
      { s: '144,00 €', x: 520, y: 299, right: true },
      { s: 'Virement', x: 160, y: 330 },
      { s: 'BANQUE POPULAIRE AUVERGNE RHONE ALPES – Titulaire du compte : ATELIER DUMONT', x: 200, y: 330, size: 8 },
      { s: 'IBAN : FR76 3000 2005 5000 0015 7845 Z02 - BIC : CRLYFRPP', x: 220, y: 342 },
      { s: 'ATELIER DUMONT', x: 270, y: 760, size: 7 },
      { s: 'Siège social : 4 rue des Lilas - 69003 LYON – Tél : 04 72 00 00 00', x: 150, y: 772, size: 7 },
      { s: 'Sarl au capital de 5 000€ - RCS Lyon B 412 345 678 – TVA FR59412345678', x: 160, y: 782, size: 7 },
    ];
    const { invoice } = analyseInvoice(await extractTextLayer(await pdfOf([texts])), { withLineItems: false });
    expect(invoice.seller?.sellerName).toBe('ATELIER DUMONT');
    expect(invoice.buyer?.buyerName).toBe('CAFE DES ARTS');
  });
});
