import { describe, expect, it } from 'vitest';
import { unitCode, unitNamedIn } from '../../src/analysis/codes.js';

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

  it('reads the unit a name closes with, in brackets or after "pro", "per", "je", and no package size or VAT category', () => {
    const names: Array<[string, string | undefined]> = [
      ['Künstlerische Gestaltung (Stunde)', 'HUR'],
      ['Heiße Luft pro Liter', 'LTR'],
      ['Heiße Luft pro Liter:', 'LTR'],
      ['Design (hours)', 'HUR'],
      ['Hot air „heiße Luft“ (litres)', 'LTR'],
      ['Kabel NYM 3x1,5 per Meter', 'MTR'],
      ['Premium Schrauben (1 kg)', undefined],
      ['Beratung (S)', undefined],
      ['Saatgut (G)', undefined],
      ['Mineralwasser Medium 12 x 1,0l PET', undefined],
      ['Versand (an Kunde)', undefined],
      ['Stunde (Wartung)', undefined],
    ];
    expect(names.map(([name]) => [name, unitNamedIn(name)])).toEqual(names);
  });
});
