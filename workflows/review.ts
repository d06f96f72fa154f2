import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  defineQuery,
  defineUpdate,
  proxyActivities,
  setHandler,
  upsertMemo,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { ConnectorActivities } from '../activities/connectors.js';
import { connectorFileOperation } from '../connectors/file-operation.js';
import type { RefusalDetails } from '../src/conversion/refusal-details.js';
import type { Invoice } from '../src/invoice/model.js';
import type { FileType } from '../src/files/file-type.js';
import { zugferdFileName } from '../src/files/names.js';
import { convertOperation, type ConvertToZugferdResult } from '../src/operations/convert.js';
import {
  reviewOperation,
  type Correction,
  type CorrectionAnswer,
  type CorrectionRefused,
  type ReviewConversionInput,
  type ReviewEntry,
  type ReviewOrigin,
  type ReviewOutcome,
} from '../src/operations/review.js';
import type { RequestContext } from '../src/operations/context.js';
import { OUTCOME } from '../src/temporal/search-attributes.js';
import { createFromReading } from './convert.js';
import { deliverIfRequested } from './mail.js';
import { finish } from './outcome.js';
import { onSource, stepsOf } from './steps.js';

/** The entry as the queue shows it. */
export const reviewEntry = defineQuery<ReviewEntry>('reviewEntry');
/** A person's corrected invoice: answers the created document, or why it is refused again (the entry then stays). */
export const correctInvoice = defineUpdate<CorrectionAnswer, [Correction]>('correctInvoice');

const { analyseDocument, discardBlobs, keepLabelledExample } = stepsOf(reviewOperation.steps);

/**
 * A refused conversion waiting for a person: the file is read again (a connector's from its
 * route's error folder), and the entry answers what was read and why it was refused until a
 * correction builds a valid e-invoice. A connector's is then filed as the route files any result
 * (the input into done/, the e-invoice and its report into the output folder); an API call's is a
 * stored document. Unhandled, it ends after `keepDays`, or once a connector's file has left the
 * error folder, and the file stays where it is.
 */
