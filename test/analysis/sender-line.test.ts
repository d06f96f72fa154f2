import { describe, expect, it } from 'vitest';
import { buildDoc } from '../../src/analysis/document.js';
import { findParties } from '../../src/analysis/parties.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { pdfOf, type Text } from './fixtures.js';

/** The one-line sender above the address window, as letter templates set it. Layouts drawn for the test. */
describe('the sender line', () => {
  it('goes on in the line below where it wrapped after a post code, before its city ("… · 1016 GB" / "Amsterdam · Niederlande")', async () => {
    const texts: Text[] = [
      { s: 'Van der Meer Kantoorinrichting B.V. · Keizersgracht 400 · 1016 GB', x: 71, y: 150, size: 7 },
      { s: 'Amsterdam · Niederlande', x: 71, y: 159, size: 7 },
      { s: 'Bergmann Logistik AG', x: 71, y: 175 },
      { s: 'Speicherstraße 40', x: 71, y: 187 },
      { s: '44147 Dortmund', x: 71, y: 199 },
      { s: 'Rechnung NL-2025-5521', x: 71, y: 260, size: 14, bold: true },
    ];
    const { seller } = findParties(buildDoc(await extractTextLayer(await pdfOf([texts]))));
    expect(seller).toMatchObject({
      name: 'Van der Meer Kantoorinrichting B.V.',
      line1: 'Keizersgracht 400',
      postcode: '1016 GB',
      city: 'Amsterdam',
    });
  });
});
