import { DOMParser, type Element } from '@xmldom/xmldom';
import { FACTURX_XMP, PROFILE_FACTS, type ZugferdProfile } from './profiles.js';

/**
 * The XMP metadata packet of a ZUGFeRD / Factur-X PDF/A-3: PDF/A identification, the document
 * information mirrored from the Info dictionary (PDF/A requires the two to agree), a document id,
 * and the Factur-X properties with the extension schema that declares them (PDF/A allows no
 * undeclared XMP properties).
 */

export interface DocumentInfo {
  title: string;
  author?: string;
  subject?: string;
  creator: string;
  producer: string;
  created: Date;
  modified: Date;
}

export interface XmpInput {
  info: DocumentInfo;
  profile: ZugferdProfile;
  /** uuid:… ; stays with the document across versions. */
  documentId: string;
  /** uuid:… ; new for this file. */
  instanceId: string;
}

const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

/** Factur-X 1.0 annex: the four properties and their declared types. */
const FX_PROPERTIES: ReadonlyArray<[name: string, description: string]> = [
  ['DocumentFileName', 'The name of the embedded XML document'],
  ['DocumentType', 'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER'],
  ['Version', 'The actual version of the standard applying to the embedded XML document'],
  ['ConformanceLevel', 'The conformance level of the embedded XML document'],
];

export function buildXmp({ info, profile, documentId, instanceId }: XmpInput): string {
  const facts = PROFILE_FACTS[profile];
  const fx = FACTURX_XMP;
  const properties = FX_PROPERTIES.map(
    ([name, description]) => `
              <rdf:li rdf:parseType="Resource">
                <pdfaProperty:name>${name}</pdfaProperty:name>
                <pdfaProperty:valueType>Text</pdfaProperty:valueType>
                <pdfaProperty:category>external</pdfaProperty:category>
                <pdfaProperty:description>${description}</pdfaProperty:description>
              </rdf:li>`,
  ).join('');
  // The packet header's BOM and the 2 KB of trailing padding are what XMP asks of writers so
  // that readers can find the packet and editors can update it in place.
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
  <rdf:RDF xmlns:rdf="${RDF}">
    <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">
      <pdfaid:part>3</pdfaid:part>
      <pdfaid:conformance>B</pdfaid:conformance>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <dc:format>application/pdf</dc:format>
      <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(info.title)}</rdf:li></rdf:Alt></dc:title>${
        info.author === undefined ? '' : `\n      <dc:creator><rdf:Seq><rdf:li>${escapeXml(info.author)}</rdf:li></rdf:Seq></dc:creator>`
      }${info.subject === undefined ? '' : `\n      <dc:description><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(info.subject)}</rdf:li></rdf:Alt></dc:description>`}
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
      <pdf:Producer>${escapeXml(info.producer)}</pdf:Producer>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
      <xmp:CreatorTool>${escapeXml(info.creator)}</xmp:CreatorTool>
      <xmp:CreateDate>${xmpDate(info.created)}</xmp:CreateDate>
      <xmp:ModifyDate>${xmpDate(info.modified)}</xmp:ModifyDate>
      <xmp:MetadataDate>${xmpDate(info.modified)}</xmp:MetadataDate>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/">
      <xmpMM:DocumentID>${escapeXml(documentId)}</xmpMM:DocumentID>
      <xmpMM:InstanceID>${escapeXml(instanceId)}</xmpMM:InstanceID>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
      <pdfaExtension:schemas>
        <rdf:Bag>
          <rdf:li rdf:parseType="Resource">
            <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
            <pdfaSchema:namespaceURI>${fx.namespace}</pdfaSchema:namespaceURI>
            <pdfaSchema:prefix>${fx.prefix}</pdfaSchema:prefix>
            <pdfaSchema:property>
              <rdf:Seq>${properties}
              </rdf:Seq>
            </pdfaSchema:property>
          </rdf:li>
        </rdf:Bag>
      </pdfaExtension:schemas>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:${fx.prefix}="${fx.namespace}">
      <${fx.prefix}:DocumentType>${fx.documentType}</${fx.prefix}:DocumentType>
      <${fx.prefix}:DocumentFileName>${facts.fileName}</${fx.prefix}:DocumentFileName>
      <${fx.prefix}:Version>${fx.version}</${fx.prefix}:Version>
      <${fx.prefix}:ConformanceLevel>${facts.xmpLevel}</${fx.prefix}:ConformanceLevel>
    </rdf:Description>
  </rdf:RDF>
