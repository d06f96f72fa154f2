import { describe, expect, it } from 'vitest';
import { languageOf } from '../../src/reading/language.js';
import { NativeOcr } from '../../src/reading/native-tesseract.js';
import { readDocument } from '../../src/reading/index.js';
import { pdfOf, type Text } from '../analysis/fixtures.js';
import { scannedJpegs } from './fixtures.js';

/** A French invoice page and a German one, drawn for the test, scanned as an office scanner would. */
const FRENCH: string[] = [
  'Au bon moulin SARL',
  '12 chemin des Écoliers, 84340 Malaucène',
  'Facture n° FA-2024-017 du 12/03/2024',
  'Échéance : 11/04/2024',
  'Désignation                     Quantité     Prix HT     Total HT',
  "Huile d'olive à l'ancienne          2          12,50       25,00",
  'Nougat de la Drôme                  3           4,20       12,60',
  'Total HT 37,60   TVA 5,5 % 2,07   Total TTC 39,67',
  'Pénalités de retard : trois fois le taux légal. Indemnité forfaitaire pour frais de recouvrement : 40 €',
];
const GERMAN: string[] = [
  'Müller Bürobedarf GmbH',
  'Hauptstraße 5, 80331 München',
  'Rechnung Nr. 2024-017 vom 12.03.2024',
  'Bitte zahlen Sie den Betrag bis zum 11.04.2024',
  'Menge  Bezeichnung             Einzelpreis   Gesamt',
  '2      Trennblätter A4              12,50     25,00',
  'Summe netto 25,00   MwSt 19 % 4,75   Gesamtbetrag 29,75',
];
const page = (lines: string[]): Text[] => lines.map((s, i) => ({ s, x: 50, y: 80 + 22 * i, size: 10 }));

describe("a page's language", () => {
  it('is told by its function and invoice words, with or without their accents, and only when one clearly leads', () => {
    expect(languageOf(FRENCH)).toBe('fr');
    expect(languageOf(FRENCH.map((l) => l.normalize('NFD').replace(/[\u0300-\u036f]/g, '')))).toBe('fr');
    expect(languageOf(GERMAN)).toBe('de');
    expect(languageOf(['Total 12,00'])).toBeUndefined();
  });

  it('has a French scan read again with the French model first, which keeps its accents; a German one is read once', async () => {
    const words = async (lines: string[]) => {
      const ocr = new NativeOcr({ size: 1, pageTimeoutMs: 60_000 });
      const [scan] = await scannedJpegs(await pdfOf([page(lines)]));
      const read = await readDocument(scan!, 'jpeg', { pool: ocr });
      return { text: read.pages[0]!.words.map((w) => w.text).join(' '), processes: ocr.workersStarted };
    };
    const french = await words(FRENCH);
    expect(french.processes).toBe(2);
    for (const word of ['Malaucène', 'Désignation', 'Quantité', 'Pénalités']) expect(french.text).toContain(word);
    const german = await words(GERMAN);
    expect(german.processes).toBe(1);
    expect(german.text).toContain('München');
  });
});
