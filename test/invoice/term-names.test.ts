import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { catalog, catalogLists } from '../../src/invoice/catalog.js';
import { invoiceSchema } from '../../src/invoice/model.js';
import { TERM_NAMES, termName } from '../../src/invoice/term-names.js';

/** Every BT and BG the model tags, read from its JSON Schema (the OpenAPI form), not from the catalogue. */
function modelTerms(): Set<string> {
  const ids = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'bt' && typeof value === 'string') ids.add(value);
      else visit(value);
    }
  };
  visit(z.toJSONSchema(invoiceSchema, { io: 'input', unrepresentable: 'any' }));
  return ids;
}

describe('business term names', () => {
  const used = modelTerms();

  it('name every business term and group of the model in English and German, and nothing else', () => {
    expect(used.size).toBeGreaterThan(180);
    expect([...used].filter((id) => id.startsWith('BG-'))).toHaveLength(32);
    const missing = [...used].filter((id) => !TERM_NAMES[id]?.en.trim() || !TERM_NAMES[id]?.de.trim());
    expect(missing).toEqual([]);
    expect(Object.keys(TERM_NAMES).filter((id) => !used.has(id))).toEqual([]);
  });

  it('give each field a name of its own in each language, so a label needs no path', () => {
    const fieldTerms = [...new Set(catalog.map((f) => f.bt))];
    expect(fieldTerms).not.toContain('');
    for (const lang of ['en', 'de'] as const) {
      const names = fieldTerms.map((bt) => termName(bt, lang));
      const repeated = names.filter((name, i) => names.indexOf(name) !== i);
      expect(repeated, lang).toEqual([]);
    }
  });

  it('name the group of each list item', () => {
    expect(catalogLists.map((l) => l.path)).toEqual(
      expect.arrayContaining(['invoiceLine[]', 'vatBreakdown[]', 'invoiceLine[].invoiceLineAllowances[]']),
    );
    for (const list of catalogLists) expect(TERM_NAMES[list.bt], list.path).toBeDefined();
    expect(catalogLists.filter((l) => l.single).map((l) => l.path)).toEqual(['invoiceLine[].lineVatInformation[]']);
    expect(termName('BG-25', 'de')).toBe('Rechnungsposition');
    expect(termName('BT-1', 'de')).toBe('Rechnungsnummer');
    expect(termName('BT-27', 'en')).toBe('Seller name');
  });
});