export async function reviewConversion(input: ReviewConversionInput): Promise<ReviewOutcome> {
  const temporary: string[] = [];
  try {
    const entry = await readAgain(input, temporary);
    setHandler(reviewEntry, () => entry);
    const review = takeCorrections(input, entry, temporary);
    finish('awaiting-review', `${entry.fileName}: ${input.refusal.code}, waiting for a person`);
    const ended = await waitForPerson(input, entry, review, temporary);
    const created = review.created();
    if (ended === 'created' && created) {
      const outcome = await deliver(input, created.result);
      await keepLabelledExample({
        ctx: input.ctx,
        reviewId: workflowInfo().workflowId,
        pdfBlobKey: created.result.pdfBlobKey,
        fileName: entry.fileName,
        read: entry.analysis.invoice,
        confirmed: created.invoice,
        ...(entry.analysis.fields ? { fields: entry.analysis.fields } : {}),
      });
      return outcome;
    }
    finish(
      'expired',
      ended === 'gone'
        ? `${entry.fileName} left the error folder unreviewed`
        : `${entry.fileName}: not reviewed within ${input.keepDays} days`,
    );
    return { status: 'expired' };
  } finally {
    await CancellationScope.nonCancellable(() => discardBlobs({ ctx: input.ctx, keys: [...new Set(temporary)] }));
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The file (a connector's from its error folder), read as the conversion read it. */
async function readAgain(input: ReviewConversionInput, temporary: string[]): Promise<ReviewEntry> {
  const { origin } = input;
  const file =
    origin.kind === 'connector' ? await stageAgain(input.ctx, origin, temporary) : { blobKey: origin.fileBlobKey, kind: origin.fileType };
  const fileType = file.kind as FileType;
  const analysis = await analyseDocument({ ctx: input.ctx, fileBlobKey: file.blobKey, fileType, withLineItems: true });
  return {
    origin: origin.kind,
    ...(origin.kind === 'connector' ? { route: origin.route } : {}),
    fileName: origin.kind === 'connector' ? origin.file.name : origin.fileName,
    fileType,
    fileBlobKey: file.blobKey,
    since: new Date().toISOString(),
    refusal: input.refusal,
    analysis,
  };
}

type ConnectorOrigin = Extract<ReviewOrigin, { kind: 'connector' }>;

async function stageAgain(ctx: RequestContext, origin: ConnectorOrigin, temporary: string[]) {
  const { stageConnectorFile } = sourceSteps(origin.activityQueue);
  const staged = await stageConnectorFile({ ctx, route: origin.route, operation: convertOperation.name, file: origin.file });
  temporary.push(staged.blobKey);
  return staged;
}

interface Corrections {
  /** The e-invoice a correction created, and the invoice the person confirmed. */
  created(): { result: ConvertToZugferdResult; invoice: Invoice } | undefined;
  building(): boolean;
}

/** Builds each correction a person sends, one at a time, from the file as last read. */
function takeCorrections(input: ReviewConversionInput, entry: ReviewEntry, temporary: string[]): Corrections {
  let created: { result: ConvertToZugferdResult; invoice: Invoice } | undefined;
  let building = false;
  const { analysis } = entry;
  setHandler(
    correctInvoice,
    async ({ invoice, seconds, mail: request }) => {
      building = true;
      try {
        // The person's values stand as confirmed: no confidence holds them back, the cross-checks and sums still apply.
        const reading = { invoice, source: analysis.source, extractionConfidence: 1, pageCount: analysis.pageCount };
        const result = await createFromReading(
          { ctx: input.ctx, fileBlobKey: entry.fileBlobKey, fileType: entry.fileType, fileName: zugferdFileName(entry.fileName) },
          {
            ...reading,
            ...(analysis.unread ? { unread: analysis.unread } : {}),
            ...(analysis.language ? { language: analysis.language } : {}),
          },
          temporary,
        );
        // Out of the queue at once: what is left is sending and filing it, which needs no person.
        upsertSearchAttributes([{ key: OUTCOME, value: 'running' }]);
        if (seconds !== undefined) upsertMemo({ reviewSeconds: seconds });
        const mail = await deliverIfRequested(input.ctx, request, result.documentId);
        // Only now: the workflow goes on to file it and ends, and an update must end before its workflow.
        created = { result, invoice };
        return { created: true, documentId: result.documentId, ...(mail ? { mail } : {}) };
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
  return { created: () => created, building: () => building };
}

/**
 * Until a correction builds, or `keepDays` pass. A connector's file is read again from the error
 * folder every day, because the blob store forgets what nothing refers to after 48 hours (README,
 * Guarantees; an API call's upload is kept for the entry, src/storage/review-files.ts); a file no
 * longer there was handled by other means.
 */
async function waitForPerson(
  input: ReviewConversionInput,
  entry: ReviewEntry,
  review: Corrections,
  temporary: string[],
): Promise<'created' | 'expired' | 'gone'> {
  const deadline = Date.now() + input.keepDays * DAY_MS;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) return 'expired';
    if (await condition(() => review.created() !== undefined, Math.min(left, DAY_MS))) return 'created';
    await condition(() => !review.building());
    if (review.created()) return 'created';
    if (deadline - Date.now() <= 0) return 'expired';
    if (input.origin.kind !== 'connector') continue;
    try {
      entry.fileBlobKey = (await stageAgain(input.ctx, input.origin, temporary)).blobKey;
    } catch (err) {
      if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure && err.cause.type === 'FILE_MISSING') return 'gone';
      throw err;
    }
  }
}

/**
 * Where the refused file's result would have gone: a route's output, the input into done/, its
 * e-mail; an API call's is the stored document, which the person's answer links to.
 */
async function deliver(input: ReviewConversionInput, created: ConvertToZugferdResult): Promise<ReviewOutcome> {
  const { origin } = input;
  if (origin.kind === 'api') {
    finish('valid', `${origin.fileName}: document ${created.documentId}, after review`);
    return { status: 'created', documentId: created.documentId };
  }
  const { mail: request, ...filed } = await sourceSteps(origin.activityQueue).fileConnectorResult({
    ctx: input.ctx,
    route: origin.route,
    operation: convertOperation.name,
    file: origin.file,
    outcome: { kind: 'done', resultBlobKey: created.pdfBlobKey, filled: created.filled },
    finishedAt: new Date().toISOString(),
    reviewedAfter: input.refusal.code,
  });
  if (request && request !== 'not-allowed') await deliverIfRequested(input.ctx, request);
  finish('valid', `${origin.file.name} → ${filed.resultPath ?? filed.reportPath}, after review`);
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
