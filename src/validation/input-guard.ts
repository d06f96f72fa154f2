import type { Finding } from './types.js';

/**
 * Checks that run before any XML parser sees the input.
 *
 * Invoices never need a DTD, and a DOCTYPE is the only door to entity
 * expansion (billion laughs) and external entities (XXE, file or network
 * reads). Rejecting it here, before parsing, means neither libxml2 nor
 * SaxonJS's own parser ever gets the chance to act on it.
 */

export const MAX_INPUT_BYTES = 20 * 1024 * 1024;

function inputFinding(ruleId: string, message: string): Finding {
  return { ruleId, severity: 'fatal', message, source: 'input' };
}

/**
 * A DOCTYPE may only appear in the prolog (XML 1.0 §2.8), so scanning the
 * prolog — XML declaration, comments, processing instructions, whitespace —
 * is exact: a "<!DOCTYPE" inside a comment or in element content is text.
 */
const XML_WHITESPACE = ' \t\r\n';

export function hasDoctype(xml: string): boolean {
  let i = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    while (i < xml.length && XML_WHITESPACE.includes(xml[i] ?? '')) i++;
    if (xml.startsWith('<?', i)) {
      const end = xml.indexOf('?>', i + 2);
      if (end < 0) return false;
      i = end + 2;
    } else if (xml.startsWith('<!--', i)) {
      const end = xml.indexOf('-->', i + 4);
      if (end < 0) return false;
      i = end + 3;
    } else {
      // Case-insensitive so that a malformed "<!doctype" is named for what it
      // tries to be rather than reported as a generic parse error.
      return xml.slice(i, i + 9).toUpperCase() === '<!DOCTYPE';
    }
  }
}

/** Returns fatal findings; an empty array means the input may be parsed. */
export function guardInput(xml: unknown): Finding[] {
  if (typeof xml !== 'string') {
    return [inputFinding('INPUT-NOT-TEXT', `Expected the invoice XML as a string, got ${xml === null ? 'null' : typeof xml}`)];
  }
  if (xml.trim() === '') return [inputFinding('INPUT-EMPTY', 'The document is empty')];
  // Cheap upper bound first: UTF-8 needs at most 3 bytes per UTF-16 code unit.
  if (xml.length * 3 > MAX_INPUT_BYTES) {
    const bytes = Buffer.byteLength(xml, 'utf8');
    if (bytes > MAX_INPUT_BYTES) {
      return [inputFinding('INPUT-TOO-LARGE', `The document has ${bytes} bytes; the limit is ${MAX_INPUT_BYTES} bytes`)];
    }
  }
  if (hasDoctype(xml)) {
    return [
      inputFinding(
        'INPUT-DOCTYPE',
        'Document type declarations (DOCTYPE) are not accepted: e-invoices do not use DTDs and entity declarations are a security risk',
      ),
    ];
  }
  return [];
}
