import { ApplicationFailure } from '@temporalio/activity';
import { ConversionRefusal, prepareForZugferd, type ConversionProfile, type FilledField } from '../src/conversion/convertible.js';
import type { OwnerLanguage } from '../src/conversion/owner-texts.js';
import type { Invoice } from '../src/invoice/model.js';
import { runIsolated } from '../src/pdf/isolate.js';
import { PdfInputError } from '../src/pdf/structure.js';
import type { RefusalDetails } from '../src/conversion/refusal-details.js';
import type { AnalysisSource, FieldReport } from '../src/operations/analysis.js';
import type { RequestContext } from '../src/operations/context.js';
import type { ActivityDeps } from './deps.js';
import { stepBlobs } from './step.js';

export function convertActivities({ blobs, log, scanCertainty }: ActivityDeps) {
  return {
    /**
     * createZugferdFromPdf between analysis and build: completes the analysed
     * invoice, refuses missing mandatory fields and totals that disagree with the
     * lines, and stores the invoice JSON for the XML writer.
     */
    async prepareZugferdInvoice(input: {
      ctx: RequestContext;
      invoice: Invoice;
      fields?: Record<string, FieldReport>;
      /** Other readings per field, for a refusal to offer a person. */
      candidates?: Record<string, string[]>;
      /** Parts the pages print that the analysis could not read. */
      unread?: string[];
      language?: OwnerLanguage;
      /** How the pages were read: values read by OCR must also be read with confidence. */
      source: AnalysisSource;
      /** The analysis' overall confidence, reported with a refusal. */
      extractionConfidence?: number;
    }): Promise<{ invoiceBlobKey: string; profile: ConversionProfile; filled: FilledField[] }> {
      let prepared: ReturnType<typeof prepareForZugferd>;
      const fields = Object.entries(input.fields ?? {});
      const sources = Object.fromEntries(fields.map(([path, f]) => [path, f.source]));
      const confidence = Object.fromEntries(fields.map(([path, f]) => [path, f.confidence]));
      try {
        prepared = prepareForZugferd(input.invoice, {
          sources,
          confidence,
          ...(input.candidates ? { candidates: input.candidates } : {}),
          ...(input.unread ? { unread: input.unread } : {}),
          ...(input.language ? { language: input.language } : {}),
          scanned: input.source === 'ocr' || input.source === 'text-layer+ocr',
          ...(scanCertainty !== undefined ? { scanCertainty } : {}),
        });
      } catch (err) {
        if (!(err instanceof ConversionRefusal)) throw err;
        const details: RefusalDetails = {
          fields: err.fields,
          language: err.language,
          userMessage: err.userMessage,
          ...(input.extractionConfidence !== undefined ? { extractionConfidence: input.extractionConfidence } : {}),
        };
        throw ApplicationFailure.create({ nonRetryable: true, type: err.code, message: err.message, details: [details] });
      }
      const { key } = await stepBlobs(blobs).put(Buffer.from(JSON.stringify(prepared.invoice), 'utf8'));
      log.debug({ requestId: input.ctx.requestId, profile: prepared.profile }, 'invoice prepared for ZUGFeRD');
      return { invoiceBlobKey: key, profile: prepared.profile, filled: prepared.filled };
    },

    /** A scan sent as PNG, JPEG or TIFF becomes the PDF the XML is embedded in: one page per image. */
    async imagesToPdfDocument(input: {
      ctx: RequestContext;
      fileBlobKey: string;
      fileType: 'png' | 'jpeg' | 'tiff';
    }): Promise<{ pdfBlobKey: string }> {
      try {
        const pdf = await runIsolated('images', { bytes: new Uint8Array(await blobs.get(input.fileBlobKey)), type: input.fileType });
        return { pdfBlobKey: (await stepBlobs(blobs).put(pdf)).key };
      } catch (err) {
        if (err instanceof PdfInputError) throw ApplicationFailure.nonRetryable(err.message, 'FILE_UNREADABLE');
        throw err;
      }
    },
  };
}
