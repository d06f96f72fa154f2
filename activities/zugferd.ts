import { ApplicationFailure } from '@temporalio/activity';
import { invoiceSchema } from '../src/invoice/model.js';
import { convertToPdfA3 } from '../src/pdf/ghostscript.js';
import { runIsolated } from '../src/pdf/isolate.js';
import type { DetectedProfile, ZugferdProfile } from '../src/pdf/profiles.js';
import { PdfInputError } from '../src/pdf/structure.js';
import type { ZugferdReport } from '../src/pdf/validate.js';
import { embeddableXml, extractZugferdInvoice, NotEmbeddableError, validateZugferdPdf, type Inspect } from '../src/pdf/zugferd.js';
import type { RequestContext } from '../src/temporal/context.js';
import { writeInvoiceXml, type SyntaxId } from '../src/xml/index.js';
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
  if (err instanceof NotEmbeddableError) return ApplicationFailure.nonRetryable(err.message, 'XML_NOT_ZUGFERD');
  return err;
}

/** pdf-lib and pdfjs-dist parse untrusted files in a worker thread with its own limits. */
const isolatedInspect: Inspect = (bytes, withText) => runIsolated('inspect', { bytes, withText });

export function zugferdActivities({ blobs, log }: ActivityDeps) {
  const text = async (key: string) => (await blobs.get(key)).toString('utf8');
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

    /** PDF (converted to PDF/A-3b when needed) + CII → ZUGFeRD / Factur-X PDF/A-3b. */
    async buildZugferdPdf(input: BuildZugferdInput): Promise<BuildZugferdResult> {
      try {
        const xml = await blobs.get(input.xmlBlobKey);
        const { profile, invoice } = embeddableXml(xml.toString('utf8'));
        const original = await pdfBytes(input.pdfBlobKey);
        const converted = input.convert === 'always' || !(await declaresPdfA(original));
        const pdf = converted ? await convertToPdfA3(original) : original;
        const built = await runIsolated('embed', {
          pdf,
          xml: new Uint8Array(xml),
          profile,
          title: invoice.invoiceNumber ? `Invoice ${invoice.invoiceNumber}` : 'Invoice',
          author: invoice.seller?.sellerName,
          subject: invoice.buyer?.buyerName ? `Invoice to ${invoice.buyer.buyerName}` : undefined,
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
      try {
        const report = await validateZugferdPdf(await pdfBytes(input.pdfBlobKey), { compareText: input.compareText, inspect: isolatedInspect });
        log.debug({ requestId: input.ctx.requestId, valid: report.valid, findings: report.findings.length }, 'ZUGFeRD PDF validated');
        return report;
      } catch (err) {
        throw asFailure(err);
      }
    },

    /** The embedded invoice: its XML, profile and, when it maps onto the model, the invoice JSON (stored: it may be large). */
    async extractZugferdInvoice(input: { ctx: RequestContext; pdfBlobKey: string }): Promise<ExtractZugferdResult> {
      let found;
      try {
        found = await extractZugferdInvoice(await pdfBytes(input.pdfBlobKey), { inspect: isolatedInspect });
      } catch (err) {
        throw asFailure(err);
      }
      if (!found) throw ApplicationFailure.nonRetryable('No embedded invoice XML (factur-x.xml, zugferd-invoice.xml, ZUGFeRD-invoice.xml, xrechnung.xml or another XML attachment up to 20 MB).', 'INVOICE_XML_MISSING');
      const store = async (text: string) => (await blobs.put(Buffer.from(text, 'utf8'))).key;
      return {
        xmlBlobKey: await store(found.xml),
        fileName: found.fileName,
        detected: found.detected,
        ...(found.syntax ? { syntax: found.syntax } : {}),
        ...(found.invoice ? { invoiceBlobKey: await store(JSON.stringify(found.invoice)) } : {}),
        ...(found.problem ? { problem: found.problem } : {}),
      };
    },
  };

  /** Is the input already PDF/A (any part) with every font embedded and an OutputIntent? Then it is kept as it is. */
  async function declaresPdfA(pdf: Uint8Array): Promise<boolean> {
    const { facts } = await isolatedInspect(pdf, false);
    return facts.xmp?.facts?.pdfaPart !== undefined && facts.unembeddedFonts.length === 0 && facts.pdfaOutputIntents > 0;
  }
}
