import type { Invoice } from '../invoice/model.js';
import { EN16931, validateInvoiceXml, type Finding, type ValidationReport } from '../validation/index.js';
import { parseUntrustedXml } from '../xml/dom.js';
import { parseInvoiceXml, writeCii } from '../xml/index.js';
import type { AttachmentNote } from './attachments.js';
import { withoutEmptyAppearances } from './annotations.js';
import { embedInvoiceXml, type EmbedInput, type Embedded } from './embed.js';
import { detectProfile, embeddedInvoice, readInvoice, type ExtractedInvoice } from './extract.js';
import { withoutSimpleFontPrograms } from './fonts.js';
import { convertToPdfA3 } from './ghostscript.js';
import { inspectPdf, type PdfInspection } from './inspect.js';
import { ZUGFERD_PROFILES, type DetectedProfile, type ZugferdProfile } from './profiles.js';
import { assembleReport, type ZugferdReport } from './validate.js';
import { profileContentFindings } from './profile-content.js';
import { checkPdfA3b } from './verapdf.js';
import { compareVisibleText } from './visible-text.js';

/**
 * The ZUGFeRD operations on bytes: build a ZUGFeRD PDF, validate a PDF, extract its invoice, and
 * check that an XML can be embedded. Parsing the PDF is passed in, so the service runs it in the
 * isolated worker (isolate.ts) and tests run it in-process; everything else is the same code.
 */

export type Inspect = (bytes: Uint8Array, withText: boolean) => Promise<PdfInspection>;
export type Embed = (input: EmbedInput) => Promise<Embedded>;
export type UnembedFonts = (bytes: Uint8Array) => Promise<{ pdf: Uint8Array; fonts: number }>;
export type DropEmptyAppearances = (bytes: Uint8Array) => Promise<{ pdf: Uint8Array; removed: number }>;

const inProcess: Inspect = (bytes, withText) => inspectPdf(bytes, { withText });

/**
 * 'auto': convert unless the input already declares PDF/A with embedded fonts; 'always':
 * convert; 'substitute-fonts': convert with Ghostscript's own fonts in place of the embedded
 * simple fonts (fonts.ts), for inputs whose font programs contradict their declared widths.
 */
export type ConvertMode = 'auto' | 'always' | 'substitute-fonts';

export interface BuiltZugferd {
  pdf: Uint8Array;
  profile: ZugferdProfile;
  /** Whether Ghostscript converted the input to PDF/A-3b first. */
  converted: boolean;
  /** How many fonts of the input were drawn in Ghostscript's own typefaces ('substitute-fonts'). */
  substitutedFonts: number;
  /** What became of the files the input PDF already carried (replaced, kept, dropped). */
  attachments: AttachmentNote[];
}

/** PDF (converted to PDF/A-3b when needed) + CII → ZUGFeRD / Factur-X PDF/A-3b; the XML's invoice titles the PDF. */
export async function buildZugferd(
  input: { pdf: Uint8Array; xml: Uint8Array; convert: ConvertMode; now: Date },
  opts: { inspect?: Inspect; embed?: Embed; unembedFonts?: UnembedFonts; dropEmptyAppearances?: DropEmptyAppearances } = {},
): Promise<BuiltZugferd> {
  const { profile, invoice } = embeddableXml(Buffer.from(input.xml).toString('utf8'));
  const unembedded = input.convert === 'substitute-fonts' ? await (opts.unembedFonts ?? withoutSimpleFontPrograms)(input.pdf) : undefined;
  const converted = input.convert !== 'auto' || !(await declaresPdfA(input.pdf, opts.inspect ?? inProcess));
  const pdf = converted
    ? await convertToPdfA3((await (opts.dropEmptyAppearances ?? withoutEmptyAppearances)(unembedded?.pdf ?? input.pdf)).pdf, {
        now: input.now,
      })
    : input.pdf;
  const embedded = await (opts.embed ?? embedInvoiceXml)({
    pdf,
    xml: input.xml,
    profile,
    title: invoice.invoiceNumber ? `Invoice ${invoice.invoiceNumber}` : 'Invoice',
    author: invoice.seller?.sellerName,
    subject: invoice.buyer?.buyerName ? `Invoice to ${invoice.buyer.buyerName}` : undefined,
    now: input.now,
  });
  return { pdf: embedded.pdf, profile, converted, substitutedFonts: unembedded?.fonts ?? 0, attachments: embedded.attachments };
}

/** Is the input already PDF/A (any part) with every font embedded and an OutputIntent? Then it is kept as it is. */
async function declaresPdfA(pdf: Uint8Array, inspect: Inspect): Promise<boolean> {
  const { facts } = await inspect(pdf, false);
  return facts.xmp?.facts?.pdfaPart !== undefined && facts.unembeddedFonts.length === 0 && facts.pdfaOutputIntents > 0;
}

