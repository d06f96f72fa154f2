import os from 'node:os';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { AnalysisError, analyseInvoice } from '../src/analysis/index.js';
import type { Invoice } from '../src/invoice/model.js';
import { createOcr, NoTextError, OcrTimeoutError, readDocument, UnreadableFileError, type DocumentText } from '../src/reading/index.js';
import type { AnalyseDocumentInput, AnalysisSource, DocumentAnalysis } from '../src/operations/analysis.js';
import type { RequestContext } from '../src/operations/context.js';
import type { ActivityDeps } from './deps.js';

/** Normal pages take 2–5 s on one core; a page still running after this is pathological. */
const OCR_PAGE_TIMEOUT_MS = 90_000;
/** A fresh OCR engine (about half a second) every 200 pages, or sooner when the worker process is above 1.5 GB. */
const OCR_RECYCLE = { maxPages: 200, rssMarkBytes: 1536 * 1024 * 1024 };

/** Tesseract engines per worker process, shared by all analyses: OCR throughput is bounded by cores, not by requests. */
export const OCR_ENGINES = Math.max(1, Math.min(os.availableParallelism(), 4));

export function analysisActivities({ blobs, log }: ActivityDeps) {
  const pool = createOcr({
    size: OCR_ENGINES,
    pageTimeoutMs: OCR_PAGE_TIMEOUT_MS,
    recycle: OCR_RECYCLE,
    onWarning: (message, err) => log.warn({ err }, message),
  });

  return {
    /**
     * Reads an invoice file (embedded XML, text layer, OCR) and analyses it. The
     * untrusted parsing runs in the OCR module's sandbox; a file that cannot be
     * read or has no text fails for good, anything else may be retried.
     */
    async analyseDocument(input: AnalyseDocumentInput): Promise<DocumentAnalysis> {
      pool.warmUp(); // tesseract starts while the sandbox opens the file
      // Beside the worker's regular heartbeats (activities/heartbeat.ts), each page read reports progress.
      const activity = Context.current();
      try {
        const bytes = await blobs.get(input.fileBlobKey);
        const text = await readDocument(bytes, input.fileType, {
          pool,
          signal: activity.cancellationSignal,
          onPage: (done, total) => activity.heartbeat({ ocrPagesDone: done, ocrPages: total }),
        });
        const analysis = text.embedded
          ? fromEmbedded(text.embedded, text.pageCount, input.withLineItems)
          : fromPages(text, input.withLineItems);
        log.info(
          { requestId: input.ctx.requestId, pages: analysis.pageCount, source: analysis.source, confidence: analysis.extractionConfidence },
          'document analysed',
        );
        return analysis;
      } catch (err) {
        throw asFailure(err);
      }
    },

    /** Deletes blobs a workflow no longer needs (uploads are not kept once answered). */
    async discardBlobs(input: { ctx: RequestContext; keys: string[] }): Promise<void> {
      for (const key of input.keys) await blobs.delete(key);
    },
  };
}

function fromPages(text: DocumentText, withLineItems: boolean): DocumentAnalysis {
  const { invoice, extractionConfidence, fieldConfidence, fieldSource, fieldPlace, language, candidates, unread } = analyseInvoice(
    text.pages,
    { withLineItems },
  );
  const fields = Object.fromEntries(
    Object.entries(fieldSource).map(([path, source]) => {
      const place = fieldPlace[path];
      return [path, { confidence: fieldConfidence[path] ?? 0, source, ...(place ? { place } : {}) }];
    }),
  );
  const source: AnalysisSource = text.ocrPages === 0 ? 'text-layer' : text.ocrPages === text.pages.length ? 'ocr' : 'text-layer+ocr';
  return {
    extractionConfidence,
    invoice,
    pageCount: text.pageCount,
    source,
    fields,
    ...(language ? { language } : {}),
    ...(candidates ? { candidates } : {}),
    ...(unread ? { unread } : {}),
  };
}

/**
 * The XML is the invoice: exact, confidence 1. Attachment contents (BT-125,
 * base64 of up to megabytes) are left out: an analysis reports the data, and
 * workflow results must stay small.
 */
function fromEmbedded(embedded: Invoice, pageCount: number, withLineItems: boolean): DocumentAnalysis {
  const { invoiceLine, additionalSupportingDocuments, ...header } = embedded;
  const documents = additionalSupportingDocuments?.map(({ attachedDocument: _content, ...rest }) => rest);
  const invoice: Invoice = {
    ...header,
    ...(documents ? { additionalSupportingDocuments: documents } : {}),
    ...(withLineItems && invoiceLine ? { invoiceLine } : {}),
  };
  return { extractionConfidence: 1, invoice, pageCount, source: 'embedded-xml' };
}

/** Our error codes (errors.ts) as the failure type; these do not get better by retrying. */
function asFailure(err: unknown): unknown {
  if (err instanceof NoTextError || (err instanceof AnalysisError && err.code === 'PDF_NO_TEXT')) {
    return ApplicationFailure.nonRetryable(err.message, 'PDF_NO_TEXT');
  }
  if (err instanceof UnreadableFileError || err instanceof OcrTimeoutError)
    return ApplicationFailure.nonRetryable(err.message, 'FILE_UNREADABLE');
  return err;
}
