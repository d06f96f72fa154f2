import { ApplicationFailure } from '@temporalio/activity';
import { invoiceSchema, type Invoice } from '../src/invoice/model.js';
import { convertToPdfA3 } from '../src/pdf/ghostscript.js';
import { runIsolated } from '../src/pdf/isolate.js';
import { guidelineOf, migrateZugferd1 } from '../src/pdf/zugferd1.js';
import { profileFromGuideline, ZUGFERD_PROFILES, type DetectedProfile, type ZugferdProfile } from '../src/pdf/profiles.js';
import { PdfInputError } from '../src/pdf/structure.js';
import { assembleReport, type ZugferdReport } from '../src/pdf/validate.js';
import { checkPdfA3b } from '../src/pdf/verapdf.js';
import { compareVisibleText } from '../src/pdf/visible-text.js';
import type { RequestContext } from '../src/temporal/context.js';
import { validateInvoiceXml as runValidation, type Finding } from '../src/validation/index.js';
import { parseInvoiceXml, writeInvoiceXml, type SyntaxId } from '../src/xml/index.js';
import type { ActivityDeps } from './deps.js';

/** 'auto': convert unless the input already declares PDF/A with embedded fonts; 'always': convert. */
export type ConvertMode = 'auto' | 'always';

export interface BuildZugferdInput {
  ctx: RequestContext;
  pdfBlobKey: string;
  xmlBlobKey: string;
  convert: ConvertMode;
}

export interface BuildZugferdResult {
  pdfBlobKey: string;
  profile: ZugferdProfile;
  /** Whether Ghostscript converted the input to PDF/A-3b first. */
  converted: boolean;
}

export interface ExtractZugferdResult {
  xmlBlobKey: string;
  fileName: string;
  detected: DetectedProfile;
  syntax?: SyntaxId;
  /** The invoice as JSON, stored (it may carry attachments of many MB); absent when the XML does not map. */
  invoiceBlobKey?: string;
  /** Why there is no invoice JSON. */
  problem?: string;
}

/** Errors of the input become non-retryable failures whose type is the API error code. */
function asFailure(err: unknown): unknown {
  if (err instanceof PdfInputError) return ApplicationFailure.nonRetryable(err.message, 'PDF_UNREADABLE');
  return err;
}

