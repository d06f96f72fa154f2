import { DOMParser, type Document, type Element } from '@xmldom/xmldom';

/** Thrown for XML we do not accept: too large, with a DOCTYPE, not well-formed, or not an invoice. */
export class XmlSyntaxError extends Error {
  override name = 'XmlSyntaxError';
}

/** Largest XML accepted; real invoices with embedded attachments stay well below. */
export const MAX_XML_BYTES = 20 * 1024 * 1024;

/**
 * Parses XML from an untrusted source. A DOCTYPE is refused outright rather than parsed
 * with care: invoices never need one, and refusing it rules out entity expansion of any kind.
 */
export function parseUntrustedXml(xml: string): Element {
  if (xml.length > MAX_XML_BYTES || Buffer.byteLength(xml, 'utf8') > MAX_XML_BYTES) {
    throw new XmlSyntaxError(`XML is larger than ${MAX_XML_BYTES / 1024 / 1024} MB`);
  }
  if (/<!DOCTYPE/i.test(xml)) throw new XmlSyntaxError('XML with a DOCTYPE declaration is not accepted');
  let doc: Document;
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') throw new XmlSyntaxError(message);
      },
    }).parseFromString(xml.replace(/^\uFEFF/, ''), 'text/xml');
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new XmlSyntaxError(`XML is not well-formed: ${message.split('\n')[0]}`);
  }
  if (!doc.documentElement) throw new XmlSyntaxError('XML has no root element');
  return doc.documentElement;
}