export async function validateZugferdPdf(bytes: Uint8Array, opts: { compareText: boolean; inspect?: Inspect }): Promise<ZugferdReport> {
  // veraPDF runs in its own JVM: it checks while this process reads the file and judges the XML.
  const pdfaCheck = checkPdfA3b(bytes);
  pdfaCheck.catch(() => {}); // awaited below; a failure while the rest runs is not unhandled
  const inspection = await (opts.inspect ?? inProcess)(bytes, opts.compareText);
  const xml = inspection.invoice?.xml;
  const detected = xml !== undefined ? detectProfile(xml) : undefined;
  const invoice = xml !== undefined ? tryReadInvoice(xml, detected!) : undefined;
  const xmlReport =
    xml === undefined
      ? undefined
      : detected?.generation === 'ZUGFeRD 1.0'
        ? await migratedReport(invoice!)
        : await validateInvoiceXml(xml, { container: 'pdf' });
  const profile = ZUGFERD_PROFILES.find((p) => p === detected?.profile && detected.generation !== 'ZUGFeRD 1.0');
  const pdfa = await pdfaCheck;
  return assembleReport({
    facts: inspection.facts,
    attachment: inspection.invoice?.attachment,
    detected,
    pdfa,
    xml: xmlReport,
    profileContent: invoice?.invoice && profile ? profileContentFindings(invoice.invoice, profile) : undefined,
    comparison: opts.compareText && invoice ? comparison(inspection.text ?? '', invoice) : undefined,
  });
}

/**
 * ZUGFeRD 1.0 predates EN 16931 and its own rules are not among ours: its invoice is migrated
 * to EN 16931 CII (D16B), exactly as extraction reads it, and that is validated. The first
 * finding says so, so nobody takes the verdict for one on the original XML.
 */
async function migratedReport(read: { invoice?: Invoice; problem?: string }): Promise<ValidationReport> {
  if (!read.invoice) {
    return {
      valid: false,
      findings: [
        {
          ruleId: 'ZF1-NOT-MIGRATED',
          severity: 'error',
          message: `The ZUGFeRD 1.0 XML cannot be migrated to EN 16931: ${read.problem}`,
          source: 'xml',
        },
      ],
      artefacts: [],
    };
  }
  // The 1.0 guideline id names no EN 16931 scenario; the migrated invoice is judged as plain EN 16931 inside a PDF.
  const migrated = { ...read.invoice, processControl: { ...read.invoice.processControl, specificationIdentifier: EN16931 } };
  const report = await validateInvoiceXml(writeCii(migrated), { container: 'pdf' });
  const note: Finding = {
    ruleId: 'ZF1-MIGRATED',
    severity: 'information',
    message:
      'ZUGFeRD 1.0 XML: validated after migration to EN 16931 CII (D16B), as extractXinvoiceFromZugferdToJson reads it; the findings judge the migrated invoice against the EN 16931 rules, which ZUGFeRD 1.0 predates.',
    source: 'xml',
  };
  return { ...report, findings: [note, ...report.findings] };
}

/** The invoice of the XML, or why there is none. */
function tryReadInvoice(xml: string, detected: DetectedProfile): { invoice?: Invoice; problem?: string } {
  try {
    return { invoice: readInvoice(xml, detected).invoice };
  } catch (err) {
    return { problem: (err as Error).message };
  }
}

/** The embedded invoice, or undefined when the PDF carries none. */
export async function extractZugferdInvoice(bytes: Uint8Array, opts: { inspect?: Inspect } = {}): Promise<ExtractedInvoice | undefined> {
  return embeddedInvoice((await (opts.inspect ?? inProcess)(bytes, false)).invoice);
}

/** comparePDF2XML: the visible text against the invoice the XML describes. */
function comparison(text: string, read: { invoice?: Invoice; problem?: string }): Finding[] {
  if (read.invoice) return compareVisibleText(text, read.invoice);
  return [
    {
      ruleId: 'PDF2XML-SKIPPED',
      severity: 'warning',
      message: `The PDF text was not compared: the XML does not map onto the invoice model (${read.problem}).`,
      source: 'pdf',
    },
  ];
}

/** Why an XML cannot be embedded; thrown by embeddableXml. */
export class NotEmbeddableError extends Error {
  override name = 'NotEmbeddableError';
}

/** The XML must be CII naming a Factur-X / ZUGFeRD 2.x profile or XRechnung; its invoice titles the PDF. */
export function embeddableXml(xml: string): { profile: ZugferdProfile; invoice: Invoice } {
  // XML we refuse to read (a DOCTYPE, not well-formed) is refused for that, before its BT-24 is looked for.
  try {
    parseUntrustedXml(xml);
  } catch (err) {
    throw new NotEmbeddableError(`The XML cannot be read: ${(err as Error).message}.`);
  }
  const detected = detectProfile(xml);
  const profile = ZUGFERD_PROFILES.find((p) => p === detected.profile);
  if (!profile || detected.generation === 'ZUGFeRD 1.0') {
    const named = detected.guideline ? `specification identifier (BT-24) "${detected.guideline}"` : 'no specification identifier (BT-24)';
    throw new NotEmbeddableError(`The XML has ${named}; it must name a Factur-X / ZUGFeRD 2.x profile or XRechnung.`);
  }
  let parsed: ReturnType<typeof parseInvoiceXml>;
  try {
    parsed = parseInvoiceXml(xml);
  } catch (err) {
    throw new NotEmbeddableError(`The XML cannot be read as an invoice: ${(err as Error).message}`);
  }
  if (parsed.syntax !== 'CII')
    throw new NotEmbeddableError(
      'The XML is UBL; ZUGFeRD / Factur-X embed UN/CEFACT CII. Create CII XML (createXinvoiceFromJson, syntax CII) or send the invoice as JSON.',
    );
  return { profile, invoice: parsed.invoice };
}
