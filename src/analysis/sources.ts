/**
 * Where a value of the analysis comes from, as a user needs to know before trusting it:
 * printed on the page, inferred from what is printed (a domestic address's country, a line's
 * VAT category from its rate), or a default that holds when the page says nothing (document
 * type 380). Derived from the evidence the readers record for every field.
 */
export const FIELD_SOURCES = ['printed', 'inferred', 'default'] as const;
export type FieldSource = (typeof FIELD_SOURCES)[number];

/** Evidence prefix of values an inference rule added (src/analysis/implied.ts). */
export const INFERRED = 'inferred:';

/** Evidence of values no reader found: the defaults of the analysis. */
const DEFAULTS = new Set(['default', 'line:numbered']);

export function sourceOf(evidence: string): FieldSource {
  const via = evidence.replace(/^ocr:/, '');
  if (via.startsWith(INFERRED) || via.startsWith('totals:derived') || via === 'vatrow:completed') return 'inferred';
  return DEFAULTS.has(via) ? 'default' : 'printed';
}
