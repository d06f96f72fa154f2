import { CancellationScope } from '@temporalio/workflow';
import { analyseOperation, type AnalyseDocumentInput, type DocumentAnalysis } from '../src/operations/analysis.js';
import { finish, recordingFailure } from './outcome.js';
import { stepsOf } from './steps.js';

const { analyseDocument, discardBlobs } = stepsOf(analyseOperation.steps);

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
