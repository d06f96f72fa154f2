import { isErrorFinding, type Finding, type ValidationReport } from '../validation/index.js';
import { FACTURX_XMP, PROFILE_FACTS, profileFromXmpLevel, type DetectedProfile, type ZugferdProfile } from './profiles.js';
import type { PdfAttachment, PdfFacts } from './read.js';
import type { VeraPdfResult } from './verapdf.js';

/**
 * The ZUGFeRD / Factur-X verdict on a PDF: PDF/A-3 (veraPDF plus our structural checks), the
 * hybrid-invoice structure (attachment, AFRelationship, XMP properties consistent with the XML),
 * the XML's own validation, and, when asked, the visible text against the XML. All of it in the
 * finding shape of the XML validation, PDF findings with source 'pdf'.
 */

export interface ZugferdReport {
  valid: boolean;
  /** No error among the findings with source 'pdf' (PDF/A, attachment, XMP, visible text). */
  pdfValid: boolean;
  /** The XML was found and no other finding is an error (schema, EN 16931, XRechnung, profile). */
  xmlValid: boolean;
  profile?: string;
  generation?: DetectedProfile['generation'];
  /** Name of the embedded invoice file. */
  xmlFileName?: string;
  /** The scenario the embedded XML was judged under. */
  scenario?: ValidationReport['scenario'];
  findings: Finding[];
  artefacts: Array<{ name: string; version: string }>;
}

const pdf = (ruleId: string, severity: Finding['severity'], message: string): Finding => ({ ruleId, severity, message, source: 'pdf' });

/** What the PDF structure itself says, independent of veraPDF. */
export function structureFindings(
  facts: PdfFacts,
  attachment: PdfAttachment | undefined,
  detected: DetectedProfile | undefined,
): Finding[] {
  const findings: Finding[] = [];
  const xmp = facts.xmp?.facts;
  if (!facts.xmp) findings.push(pdf('PDF-XMP-MISSING', 'error', 'The PDF has no XMP metadata; PDF/A requires it.'));
  else if (!xmp) findings.push(pdf('PDF-XMP-UNREADABLE', 'error', 'The XMP metadata of the PDF is not well-formed XML.'));
  if (xmp && !xmp.pdfaPart)
    findings.push(
      pdf('PDF-PDFA-MISSING', 'error', 'The PDF does not declare PDF/A conformance (pdfaid:part); ZUGFeRD / Factur-X require PDF/A-3.'),
    );
  if (xmp?.pdfaPart && xmp.pdfaPart !== '3')
    findings.push(
      pdf(
        'PDF-PDFA-PART',
        'error',
        `The PDF declares PDF/A-${xmp.pdfaPart}; ZUGFeRD / Factur-X require PDF/A-3, the part that allows embedded XML.`,
      ),
    );
  if (facts.pdfaOutputIntents === 0)
    findings.push(pdf('PDF-OUTPUTINTENT', 'error', 'The PDF has no PDF/A OutputIntent with an ICC profile.'));
  if (!facts.hasTrailerId) findings.push(pdf('PDF-TRAILER-ID', 'error', 'The file trailer has no document ID; PDF/A requires one.'));
  for (const font of facts.unembeddedFonts)
    findings.push(
      pdf('PDF-FONT-NOT-EMBEDDED', 'error', `The font ${font} is not embedded; PDF/A requires every font used to be embedded.`),
    );

  if (!attachment) {
    const oversized = facts.attachments.filter((a) => a.tooLarge).map((a) => a.name);
    const why = oversized.length > 0 ? `; ${oversized.join(', ')} exceeds the 20 MB limit for XML` : '';
    findings.push(
      pdf(
        'ZF-XML-MISSING',
        'fatal',
        `The PDF carries no invoice XML (attachments: ${facts.attachments.map((a) => a.name).join(', ') || 'none'}${why}).`,
      ),
    );
    return findings;
  }
  if (!attachment.associated)
    findings.push(
      pdf(
        'ZF-NOT-ASSOCIATED',
        'error',
        `${attachment.name} is not listed in the document's AF array; PDF/A-3 requires embedded files to be associated files.`,
      ),
    );
  if (!attachment.mimeType)
    findings.push(pdf('ZF-MIMETYPE-MISSING', 'error', `${attachment.name} has no MIME type (Subtype); PDF/A-3 requires one.`));
  else if (!['text/xml', 'application/xml'].includes(attachment.mimeType))
    findings.push(pdf('ZF-MIMETYPE', 'warning', `${attachment.name} has MIME type ${attachment.mimeType}; text/xml is expected.`));

  const profile = detected?.profile;
  if (detected && !profile) {
    findings.push({
      ruleId: 'ZF-PROFILE-UNKNOWN',
      severity: 'error',
      message: `The specification identifier (BT-24) "${detected.guideline}" names no ZUGFeRD / Factur-X profile.`,
      location: 'BT-24',
      source: 'xml',
    });
  }
  const expected = profile && profile !== 'COMFORT' ? PROFILE_FACTS[profile] : undefined;
  if (!attachment.relationship)
    findings.push(pdf('ZF-AFRELATIONSHIP-MISSING', 'error', `${attachment.name} has no AFRelationship; PDF/A-3 requires one.`));
  else if (!['Data', 'Source', 'Alternative'].includes(attachment.relationship)) {
    findings.push(
      pdf(
        'ZF-AFRELATIONSHIP',
        'error',
        `${attachment.name} has AFRelationship ${attachment.relationship}; Factur-X allows Data, Source or Alternative.`,
      ),
    );
  } else if (expected && detected?.generation !== 'ZUGFeRD 1.0' && attachment.relationship !== expected.relationship) {
    findings.push(
      pdf(
        'ZF-AFRELATIONSHIP',
        'warning',
        `${attachment.name} has AFRelationship ${attachment.relationship}; for ${profile} the Factur-X specification recommends ${expected.relationship}.`,
      ),
    );
  }
  if (
    expected &&
    detected?.generation === 'Factur-X 1.0 / ZUGFeRD 2.x' &&
    attachment.name.toLowerCase() !== expected.fileName &&
    !(profile === 'XRECHNUNG' && attachment.name.toLowerCase() === 'factur-x.xml')
  ) {
    findings.push(
      pdf('ZF-FILENAME', 'error', `The ${profile} invoice is embedded as ${attachment.name}; Factur-X requires ${expected.fileName}.`),
    );
  }
  findings.push(...xmpFindings(facts, attachment, profile));
  return findings;
}

