import { zugferdFileName } from '../../files/names.js';
import { isEncryptedPdf } from '../../pdf/encryption.js';
import { convertOperation, type ConvertToZugferdResult } from '../../operations/convert.js';
import { checkFile, MAX_CONVERT_FILE_BYTES, type FileRules } from '../intake/file.js';
import type { Job } from '../intake/job.js';
import { conversions } from '../../metrics/metrics.js';
import { JobRefusal } from '../intake/refusal.js';
import { REVIEWABLE } from '../../operations/review.js';
import { queueApiRefusal } from './review.js';
import { runWorkflow, type JobDeps } from './run-workflow.js';

const CONVERTIBLE: FileRules = { maxBytes: MAX_CONVERT_FILE_BYTES, accept: ['pdf', 'png', 'jpeg', 'tiff'] };

/** Clients and proxies wait at least 600 s (README, Scaling); the job ends before they give up. */
const CONVERT_TIMEOUT_MS = 590_000;

export interface ConvertedInvoice extends Omit<ConvertToZugferdResult, 'pdfBlobKey'> {
  pdf: Buffer;
  /** `<name>-zugferd.pdf`. */
  fileName: string;
}

/**
 * createZugferdFromPdf: an invoice PDF or scan → a validated ZUGFeRD PDF/A-3, or a refusal whose
 * details (fields, rule codes, the owner's language and text) say what to fix.
 * `fileName` is the input's name, already made safe (src/files/names.ts).
 */
export async function convertPdfToZugferd(deps: JobDeps, job: Job, order: { file: Buffer; fileName: string }): Promise<ConvertedInvoice> {
  try {
    const converted = await convert(deps, job, order);
    conversions.inc({ outcome: 'converted', via: job.source.kind });
    return converted;
  } catch (err) {
    conversions.inc({ outcome: err instanceof JobRefusal ? err.code : 'INTERNAL_ERROR', via: job.source.kind });
    if (!(err instanceof JobRefusal) || !REVIEWABLE.has(err.code)) throw err;
    // Refused after the analysis: the file passed the checks, so its type is known.
    const file = { bytes: order.file, fileType: checkFile(order.file, CONVERTIBLE, deps.limits), fileName: order.fileName };
    throw await queueApiRefusal(deps, job, err, file);
  }
}

async function convert(deps: JobDeps, job: Job, order: { file: Buffer; fileName: string }): Promise<ConvertedInvoice> {
  const fileType = checkFile(order.file, CONVERTIBLE, deps.limits);
  if (fileType === 'pdf' && isEncryptedPdf(order.file)) {
    throw new JobRefusal('PDF_ENCRYPTED', { stage: 'input', detail: 'The PDF declares encryption (/Encrypt in its trailer).' });
  }
  const fileName = zugferdFileName(order.fileName);
  const { pdfBlobKey, ...result } = await runWorkflow(deps, job, convertOperation, {
    input: async () => ({ fileBlobKey: (await deps.blobs.put(order.file)).key, fileType, fileName }),
    summary: `ZUGFeRD from ${fileType.toUpperCase()}`,
    timeoutMs: CONVERT_TIMEOUT_MS,
  });
  return { ...result, pdf: await deps.blobs.get(pdfBlobKey), fileName };
}
