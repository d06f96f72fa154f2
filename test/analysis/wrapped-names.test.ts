import { describe, expect, it } from 'vitest';
import { joinWrapped, type NameLine } from '../../src/analysis/wrapped-names.js';

/** A line of 8-point text in the name column, `n` lines below the item's first, ending at `x1`. */
const at = (text: string, n: number, x1: number, opts: { firstWidth?: number; next?: number; gap?: number } = {}): NameLine => ({
  text,
  x0: 100,
  x1,
  firstWidth: opts.firstWidth ?? 4 * Math.min(text.indexOf(' ') < 0 ? text.length : text.indexOf(' '), 10),
  height: 8,
  top: 200 + n * (10 + (opts.gap ?? 0)),
  bottom: 208 + n * (10 + (opts.gap ?? 0)),
  ...(opts.next !== undefined ? { next: opts.next } : {}),
});

describe('names a narrow column broke over lines', () => {
  // The table's other item: its words fill the column up to 168, the price column's text starts at 190.
  const other = [at('Navigation System', 0, 168, { next: 190 })];

  it('joins a line whose first word had no room on the line above, a word broken at its hyphen without a space', () => {
    const item = [at('Kfz-', 0, 116, { next: 190 }), at('Haftpflicht', 1, 144), at('SF25 Typkl. 18', 2, 156, { gap: 20 })];
    // "Haftpflicht" would have fitted after "Kfz-" (116 + 2 + 40 < 168): it joins as a line break of the name, set tight under it.
    // Joined by its spacing alone, which a description set tight under a name shares: the join says so.
    expect(joinWrapped('Kfz-', item, [item, other])).toMatchObject({ name: 'Kfz-Haftpflicht', spaced: true });
    const overran = [
      at('Trennblätter', 0, 162, { next: 190 }),
      at('A4', 1, 108, { firstWidth: 8 }),
      at('Verpackung Karton', 2, 168, { gap: 20 }),
    ];
    expect(joinWrapped('Trennblätter', overran, [overran, other])).toEqual({
      name: 'Trennblätter A4',
      rest: ['Verpackung Karton'],
      broken: true,
      spaced: false,
      undecided: false,
    });
  });

  it('takes the column to be as wide as its widest line of words: a longer single word ran on past its edge', () => {
    // "Upgrade" fits before 168, where "Unfallversicherung" ends, but not before 150, where the widest line of words does.
    const words = [at('Personen-', 0, 136, { next: 190 }), at('Unfallversicherung', 1, 168), at('Vollkasko Tarif', 2, 150, { gap: 20 })];
    const item = [at('Choice', 0, 124, { next: 190 }), at('Upgrade', 1, 128)];
    expect(joinWrapped('Choice', item, [item, words])).toMatchObject({ name: 'Choice Upgrade', spaced: false });
    // Set apart from the name, the line had room for all that is known: not joined for its width alone.
    const apart = [at('Choice', 0, 124, { next: 190 }), at('Upgrade', 1, 128, { gap: 20 })];
    expect(joinWrapped('Choice', apart, [apart, words])).toMatchObject({ name: 'Choice', rest: ['Upgrade'] });
  });

  it('keeps a sentence set tight under the name, wider than any name, as the description', () => {
    const item = [at('Zeitschrift', 0, 144, { next: 190 }), at('Die letzte Lieferung erfolgt in 12/2016', 1, 420)];
    expect(joinWrapped('Zeitschrift', item, [item, other])).toEqual({
      name: 'Zeitschrift',
      rest: ['Die letzte Lieferung erfolgt in 12/2016'],
      broken: true,
      spaced: false,
      undecided: false,
    });
  });

  it('breaks nothing in a column far wider than its text, and leaves a line set like the name undecided', () => {
    const item = [at('Small Business Exchange 2010', 0, 220, { next: 480 }), at('Grundgebühr pro Einheit', 1, 190)];
    expect(joinWrapped('Small Business Exchange 2010', item, [item])).toEqual({
      name: 'Small Business Exchange 2010',
      rest: ['Grundgebühr pro Einheit'],
      broken: false,
      spaced: false,
      undecided: true,
    });
  });

  it('leaves open a name whose next line stands under its second word when the first is a running number', () => {
    const item = [{ ...at('2 Standard Mounting', 0, 168, { next: 300 }), x0: 76, second: 100 }, at('Brackets', 1, 136)];
    expect(joinWrapped('Standard Mounting', item, [item])).toMatchObject({ name: 'Standard Mounting', undecided: true });
    const coded = [{ ...at('GG-05 Standard Mounting', 0, 168, { next: 300 }), x0: 76, second: 100 }, at('Brackets', 1, 136)];
    expect(joinWrapped('Standard Mounting', coded, [coded])).toMatchObject({ undecided: false });
  });

  it('never joins a line that runs on into the columns of figures, but leaves the name open under it', () => {
    const item = [at('Industrial', 0, 170, { next: 300 }), { ...at('Grade Fasteners (1 kg)', 1, 160), spilled: true }];
    expect(joinWrapped('Industrial', item, [item])).toMatchObject({
      name: 'Industrial',
      rest: ['Grade Fasteners (1 kg)'],
      undecided: true,
    });
  });
});
