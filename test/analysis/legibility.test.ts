import { describe, expect, it } from 'vitest';
import { analyseWithEvidence } from '../../src/analysis/index.js';
import { fieldConfidence } from '../../src/analysis/confidence.js';
import { buildDoc } from '../../src/analysis/document.js';
import { markUnsureLetters } from '../../src/analysis/legibility.js';
import type { PageText, Word } from '../../src/reading/page-text.js';

/** An OCR'd letter: words at pixel positions, each with the recogniser's confidence. */
function scan(lines: Array<[number, number, string, number]>): PageText[] {
  const words: Word[] = lines.flatMap(([x, y, text, confidence]) => {
    let at = x;
    return text.split(' ').map((t) => {
      const w = { text: t, x: at, y, width: 22 * t.length, height: 40, confidence };
      at += w.width + 20;
      return w;
    });
  });
  return [{ page: 1, width: 2480, height: 3508, words, source: 'ocr' }];
}

const letter = (buyerName: string, confidence: number) =>
  scan([
    [200, 250, 'Kontorbedarf Weser GmbH · Deichstraße 4 · 28195 Bremen', 0.95],
    [200, 330, buyerName, confidence],
    [200, 380, 'Moorweg 19', 0.95],
    [200, 430, '26122 Oldenburg', 0.95],
    [200, 700, 'Rechnung', 0.96],
    [200, 780, 'Rechnungsnummer: RE-88120', 0.95],
    [1500, 1600, 'Gesamtbetrag 119,00 €', 0.95],
  ]);

describe('readings the recogniser was unsure of', () => {
  it('marks a party name read from words of low confidence as blurred, and a clearly read one not', () => {
    const blurred = analyseWithEvidence(letter('Gärtnerei Lindholm KG', 0.41), { withLineItems: false });
    const clear = analyseWithEvidence(letter('Gärtnerei Lindholm KG', 0.96), { withLineItems: false });
    expect(blurred.invoice.buyer?.buyerName).toBe('Gärtnerei Lindholm KG');
    expect(blurred.evidence['buyer.buyerName']).toMatch(/:blurred$/);
    expect(clear.evidence['buyer.buyerName']).not.toMatch(/:blurred$/);
    // How much less sure follows what the calibration measured of blurred readings (the next test); never surer.
    expect(blurred.fieldConfidence['buyer.buyerName']).toBeLessThanOrEqual(clear.fieldConfidence['buyer.buyerName']!);
  });

  it('is never surer than the same reading clearly read, and takes what blurred readings measured', () => {
    const table = {
      '*|*': [90, 100],
      '*|ocr:*': [85, 100],
      '*|ocr:rank:0.9': [95, 100],
      '*|ocr:rank:0.9:blurred': [4, 10],
      '*|ocr:rank:0.7': [30, 60],
    } as const;
    const clear = fieldConfidence('buyer.buyerName', 'ocr:rank:0.9', table);
    const blurred = fieldConfidence('buyer.buyerName', 'ocr:rank:0.9:blurred', table);
    expect(blurred).toBeLessThan(0.6);
    // Never measured blurred: no surer than the clear reading's half, where the average OCR reading would claim 0.85.
    expect(fieldConfidence('buyer.buyerName', 'ocr:rank:0.7:blurred', table)).toBeLessThanOrEqual(
      fieldConfidence('buyer.buyerName', 'ocr:rank:0.7', table),
    );
    expect(fieldConfidence('buyer.buyerName', 'ocr:rank:0.7:blurred', table)).toBeLessThan(0.6);
    expect(clear).toBeGreaterThan(0.9);
  });
});

describe('readings that lost their diacritics', () => {
  it('holds a name that spells a word printed with diacritics without them at even odds; the name read with them, and a text layer, as measured', () => {
    const plain = analyseWithEvidence(letter('Untertanigster Leistungsempfanger', 0.92), { withLineItems: false });
    const kept = analyseWithEvidence(letter('Untertänigster Leistungsempfänger', 0.92), { withLineItems: false });
    expect(plain.invoice.buyer?.buyerName).toBe('Untertanigster Leistungsempfanger');
    expect(plain.evidence['buyer.buyerName']).toMatch(/:plain-letters$/);
    expect(plain.fieldConfidence['buyer.buyerName']).toBeLessThanOrEqual(0.5);
    expect(kept.evidence['buyer.buyerName']).not.toMatch(/:plain-letters$/);
    // Words of other languages that only look like one without its diacritics ("Handler", "Reference") are not marked.
    const english = analyseWithEvidence(letter('Reference Handler Ltd', 0.92), { withLineItems: false });
    expect(english.evidence['buyer.buyerName']).not.toMatch(/:plain-letters$/);
    const textLayer = letter('Untertanigster Leistungsempfanger', 1).map((p) => ({ ...p, source: 'text-layer' as const }));
    expect(analyseWithEvidence(textLayer, { withLineItems: false }).evidence['buyer.buyerName']).not.toMatch(/:plain-letters$/);
  });
});