</x:xmpmeta>
${' '.repeat(99).concat('\n').repeat(20)}<?xpacket end="w"?>`;
}

/** XMP dates carry the offset; the PDF Info dictionary gets the same instant (see pdfDate). */
export function xmpDate(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

// ---------------------------------------------------------------------------------------------
// Reading

/** What a PDF's XMP says; every field is as written, absent when the packet does not carry it. */
export interface XmpFacts {
  pdfaPart?: string;
  pdfaConformance?: string;
  /** The invoice properties, from whichever namespace carries them (Factur-X, ZUGFeRD 2.0 or 1.0). */
  invoice?: {
    namespace: string;
    documentType?: string;
    documentFileName?: string;
    version?: string;
    conformanceLevel?: string;
  };
  /** Namespaces that an extension schema declares (PDF/A: every custom property needs one). */
  declaredNamespaces: string[];
}

const PDFAID = 'http://www.aiim.org/pdfa/ns/id/';
const PDFA_SCHEMA = 'http://www.aiim.org/pdfa/ns/schema#';
/** Namespaces that have carried the invoice properties, newest first. */
export const INVOICE_XMP_NAMESPACES = [
  FACTURX_XMP.namespace,
  'urn:zugferd:pdfa:CrossIndustryDocument:invoice:2p0#',
  'urn:ferd:pdfa:CrossIndustryDocument:invoice:1p0#',
] as const;

/** Parses an XMP packet. RDF lets a simple property be an element or an attribute of rdf:Description; both are read. */
export function parseXmp(packet: string): XmpFacts | undefined {
  if (/<!DOCTYPE/i.test(packet)) return undefined;
  let root: Element | null;
  try {
    root = new DOMParser({ onError: () => undefined }).parseFromString(packet.replace(/^\uFEFF/, ''), 'text/xml').documentElement;
  } catch {
    return undefined;
  }
  if (!root) return undefined;
  const descriptions = Array.from(root.getElementsByTagNameNS(RDF, 'Description'));
  const property = (ns: string, name: string): string | undefined => {
    for (const d of descriptions) {
      const attr = d.getAttributeNS(ns, name);
      if (attr) return attr.trim();
      const el = Array.from(d.childNodes).find(
        (n): n is Element => n.nodeType === 1 && (n as Element).namespaceURI === ns && (n as Element).localName === name,
      );
      if (el) return (el.textContent ?? '').trim();
    }
    return undefined;
  };
  const namespace = INVOICE_XMP_NAMESPACES.find(
    (ns) => property(ns, 'DocumentFileName') !== undefined || property(ns, 'ConformanceLevel') !== undefined,
  );
  const declaredNamespaces = Array.from(root.getElementsByTagNameNS(PDFA_SCHEMA, 'namespaceURI')).map((e) => (e.textContent ?? '').trim());
  return {
    pdfaPart: property(PDFAID, 'part'),
    pdfaConformance: property(PDFAID, 'conformance'),
    ...(namespace
      ? {
          invoice: {
            namespace,
            documentType: property(namespace, 'DocumentType'),
            documentFileName: property(namespace, 'DocumentFileName'),
            version: property(namespace, 'Version'),
            conformanceLevel: property(namespace, 'ConformanceLevel'),
          },
        }
      : {}),
    declaredNamespaces,
  };
}
