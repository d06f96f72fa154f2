import { CancellationScope } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { proxySteps, QUICK, READING } from './activity-profiles.js';
import type { AnalyseDocumentInput, DocumentAnalysis } from '../src/jobs/contracts.js';
import { finish, recordingFailure } from './outcome.js';

// Reading a document is seconds per page and may wait for a busy OCR worker;
// the activity heartbeats meanwhile, so a dead worker is noticed within a
// minute. A file that cannot be read fails for good (non-retryable failure
// from the activity); one more attempt covers a worker lost mid-way.
const { analyseDocument } = proxySteps<Activities>(READING);
const { discardBlobs } = proxySteps<Activities>(QUICK);

/**
 * createJSONFromAnalysedPdf (sync and async, V1 and V2): analyse the uploaded
 * file, then delete it. For async jobs the workflow id is the job id and this
 * result is what the status endpoint reports, for as long as the namespace
 * keeps closed workflows (24 hours).
 */
export async function analyseInvoiceFile(input: AnalyseDocumentInput): Promise<DocumentAnalysis> {
  try {
    return await recordingFailure(async () => {
      const analysis = await analyseDocument(input);
      finish('valid', `${analysis.pageCount} page(s) read (${analysis.source}), confidence ${analysis.extractionConfidence.toFixed(2)}`);
      return analysis;
    });
  } finally {
    await CancellationScope.nonCancellable(() => discardBlobs({ ctx: input.ctx, keys: [input.fileBlobKey] }));
  }
}
