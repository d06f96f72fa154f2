import { btOf } from '../invoice/catalog.js';
import { invoiceSchema, type Invoice } from '../invoice/model.js';
import { ciiDocument } from './cii.js';
import { isCreditNoteType } from './codes.js';
import { parseUntrustedXml, XmlSyntaxError } from './dom.js';
import { describesRoot, parseXml, writeXml } from './engine.js';
import type { ModelObject, Profile, XmlDocument } from './mapping.js';
import { ublCreditNoteDocument, ublInvoiceDocument } from './ubl.js';

export { XmlSyntaxError, MAX_XML_BYTES } from './dom.js';
export type { Profile } from './mapping.js';

export type SyntaxId = 'CII' | 'UBL';

/** A Factur-X / ZUGFeRD profile, or XRechnung (which allows what EN16931 allows). */
export type CiiProfile = Profile | 'XRECHNUNG';

export const XRECHNUNG_3_0 = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';
export const PEPPOL_BILLING_PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

/** BT-24 of each profile. */
export const CII_GUIDELINES: Readonly<Record<CiiProfile, string>> = {
  MINIMUM: 'urn:factur-x.eu:1p0:minimum',
  BASICWL: 'urn:factur-x.eu:1p0:basicwl',
  BASIC: 'urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic',
  EN16931: 'urn:cen.eu:en16931:2017',
  EXTENDED: 'urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended',
  XRECHNUNG: XRECHNUNG_3_0,
};

/**
 * The invoice as the XML carries it: BT-24 and BT-23 filled when empty (XRechnung 3.0 and the
 * Peppol billing process); an explicit specification identifier replaces the invoice's.
 */
export function withXmlDefaults(invoice: Invoice, specificationIdentifier?: string): Invoice {
  return {
    ...invoice,
    processControl: {
      businessProcessTypeIdentifier: invoice.processControl?.businessProcessTypeIdentifier ?? PEPPOL_BILLING_PROCESS,
      specificationIdentifier: specificationIdentifier ?? invoice.processControl?.specificationIdentifier ?? XRECHNUNG_3_0,
    },
  };
}

/**
 * CII for a profile: nodes the profile's XSD does not allow are left out and BT-24 names the
 * profile. Without a profile: everything EN 16931 maps, with the invoice's own BT-24
 * (XRechnung 3.0 when it has none).
 */
export function writeCii(invoice: Invoice, { profile }: { profile?: CiiProfile } = {}): string {
  const level: Profile = profile === undefined || profile === 'XRECHNUNG' ? 'EN16931' : profile;
  return writeXml(ciiDocument, withXmlDefaults(invoice, profile && CII_GUIDELINES[profile]) as ModelObject, level);
}

/** UBL Invoice, or CreditNote for the credit note type codes (381 and friends). */
export function writeUbl(invoice: Invoice): string {
  return writeXml(
    isCreditNoteType(invoice.invoiceTypeCode) ? ublCreditNoteDocument : ublInvoiceDocument,
    withXmlDefaults(invoice) as ModelObject,
  );
}

/** XRechnung 3.0 XML; CII unless UBL is asked for (the profile option applies to CII only). */
export function writeInvoiceXml(invoice: Invoice, opts: { syntax?: SyntaxId; profile?: CiiProfile } = {}): string {
  if (opts.syntax === 'UBL') {
    if (opts.profile !== undefined) throw new Error('Profiles are Factur-X / ZUGFeRD levels of CII; UBL has none');
    return writeUbl(invoice);
  }
  return writeCii(invoice, { profile: opts.profile });
}

const DOCUMENTS: ReadonlyArray<[SyntaxId, XmlDocument]> = [
  ['CII', ciiDocument],
  ['UBL', ublInvoiceDocument],
  ['UBL', ublCreditNoteDocument],
];

/** The syntax whose invoice root (CII CrossIndustryInvoice, UBL Invoice or CreditNote) the XML has; undefined for any other or unreadable XML. */
export function invoiceSyntaxOf(xml: string): SyntaxId | undefined {
  let root: ReturnType<typeof parseUntrustedXml>;
  try {
    root = parseUntrustedXml(xml);
  } catch {
    return undefined;
  }
  return DOCUMENTS.find(([, doc]) => describesRoot(doc, root))?.[0];
}

/** Reads CII (CrossIndustryInvoice) or UBL (Invoice, CreditNote) from untrusted input. */
export function parseInvoiceXml(xml: string): { syntax: SyntaxId; invoice: Invoice } {
  const root = parseUntrustedXml(xml);
  const found = DOCUMENTS.find(([, doc]) => describesRoot(doc, root));
  if (!found)
    throw new XmlSyntaxError(
      `Unknown root element {${root.namespaceURI ?? ''}}${root.localName}: expected a CII CrossIndustryInvoice or a UBL Invoice or CreditNote`,
    );
  const [syntax, doc] = found;
  return { syntax, invoice: toInvoice(parseXml(doc, root)) };
}

function toInvoice(model: ModelObject): Invoice {
  const result = invoiceSchema.safeParse(model);
  if (result.success) return result.data;
  const problems = result.error.issues.slice(0, 5).map((issue) => {
    const bt = btOf(issue.path);
    return `${issue.path.join('.')}${bt ? ` (${bt})` : ''}: ${issue.message}`;
  });
  throw new XmlSyntaxError(`XML content does not fit the invoice model: ${problems.join('; ')}`);
}