describe('readings with a glyph the PDF names by no letter', () => {
  it('holds a text layer\'s name with a private-use code (a font\'s "ft" ligature) at even odds; the name spelled out as measured', () => {
    const textLayer = (name: string) => letter(name, 1).map((p) => ({ ...p, source: 'text-layer' as const }));
    const ligature = analyseWithEvidence(textLayer('MVM Musterha\uE000er Versicherungsverein'), { withLineItems: false });
    expect(ligature.invoice.buyer?.buyerName).toBe('MVM Musterha\uE000er Versicherungsverein');
    expect(ligature.evidence['buyer.buyerName']).toMatch(/:unnamed-glyph$/);
    expect(ligature.fieldConfidence['buyer.buyerName']).toBeLessThanOrEqual(0.5);
    const spelled = analyseWithEvidence(textLayer('MVM Musterhafter Versicherungsverein'), { withLineItems: false });
    expect(spelled.evidence['buyer.buyerName']).not.toMatch(/:unnamed-glyph$/);
    expect(spelled.fieldConfidence['buyer.buyerName']).toBeGreaterThan(0.6);
  });
});

describe('readings with a sign no word carries', () => {
  it('holds a name with a sign inside a word at even odds on a scan; a plain name and a text layer are not marked', () => {
    const garbled = analyseWithEvidence(letter('Kunden~Markt GD@nic GmbH', 0.93), { withLineItems: false });
    expect(garbled.invoice.buyer?.buyerName).toBe('Kunden~Markt GD@nic GmbH');
    expect(garbled.evidence['buyer.buyerName']).toMatch(/:garbled$/);
    expect(garbled.fieldConfidence['buyer.buyerName']).toBeLessThanOrEqual(0.5);
    const plain = analyseWithEvidence(letter('Kunden-Markt Organic GmbH', 0.93), { withLineItems: false });
    expect(plain.evidence['buyer.buyerName']).not.toMatch(/:garbled$/);
    const textLayer = letter('Kunden~Markt GD@nic GmbH', 1).map((p) => ({ ...p, source: 'text-layer' as const }));
    expect(analyseWithEvidence(textLayer, { withLineItems: false }).evidence['buyer.buyerName']).not.toMatch(/:garbled$/);
  });

  it('holds a name ending in a comma at even odds on a scan: the full stop of "Ltd." read as one', () => {
    const comma = analyseWithEvidence(letter('Globex Trading Ltd,', 0.93), { withLineItems: false });
    expect(comma.invoice.buyer?.buyerName).toBe('Globex Trading Ltd,');
    expect(comma.evidence['buyer.buyerName']).toMatch(/:garbled$/);
    expect(comma.fieldConfidence['buyer.buyerName']).toBeLessThanOrEqual(0.5);
    const stop = analyseWithEvidence(letter('Globex Trading Ltd.', 0.93), { withLineItems: false });
    expect(stop.evidence['buyer.buyerName']).not.toMatch(/:garbled$/);
  });

  it('marks an exemption reason whose section sign a scan misread ("$4", "819 UStG"); the sign read right, and a text layer, are not marked', () => {
    const path = 'vatBreakdown[0].vatExemptionReasonText';
    const marked = (reason: string, source: 'ocr' | 'text-layer' = 'ocr') => {
      const doc = buildDoc(letter(reason, 0.93).map((p) => ({ ...p, source })));
      const evidence = { [path]: 'exemption:printed' };
      markUnsureLetters(doc, { vatBreakdown: [{ vatExemptionReasonText: reason }] }, evidence);
      return evidence[path];
    };
    expect(marked('Steuerfreie Leistungen nach $4 Nr. 14 UStG')).toMatch(/:garbled$/);
    expect(marked('Umsatzsteuerbefreit nach 819 UStG')).toMatch(/:garbled$/);
    expect(marked('Umsatzsteuerbefreit nach §19 UStG')).toBe('exemption:printed');
    expect(marked('Umsatzsteuerbefreit nach 819 UStG', 'text-layer')).toBe('exemption:printed');
  });

  it('marks a scanned item name whose volume may end in a litre sign read as a one ("1,01" for "1,0l"); a text layer, and other figures, are not marked', () => {
    const path = 'invoiceLine[0].itemInformation.itemName';
    const marked = (name: string, source: 'ocr' | 'text-layer' = 'ocr') => {
      const doc = buildDoc(letter(name, 0.93).map((p) => ({ ...p, source })));
      const evidence = { [path]: 'ocr:line:arithmetic' };
      markUnsureLetters(doc, { invoiceLine: [{ itemInformation: { itemName: name } }] }, evidence);
      return evidence[path];
    };
    expect(marked('Mineralwasser Medium 12 x 1,01 PET')).toMatch(/:garbled$/);
    expect(marked('Leergutpfand 20 x 0,51')).toMatch(/:garbled$/);
    expect(marked('Mineralwasser Medium 12 x 1,0l PET')).toBe('ocr:line:arithmetic');
    expect(marked('Kabel 2,5 mm² 50 m')).toBe('ocr:line:arithmetic');
    expect(marked('Mineralwasser Medium 12 x 1,01 PET', 'text-layer')).toBe('ocr:line:arithmetic');
  });
});
