import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  defineQuery,
  defineUpdate,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import type { ConnectorActivities } from '../activities/connectors.js';
import { connectorFileOperation } from '../connectors/file-operation.js';
import type { RefusalDetails } from '../src/conversion/refusal-details.js';
import type { FileType } from '../src/files/file-type.js';
import type { DocumentAnalysis } from '../src/operations/analysis.js';
import { convertOperation, type ConvertToZugferdResult } from '../src/operations/convert.js';
import {
  reviewOperation,
  type Correction,
  type CorrectionAnswer,
  type CorrectionRefused,
  type ReviewConversionInput,
  type ReviewEntry,
  type ReviewOutcome,
} from '../src/operations/review.js';
import { createFromReading } from './convert.js';
import { deliverIfRequested } from './mail.js';
import { finish } from './outcome.js';
import { onSource, stepsOf } from './steps.js';

/** The entry as the queue shows it. */
export const reviewEntry = defineQuery<ReviewEntry>('reviewEntry');
/** A person's corrected invoice: answers the created document, or why it is refused again (the entry then stays). */
export const correctInvoice = defineUpdate<CorrectionAnswer, [Correction]>('correctInvoice');

const { analyseDocument, discardBlobs } = stepsOf(reviewOperation.steps);

/**
 * A refused conversion waiting for a person: the file is read again from the route's error
 * folder, and the entry answers what was read and why it was refused until a correction builds
 * a valid e-invoice, which is then filed as the route files any result (the input into done/, the
 * e-invoice and its report into the output folder). Unhandled, it ends after `keepDays` and the
 * file stays in error/.
 */
export async function reviewConversion(input: ReviewConversionInput): Promise<ReviewOutcome> {
  const { ctx } = input;
  const source = sourceSteps(input.activityQueue);
  const staged = await source.stageConnectorFile({ ctx, route: input.route, operation: convertOperation.name, file: input.file });
  const temporary = [staged.blobKey];
  try {
    const fileType = staged.kind as FileType;
    const analysis = await analyseDocument({ ctx, fileBlobKey: staged.blobKey, fileType, withLineItems: true });
    const entry: ReviewEntry = {
      route: input.route,
      fileName: input.file.name,
      fileType,
      since: new Date().toISOString(),
      refusal: input.refusal,
      analysis,
    };
    setHandler(reviewEntry, () => entry);
    const created = await correction(input, entry, analysis, { fileBlobKey: staged.blobKey, fileType }, temporary);
    if (!created) {
      finish('expired', `${input.file.name}: not reviewed within ${input.keepDays} days, left in the error folder`);
      return { status: 'expired' };
    }
    return await deliver(input, created);
  } finally {
    await CancellationScope.nonCancellable(() => discardBlobs({ ctx, keys: [...new Set(temporary)] }));
  }
}

/** Waits for a correction that builds a valid e-invoice, one at a time; undefined when none came in time. */
async function correction(
  input: ReviewConversionInput,
  entry: ReviewEntry,
  analysis: DocumentAnalysis,
  file: { fileBlobKey: string; fileType: FileType },
  temporary: string[],
): Promise<ConvertToZugferdResult | undefined> {
  let created: ConvertToZugferdResult | undefined;
  let building = false;
  setHandler(
    correctInvoice,
    async ({ invoice }) => {
      building = true;
      try {
        // The person's values stand as confirmed: no confidence holds them back, the cross-checks and sums still apply.
        const reading = { invoice, source: analysis.source, extractionConfidence: 1, pageCount: analysis.pageCount };
        created = await createFromReading(
          { ctx: input.ctx, ...file, fileName: input.file.name },
          {
            ...reading,
            ...(analysis.unread ? { unread: analysis.unread } : {}),
            ...(analysis.language ? { language: analysis.language } : {}),
          },
          temporary,
        );
        return { created: true, documentId: created.documentId };
      } catch (err) {
        entry.lastAttempt = refusedAgain(err);
        return entry.lastAttempt;
      } finally {
        building = false;
      }
    },
    {
      validator: (_correction: Correction) => {
        if (created) throw new Error('This invoice has been created already.');
        if (building) throw new Error('A correction of this invoice is being built.');
      },
    },
  );
  finish('awaiting-review', `${input.file.name}: ${input.refusal.code}, waiting for a person`);
  return (await condition(() => created !== undefined, `${input.keepDays} days`)) ? created : undefined;
}

/** Where the refused file's result would have gone: the route's output, the input into done/, its e-mail. */
async function deliver(input: ReviewConversionInput, created: ConvertToZugferdResult): Promise<ReviewOutcome> {
  const { mail: request, ...filed } = await sourceSteps(input.activityQueue).fileConnectorResult({
    ctx: input.ctx,
    route: input.route,
    operation: convertOperation.name,
    file: input.file,
    outcome: { kind: 'done', resultBlobKey: created.pdfBlobKey, filled: created.filled },
    finishedAt: new Date().toISOString(),
    reviewedAfter: input.refusal.code,
  });
  if (request && request !== 'not-allowed') await deliverIfRequested(input.ctx, request);
  finish('valid', `${input.file.name} → ${filed.resultPath ?? filed.reportPath}, after review`);
  return {
    status: 'created',
    documentId: created.documentId,
    inputPath: filed.inputPath,
    ...(filed.resultPath ? { resultPath: filed.resultPath } : {}),
  };
}

/** The route's source steps, on the connectors' queue. */
function sourceSteps(queue: string) {
  const { steps } = connectorFileOperation;
  const { stageConnectorFile } = proxyActivities<ConnectorActivities>(onSource(steps.stageConnectorFile, queue));
  const { fileConnectorResult } = proxyActivities<ConnectorActivities>(onSource(steps.fileConnectorResult, queue));
  return { stageConnectorFile, fileConnectorResult };
}

/** A correction's refusal (a step's non-retryable failure), as the person reads it; anything else fails the update. */
function refusedAgain(err: unknown): CorrectionRefused {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (!(cause instanceof ApplicationFailure)) throw err;
  const details = cause.details?.[0] as RefusalDetails | undefined;
  return {
    created: false,
    code: cause.type ?? 'INTERNAL_ERROR',
    message: details?.userMessage ?? cause.message,
    ...(details?.fields ? { fields: details.fields } : {}),
    ...(details?.ruleCodes ? { ruleCodes: details.ruleCodes } : {}),
  };
}
