import { btOf } from '../invoice/catalog.js';
import type { Invoice } from '../invoice/model.js';
import type { Finding } from '../validation/index.js';
import { parseInvoiceXml, writeInvoiceXml } from '../xml/index.js';
import type { ZugferdProfile } from './profiles.js';

/**
 * "The XML holds only what the profile allows": the invoice is written again at its profile,
 * which leaves out every business term the profile's XSD does not allow, and read back. What got
 * lost was not allowed. Only terms our CII mapping knows can be judged this way; the official
 * Factur-X profile schemas would see more.
 */
export function profileContentFindings(invoice: Invoice, profile: ZugferdProfile): Finding[] {
  const kept = parseInvoiceXml(writeInvoiceXml(invoice, { profile })).invoice;
  // BT-23 / BT-24 are set by the writer for the profile; they are checked against XMP instead.
  const { processControl: _ignored, ...content } = invoice;
  return lostPaths(content, kept).map((path) => {
    const bt = btOf(path);
    return {
      ruleId: 'ZF-PROFILE-CONTENT',
      severity: 'error',
      message: `${bt ?? 'This element'} (${formatPath(path)}) is not allowed in the ${profile} profile.`,
      location: formatPath(path),
      source: 'xml',
    };
  });
}

/** Leaf paths whose value in `original` is missing or different in `kept`; an array counts once per first differing item. */
function lostPaths(original: unknown, kept: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (original === undefined || original === null) return [];
  if (typeof original !== 'object') return original === kept ? [] : [path];
  const keptObject = (kept ?? {}) as Record<string | number, unknown>;
  return Object.entries(original as Record<string, unknown>).flatMap(([key, value]) => {
    const segment = Array.isArray(original) ? Number(key) : key;
    return lostPaths(value, keptObject[segment], [...path, segment]);
  });
}

function formatPath(path: ReadonlyArray<string | number>): string {
  return path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
}