/** The XMP invoice properties against the embedded file and the profile of its XML. */
function xmpFindings(facts: PdfFacts, attachment: PdfAttachment, profile: ZugferdProfile | 'COMFORT' | undefined): Finding[] {
  const xmp = facts.xmp?.facts;
  if (!xmp) return [];
  const props = xmp.invoice;
  if (!props)
    return [
      pdf(
        'ZF-XMP-MISSING',
        'error',
        'The XMP metadata has no ZUGFeRD / Factur-X properties (DocumentType, DocumentFileName, Version, ConformanceLevel).',
      ),
    ];
  const findings: Finding[] = [];
  if (!xmp.declaredNamespaces.includes(props.namespace)) {
    findings.push(pdf('ZF-XMP-SCHEMA', 'error', `The XMP properties in ${props.namespace} have no PDF/A extension schema declaring them.`));
  }
  if (props.documentType !== FACTURX_XMP.documentType)
    findings.push(
      pdf('ZF-XMP-DOCUMENTTYPE', 'error', `XMP DocumentType is ${props.documentType ?? 'missing'}; expected ${FACTURX_XMP.documentType}.`),
    );
  if (props.documentFileName !== attachment.name) {
    findings.push(
      pdf(
        'ZF-XMP-FILENAME',
        'error',
        `XMP DocumentFileName is ${props.documentFileName ?? 'missing'}, but the invoice is embedded as ${attachment.name}.`,
      ),
    );
  }
  if (props.namespace === FACTURX_XMP.namespace && props.version !== FACTURX_XMP.version) {
    findings.push(
      pdf(
        'ZF-XMP-VERSION',
        'error',
        `XMP Version is ${props.version ?? 'missing'}; Factur-X 1.0 / ZUGFeRD 2.x write ${FACTURX_XMP.version}.`,
      ),
    );
  }
  const xmpProfile = profileFromXmpLevel(props.conformanceLevel);
  if (!xmpProfile)
    findings.push(
      pdf('ZF-XMP-LEVEL', 'error', `XMP ConformanceLevel ${props.conformanceLevel ?? 'missing'} names no ZUGFeRD / Factur-X profile.`),
    );
  else if (profile && xmpProfile !== profile) {
    findings.push(pdf('ZF-XMP-LEVEL', 'error', `XMP ConformanceLevel is ${props.conformanceLevel}, but the XML (BT-24) is ${profile}.`));
  }
  return findings;
}

/**
 * MINIMUM and BASIC WL are not EN 16931 invoices (no lines, partial VAT data): the EN 16931 rules
 * do not apply to them and their findings are kept as information, not errors.
 */
export function applyProfileScope(xml: ValidationReport, profile: DetectedProfile['profile']): Finding[] {
  if (profile !== 'MINIMUM' && profile !== 'BASICWL') return xml.findings;
  return xml.findings.map((f) =>
    f.source === 'en16931' && isErrorFinding(f)
      ? { ...f, severity: 'information', message: `Not applicable to ${profile}: ${f.message}` }
      : f,
  );
}

export interface ReportParts {
  facts: PdfFacts;
  attachment?: PdfAttachment;
  detected?: DetectedProfile;
  /** Findings of veraPDF; undefined when it is not installed. */
  pdfa?: VeraPdfResult;
  xml?: ValidationReport;
  /** Business terms the profile does not allow. */
  profileContent?: Finding[];
  /** Findings of the visible-text comparison, when it was asked for. */
  comparison?: Finding[];
}

export function assembleReport(parts: ReportParts): ZugferdReport {
  const findings = [
    ...(parts.pdfa?.findings ?? [
      pdf(
        'PDFA-NOT-CHECKED',
        'information',
        'veraPDF is not installed: PDF/A-3 was checked structurally only (XMP, OutputIntent, fonts, trailer ID).',
      ),
    ]),
    ...structureFindings(parts.facts, parts.attachment, parts.detected),
    ...(parts.comparison ?? []),
    ...(parts.xml ? applyProfileScope(parts.xml, parts.detected?.profile) : []),
    ...(parts.profileContent ?? []),
  ];
  const pdfValid = !findings.some((f) => f.source === 'pdf' && isErrorFinding(f));
  const xmlValid = parts.xml !== undefined && !findings.some((f) => f.source !== 'pdf' && isErrorFinding(f));
  return {
    valid: pdfValid && xmlValid,
    pdfValid,
    xmlValid,
    ...(parts.detected?.profile ? { profile: parts.detected.profile } : {}),
    ...(parts.detected ? { generation: parts.detected.generation } : {}),
    ...(parts.attachment ? { xmlFileName: parts.attachment.name } : {}),
    ...(parts.xml?.scenario ? { scenario: parts.xml.scenario } : {}),
    findings,
    artefacts: [...(parts.pdfa ? [parts.pdfa.artefact] : []), ...(parts.xml?.artefacts ?? [])],
  };
}
