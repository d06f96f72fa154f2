import { CII_GUIDELINES, type CiiProfile } from '../xml/index.js';

/**
 * The Factur-X / ZUGFeRD 2.x profiles and what each one means for the PDF: the file name of the
 * embedded XML, the XMP conformance level and the AFRelationship of the attachment.
 */

export const ZUGFERD_PROFILES = [
  'MINIMUM',
  'BASICWL',
  'BASIC',
  'EN16931',
  'EXTENDED',
  'XRECHNUNG',
] as const satisfies readonly CiiProfile[];
export type ZugferdProfile = (typeof ZUGFERD_PROFILES)[number];

/** Factur-X 1.0 chapter 6: MINIMUM and BASIC WL are not invoices on their own, the PDF stays the legal invoice. */
export type AfRelationship = 'Data' | 'Alternative';

export interface ProfileFacts {
  /** fx:ConformanceLevel as Factur-X 1.0 spells it. */
  xmpLevel: string;
  /** Name of the embedded file. */
  fileName: string;
  relationship: AfRelationship;
  /** BT-24 our writer puts into the XML. */
  guideline: string;
}

export const PROFILE_FACTS: Readonly<Record<ZugferdProfile, ProfileFacts>> = {
  MINIMUM: { xmpLevel: 'MINIMUM', fileName: 'factur-x.xml', relationship: 'Data', guideline: CII_GUIDELINES.MINIMUM },
  BASICWL: { xmpLevel: 'BASIC WL', fileName: 'factur-x.xml', relationship: 'Data', guideline: CII_GUIDELINES.BASICWL },
  BASIC: { xmpLevel: 'BASIC', fileName: 'factur-x.xml', relationship: 'Alternative', guideline: CII_GUIDELINES.BASIC },
  EN16931: { xmpLevel: 'EN 16931', fileName: 'factur-x.xml', relationship: 'Alternative', guideline: CII_GUIDELINES.EN16931 },
  EXTENDED: { xmpLevel: 'EXTENDED', fileName: 'factur-x.xml', relationship: 'Alternative', guideline: CII_GUIDELINES.EXTENDED },
  // ZUGFeRD 2.1.1 onwards: the XRechnung reference profile travels as xrechnung.xml.
  XRECHNUNG: { xmpLevel: 'XRECHNUNG', fileName: 'xrechnung.xml', relationship: 'Alternative', guideline: CII_GUIDELINES.XRECHNUNG },
};

/** Factur-X XMP extension schema (Factur-X 1.0 / ZUGFeRD 2.x). */
export const FACTURX_XMP = {
  namespace: 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#',
  prefix: 'fx',
  version: '1.0',
  documentType: 'INVOICE',
} as const;

/** The invoice generations a PDF may carry; ZUGFeRD 1.0 has its own namespace, file name and profiles. */
export type ZugferdGeneration = 'Factur-X 1.0 / ZUGFeRD 2.x' | 'ZUGFeRD 2.0' | 'ZUGFeRD 1.0';

/** What BT-24 (or the ZUGFeRD 1.0 guideline) says about the profile. */
export interface DetectedProfile {
  /** BT-24 as written. */
  guideline: string;
  generation: ZugferdGeneration;
  /** Our profile name; ZUGFeRD 1.0 adds COMFORT. Absent when BT-24 names no known profile. */
  profile?: ZugferdProfile | 'COMFORT';
}

/** BT-24 values of Factur-X 1.0 / ZUGFeRD 2.1+ and of ZUGFeRD 2.0, as the specifications spell them. */
const KNOWN_GUIDELINES: ReadonlyArray<[string, ZugferdProfile, ZugferdGeneration]> = [
  ...ZUGFERD_PROFILES.filter((p) => p !== 'XRECHNUNG').map((p): [string, ZugferdProfile, ZugferdGeneration] => [
    CII_GUIDELINES[p],
    p,
    'Factur-X 1.0 / ZUGFeRD 2.x',
  ]),
  ['urn:zugferd.de:2p0:minimum', 'MINIMUM', 'ZUGFeRD 2.0'],
  ['urn:zugferd.de:2p0:basicwl', 'BASICWL', 'ZUGFeRD 2.0'],
  ['urn:cen.eu:en16931:2017#compliant#urn:zugferd.de:2p0:basic', 'BASIC', 'ZUGFeRD 2.0'],
  ['urn:cen.eu:en16931:2017#conformant#urn:zugferd.de:2p0:extended', 'EXTENDED', 'ZUGFeRD 2.0'],
];

/** XRechnung CIUS identifiers of every version, with or without the XRechnung extension suffix. */
const XRECHNUNG_GUIDELINE = /^urn:cen\.eu:en16931:2017#compliant#urn:(xeinkauf\.de:kosit|xoev-de:kosit:standard):xrechnung_\d/;
/**
 * Reads the profile from the specification identifier. Identifiers are compared exactly, as the
 * official validators do: a near miss (`…:2017:compliant:…` for `…#compliant#…`) names no profile.
 * ZUGFeRD 1.0 documents (recognised by their root namespace) name their profile at the end
 * (`urn:ferd:CrossIndustryDocument:invoice:1p0:comfort`, release candidates `urn:ferd:invoice:rc:comfort`).
 */
export function profileFromGuideline(guideline: string | undefined, zugferd1 = false): DetectedProfile {
  const id = (guideline ?? '').trim();
  if (zugferd1) {
    const level = /(basic|comfort|extended)$/i.exec(id)?.[1]?.toUpperCase() as 'BASIC' | 'COMFORT' | 'EXTENDED' | undefined;
    return { guideline: id, generation: 'ZUGFeRD 1.0', ...(level ? { profile: level } : {}) };
  }
  if (XRECHNUNG_GUIDELINE.test(id)) return { guideline: id, generation: 'Factur-X 1.0 / ZUGFeRD 2.x', profile: 'XRECHNUNG' };
  const known = KNOWN_GUIDELINES.find(([value]) => value === id);
  return known ? { guideline: id, generation: known[2], profile: known[1] } : { guideline: id, generation: 'Factur-X 1.0 / ZUGFeRD 2.x' };
}

/** fx:ConformanceLevel back to our profile name ("BASIC WL" → BASICWL, "EN 16931" → EN16931). */
export function profileFromXmpLevel(level: string | undefined): ZugferdProfile | 'COMFORT' | undefined {
  const compact = (level ?? '').replace(/\s+/g, '').toUpperCase();
  if (compact === 'COMFORT') return 'COMFORT';
  return ZUGFERD_PROFILES.find((p) => p === compact);
}

/** The file names under which producers embed the invoice, most specific first (matched case-insensitively). */
export const INVOICE_FILE_NAMES = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml'] as const;
