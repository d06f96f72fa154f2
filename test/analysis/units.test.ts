import { describe, expect, it } from 'vitest';
import { unitCode } from '../../src/analysis/codes.js';

describe('printed units', () => {
  it('reads the unit words of German, English, French, Italian and Dutch invoices as UN/ECE Rec. 20 codes', () => {
    const printed: Array<[string, string]> = [
      ['Stk', 'C62'],
      ['pz', 'C62'],
      ['stuks', 'C62'],
      ['pce', 'C62'],
      ['ore', 'HUR'],
      ['uur', 'HUR'],
      ['giorni', 'DAY'],
      ['dagen', 'DAY'],
      ['Mon.', 'MON'],
      ['mnd', 'MON'],
      ['mesi', 'MON'],
      ['maand', 'MON'],
      ['yr', 'ANN'],
      ['jaar', 'ANN'],
      ['anno', 'ANN'],
      ['sqm', 'MTK'],
      ['mq', 'MTK'],
      ['mc', 'MTQ'],
      ['litri', 'LTR'],
      ['kW', 'KWT'],
      ['kWh', 'KWH'],
    ];
    expect(printed.map(([word]) => [word, unitCode(word)])).toEqual(printed);
  });

  it('passes printed codes through, package codes too ("XBC-" as a visualisation sets it), any code EN 16931 allows printed in capitals ("RM"), and leaves words it does not know', () => {
    expect(['H87', 'XBC-', 'XPX', 'RM', 'rm', 'Monat(', 'Gebinde', 'XXL'].map(unitCode)).toEqual([
      'H87',
      'XBC',
      'XPX',
      'RM',
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
