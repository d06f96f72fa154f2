import { ParseOption, XmlDocument, XmlParseError } from 'libxml2-wasm';
import type { ErrorDetail } from 'libxml2-wasm';
import type { Finding } from './types.js';

/**
 * Parses with libxml2 under options that forbid every way of reaching outside
 * the string: no network, no external entities or DTDs, no entity
 * substitution, no XInclude, no catalogs. The input guard already rejected
 * any DOCTYPE; these options are the second wall, not the first.
 */
// (XML_PARSE_NOERROR is deliberately absent: it would also hide the error
// details that become our findings.)
const SAFE_PARSE_OPTIONS = ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE | ParseOption.XML_PARSE_NO_SYS_CATALOG;

export type ParseResult = { ok: true; doc: XmlDocument } | { ok: false; findings: Finding[] };

export function detailLocation(d: ErrorDetail): string | undefined {
  if (d.xpath) return d.xpath;
  return d.line > 0 ? `${d.line}:${d.col}` : undefined;
}

export function parseXml(xml: string): ParseResult {
  try {
    // The string is already decoded text, so the encoding named in its XML
    // declaration (e.g. ISO-8859-1) no longer describes it: force UTF-8,
    // the encoding libxml2-wasm hands the string over in.
    const doc = XmlDocument.fromString(xml, { option: SAFE_PARSE_OPTIONS, encoding: 'utf-8' });
    if (doc.dtd) {
      doc.dispose();
      return {
        ok: false,
        findings: [
          { ruleId: 'INPUT-DOCTYPE', severity: 'fatal', message: 'Document type declarations (DOCTYPE) are not accepted', source: 'input' },
        ],
      };
    }
    return { ok: true, doc };
  } catch (e) {
    if (!(e instanceof XmlParseError)) throw e;
    const details = e.details.length > 0 ? e.details : [{ message: e.message, level: 3, line: 0, col: 0 }];
    return {
      ok: false,
      findings: details.map((d) => ({
        ruleId: 'XML-NOT-WELL-FORMED',
        severity: 'fatal' as const,
        message: d.message.trim(),
        ...(detailLocation(d) ? { location: detailLocation(d) } : {}),
        source: 'xml' as const,
      })),
    };
  }
}