export function zugferdActivities({ blobs, log }: ActivityDeps) {
  const text = async (key: string) => (await blobs.get(key)).toString('utf8');

  const inspect = async (bytes: Uint8Array, withText: boolean) => {
    try {
      return await runIsolated('inspect', { bytes, withText });
    } catch (err) {
      throw asFailure(err);
    }
  };
  const pdfBytes = async (key: string) => new Uint8Array(await blobs.get(key));

  return {
    /** Invoice JSON → CII of the requested profile (the XML holds only what the profile allows). */
    async writeZugferdXml(input: { ctx: RequestContext; invoiceBlobKey: string; profile: ZugferdProfile }): Promise<{ xmlBlobKey: string }> {
      const parsed = invoiceSchema.safeParse(JSON.parse(await text(input.invoiceBlobKey)));
      if (!parsed.success) throw ApplicationFailure.nonRetryable(`stored invoice does not match the model: ${parsed.error.message}`, 'VALIDATION_ERROR');
      let xml: string;
      try {
        xml = writeInvoiceXml(parsed.data, { profile: input.profile });
      } catch (err) {
        throw ApplicationFailure.nonRetryable((err as Error).message, 'XML_BUILD_FAILED');
      }
      return { xmlBlobKey: (await blobs.put(Buffer.from(xml, 'utf8'))).key };
    },

    /** PDF (+ conversion to PDF/A-3b when needed) + CII → ZUGFeRD / Factur-X PDF/A-3b. */
    async buildZugferdPdf(input: BuildZugferdInput): Promise<BuildZugferdResult> {
      const xml = await blobs.get(input.xmlBlobKey);
      const { profile, invoice } = embeddableXml(xml.toString('utf8'));
      try {
        const original = await pdfBytes(input.pdfBlobKey);
        const converted = input.convert === 'always' || !(await declaresPdfA(original));
        const pdf = converted ? await convertToPdfA3(original) : original;
        const built = await runIsolated('embed', {
          pdf,
          xml: new Uint8Array(xml),
          profile,
          title: invoice?.invoiceNumber ? `Invoice ${invoice.invoiceNumber}` : 'Invoice',
          author: invoice?.seller?.sellerName,
          subject: invoice?.buyer?.buyerName ? `Invoice to ${invoice.buyer.buyerName}` : undefined,
          now: new Date(),
        });
        const stored = await blobs.put(Buffer.from(built));
        log.debug({ requestId: input.ctx.requestId, profile, converted, size: stored.size }, 'ZUGFeRD PDF built');
        return { pdfBlobKey: stored.key, profile, converted };
      } catch (err) {
        throw asFailure(err);
      }
    },

    /** PDF/A-3 (veraPDF), hybrid structure and XMP, the XML's own rules, and optionally the visible text. */
    async validateZugferdPdf(input: { ctx: RequestContext; pdfBlobKey: string; compareText: boolean }): Promise<ZugferdReport> {
      const bytes = await pdfBytes(input.pdfBlobKey);
      const inspection = await inspect(bytes, input.compareText);
      const pdfa = await checkPdfA3b(bytes);
      const xml = inspection.invoice?.xml;
      const xmlReport = xml !== undefined ? await runValidation(xml) : undefined;
      const detected = xml !== undefined ? profileFromGuideline(xmlReport?.customization ?? guidelineOf(xml)) : undefined;
      const report = assembleReport({
        facts: inspection.facts,
        attachment: inspection.invoice?.attachment,
        detected,
        pdfa,
        xml: xmlReport,
        comparison: input.compareText ? comparison(inspection.text ?? '', xml, detected) : undefined,
      });
      log.debug({ requestId: input.ctx.requestId, valid: report.valid, findings: report.findings.length }, 'ZUGFeRD PDF validated');
      return report;
    },

    /** The embedded invoice: its XML, profile and, when it maps onto the model, the invoice JSON. */
    async extractZugferdInvoice(input: { ctx: RequestContext; pdfBlobKey: string }): Promise<ExtractZugferdResult> {
      const { invoice } = await inspect(await pdfBytes(input.pdfBlobKey), false);
      if (!invoice) throw ApplicationFailure.nonRetryable('No embedded invoice XML (factur-x.xml, zugferd-invoice.xml, ZUGFeRD-invoice.xml, xrechnung.xml or another .xml attachment).', 'INVOICE_XML_MISSING');
      const xmlBlobKey = (await blobs.put(Buffer.from(invoice.xml, 'utf8'))).key;
      const detected = profileFromGuideline(guidelineOf(invoice.xml));
      const base = { xmlBlobKey, fileName: invoice.attachment.name, detected };
      try {
        const parsed = parseInvoiceXml(detected.generation === 'ZUGFeRD 1.0' ? migrateZugferd1(invoice.xml) : invoice.xml);
        const invoiceBlobKey = (await blobs.put(Buffer.from(JSON.stringify(parsed.invoice), 'utf8'))).key;
        return { ...base, syntax: parsed.syntax, invoiceBlobKey };
      } catch (err) {
        return { ...base, problem: `The embedded XML does not map onto the invoice model: ${(err as Error).message}` };
      }
    },
  };

  /** Is the input already PDF/A (any part) with every font embedded? Then it is kept as it is. */
  async function declaresPdfA(pdf: Uint8Array): Promise<boolean> {
    const { facts } = await inspect(pdf, false);
    return facts.xmp?.facts?.pdfaPart !== undefined && facts.unembeddedFonts.length === 0 && facts.pdfaOutputIntents > 0;
  }
}

/** The XML must be CII with a Factur-X / ZUGFeRD 2.x profile; its invoice gives the document title. */
function embeddableXml(xml: string): { profile: ZugferdProfile; invoice?: Invoice } {
  const detected = profileFromGuideline(guidelineOf(xml));
  const profile = ZUGFERD_PROFILES.find((p) => p === detected.profile);
  if (!profile || detected.generation === 'ZUGFeRD 1.0') {
    const named = detected.guideline ? `specification identifier (BT-24) "${detected.guideline}"` : 'no specification identifier (BT-24)';
    throw ApplicationFailure.nonRetryable(`The XML has ${named}; it must name a Factur-X / ZUGFeRD 2.x profile or XRechnung.`, 'XML_NOT_ZUGFERD');
  }
  let parsed: ReturnType<typeof parseInvoiceXml>;
  try {
    parsed = parseInvoiceXml(xml);
  } catch (err) {
    throw ApplicationFailure.nonRetryable(`The XML cannot be read as an invoice: ${(err as Error).message}`, 'XML_NOT_ZUGFERD');
  }
  if (parsed.syntax !== 'CII') throw ApplicationFailure.nonRetryable('The XML is UBL; ZUGFeRD / Factur-X embed UN/CEFACT CII. Create CII XML (createXinvoiceFromJson, syntax CII) or send the invoice as JSON.', 'XML_NOT_ZUGFERD');
  return { profile, invoice: parsed.invoice };
}

/** comparePDF2XML: the visible text against the invoice the XML describes. */
function comparison(text: string, xml: string | undefined, detected: DetectedProfile | undefined): Finding[] {
  if (xml === undefined) return [];
  try {
    return compareVisibleText(text, parseInvoiceXml(detected?.generation === 'ZUGFeRD 1.0' ? migrateZugferd1(xml) : xml).invoice);
  } catch (err) {
    return [{ ruleId: 'PDF2XML-SKIPPED', severity: 'warning', message: `The PDF text was not compared: the XML does not map onto the invoice model (${(err as Error).message}).`, source: 'pdf' }];
  }
}
