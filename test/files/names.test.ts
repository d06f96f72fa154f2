import { describe, expect, it } from 'vitest';
import { storedFileName } from '../../src/api/file-names.js';
import { safeFileStem } from '../../src/files/names.js';
import { attachmentFileName } from '../../src/xml/codes.js';

describe('file names from invoice data', () => {
  it('keeps letters, digits, dots, dashes and underscores, and at most 100 characters', () => {
    expect(safeFileStem('RE 2026/0815')).toBe('RE_2026_0815');
    expect(safeFileStem('x'.repeat(150))).toHaveLength(100);
    expect(safeFileStem('')).toBeUndefined();
    expect(safeFileStem(undefined)).toBeUndefined();
  });

  it('names an embedded document by the same rule, never as a hidden file', () => {
    const png = 'iVBORw0KGgo=';
    expect(attachmentFileName('../Lieferschein 7', png, 0, ['../Lieferschein 7'])).toBe('Lieferschein_7.png');
    expect(attachmentFileName(undefined, png, 0, [undefined])).toBe('attachment.png');
  });
});

describe('the stored-file-name field', () => {
  const field = storedFileName('xml', '<invoiceNumber>.xml');

  it('appends the extension and refuses paths', () => {
    expect(field.parse(' Rechnung 1 ')).toBe('Rechnung 1.xml');
    expect(field.parse('a.XML')).toBe('a.XML');
    expect(field.parse(undefined)).toBeUndefined();
    expect(field.safeParse('../x').success).toBe(false);
  });
});
