import { ApplicationFailure } from '@temporalio/activity';
import type { AttachmentNote } from '../src/pdf/attachments.js';
import { runIsolated } from '../src/pdf/isolate.js';
import type { ZugferdProfile } from '../src/pdf/profiles.js';
import { PdfInputError } from '../src/pdf/structure.js';
import type { ZugferdReport } from '../src/pdf/validate.js';
import {
  buildZugferd,
  extractZugferdInvoice,
  NotEmbeddableError,
  validateZugferdPdf,
  type ConvertMode,
  type Embed,
  type Inspect,
  type UnembedFonts,
  type DropEmptyAppearances,
} from '../src/pdf/zugferd.js';
import type { ExtractZugferdInput, ExtractZugferdResult, ValidateZugferdInput } from '../src/operations/zugferd.js';
import type { RequestContext } from '../src/operations/context.js';
import type { ActivityDeps } from './deps.js';
import { documentTime, stepBlobs } from './step.js';

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
  /** How many fonts of the input were drawn in Ghostscript's own typefaces. */
  substitutedFonts: number;
  /** What became of the files the input PDF already carried (replaced, kept, dropped). */
  attachments: AttachmentNote[];
}

/** Errors of the input become non-retryable failures whose type is the API error code. */
function asFailure(err: unknown): unknown {
  if (err instanceof PdfInputError) return ApplicationFailure.nonRetryable(err.message, 'PDF_UNREADABLE');
  if (err instanceof NotEmbeddableError) return ApplicationFailure.nonRetryable(err.message, 'XML_NOT_ZUGFERD');
  return err;
}

/** pdf-lib and pdfjs-dist parse untrusted files in a worker thread with its own limits. */
const isolatedInspect: Inspect = (bytes, withText) => runIsolated('inspect', { bytes, withText });
const isolatedEmbed: Embed = (input) => runIsolated('embed', input);
const isolatedUnembed: UnembedFonts = (bytes) => runIsolated('unembedFonts', { bytes });
const isolatedDropEmpty: DropEmptyAppearances = (bytes) => runIsolated('dropEmptyAppearances', { bytes });

export function zugferdActivities({ blobs, log, documentTime: fixedTime }: ActivityDeps) {
  const text = async (key: string) => (await blobs.get(key)).toString('utf8');
  const pdfBytes = async (key: string) => new Uint8Array(await blobs.get(key));

  return {
    /** PDF (converted to PDF/A-3b when needed) + CII → ZUGFeRD / Factur-X PDF/A-3b. */
    async buildZugferdPdf(input: BuildZugferdInput): Promise<BuildZugferdResult> {
      try {
        const xml = new Uint8Array(await blobs.get(input.xmlBlobKey));
        const built = await buildZugferd(
          { pdf: await pdfBytes(input.pdfBlobKey), xml, convert: input.convert, now: documentTime(fixedTime) },
          { inspect: isolatedInspect, embed: isolatedEmbed, unembedFonts: isolatedUnembed, dropEmptyAppearances: isolatedDropEmpty },
        );
        const stored = await stepBlobs(blobs).put(Buffer.from(built.pdf));
        const { profile, converted, substitutedFonts, attachments } = built;
        log.debug(
          { requestId: input.ctx.requestId, profile, converted, substitutedFonts, attachments: attachments.length, size: stored.size },
          'ZUGFeRD PDF built',
        );
        return { pdfBlobKey: stored.key, profile, converted, substitutedFonts, attachments };
      } catch (err) {
        throw asFailure(err);
      }
    },

    /** PDF/A-3 (veraPDF), hybrid structure and XMP, the XML's own rules, and optionally the visible text. */
    async validateZugferdPdf(input: ValidateZugferdInput): Promise<ZugferdReport> {
      try {
        const report = await validateZugferdPdf(await pdfBytes(input.pdfBlobKey), {
          compareText: input.compareText,
          inspect: isolatedInspect,
        });
        log.debug({ requestId: input.ctx.requestId, valid: report.valid, findings: report.findings.length }, 'ZUGFeRD PDF validated');
        return report;
      } catch (err) {
        throw asFailure(err);
      }
    },

    /** The embedded invoice: its XML, profile and, when it maps onto the model, the invoice JSON (stored: it may be large). */
    async extractZugferdInvoice(input: ExtractZugferdInput): Promise<ExtractZugferdResult> {
      let found;
      try {
        found = await extractZugferdInvoice(await pdfBytes(input.pdfBlobKey), { inspect: isolatedInspect });
      } catch (err) {
        throw asFailure(err);
      }
      if (!found)
        throw ApplicationFailure.nonRetryable(
          'No embedded invoice XML (factur-x.xml, zugferd-invoice.xml, ZUGFeRD-invoice.xml, xrechnung.xml or another XML attachment up to 20 MB).',
          'INVOICE_XML_MISSING',
        );
      const store = async (text: string) => (await stepBlobs(blobs).put(Buffer.from(text, 'utf8'))).key;
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
}
