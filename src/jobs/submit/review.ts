import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { correctInvoice, reviewEntry } from '../../../workflows/review.js';
import { REVIEWABLE, reviewOperation, type Correction, type CorrectionAnswer, type ReviewEntry } from '../../operations/review.js';
import { ACCOUNT, FILE, OUTCOME, ROUTE } from '../../temporal/search-attributes.js';
import type { FileType } from '../../files/file-type.js';
import { invoicePlaceholders } from '../../mail/placeholders.js';
import type { MailResult, TransportOrder } from '../../mail/schema.js';
import { prepareMail } from '../intake/mail.js';
import { jobId, type Account, type Job } from '../intake/job.js';
import { JobRefusal } from '../intake/refusal.js';
import { startWorkflow, type JobDeps } from './run-workflow.js';
import { countOfAccount, workflowsOfAccount } from './visibility.js';

/**
 * The review queue of an account: its refused conversions waiting for a person
 * (workflows/review.ts), read from Temporal's visibility store, each answered by its workflow.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** An entry is in the queue from when its file has been read again until it is created or dropped. */
const WAITING = 'ExecutionStatus = "Running" AND EinvoiceOutcome = "awaiting-review"';

export interface QueuedReview {
  id: string;
  route?: string;
  file?: string;
  /** When it entered the queue (ISO). */
  since: string;
}

export async function reviewQueue(deps: JobDeps, account: Account, limit: number): Promise<QueuedReview[]> {
  const queue = await workflowsOfAccount(deps, account, `EinvoiceOperation = "${reviewOperation.name}" AND ${WAITING}`, {
    limit,
    what: 'the review queue',
    map: (wf): QueuedReview => {
      const [route, file] = [wf.typedSearchAttributes.get(ROUTE), wf.typedSearchAttributes.get(FILE)];
      return { id: wf.workflowId, ...(route ? { route } : {}), ...(file ? { file } : {}), since: wf.startTime.toISOString() };
    },
  });
  // Oldest first: the queue is worked through in the order it filled.
  return queue.sort((a, b) => a.since.localeCompare(b.since));
}

/** What the queue's people did lately: the e-invoices they created from it, and the time a review took. */
export interface ReviewStats {
  /** Entries created in the last 30 days. */
  created: number;
  /** The median time from opening an entry to creating it, where the page measured it, over the newest 200. */
  medianSeconds?: number;
}

const STATS_DAYS = 30;

/** The median is taken over the newest reviews only: the queue's page asks for the statistics every time it loads. */
const STATS_SAMPLE = 200;

export async function reviewStats(deps: JobDeps, account: Account, now = Date.now()): Promise<ReviewStats> {
  const since = new Date(now - STATS_DAYS * DAY_MS).toISOString();
  const clauses = `EinvoiceOperation = "${reviewOperation.name}" AND EinvoiceOutcome = "valid" AND CloseTime > "${since}"`;
  const [counted, sampled] = await Promise.all([
    countOfAccount(deps, account, clauses, 'the reviews'),
    workflowsOfAccount(deps, account, clauses, { limit: STATS_SAMPLE, what: 'the reviews', map: (wf) => wf.memo?.reviewSeconds }),
  ]);
  const seconds = sampled.filter((s): s is number => typeof s === 'number');
  return { created: counted, ...(seconds.length ? { medianSeconds: median(seconds) } : {}) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** One entry: what was read and why it was refused. NOT_FOUND for an id of another account or one handled already. */
export async function reviewOf(deps: JobDeps, account: Account, id: string): Promise<ReviewEntry> {
  const handle = await waitingReview(deps, account, id);
  return handle.query(reviewEntry);
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  tiff: 'image/tiff',
};

/** The entry's file as it was dropped, for a person to see beside the values read. */
export async function reviewFile(
  deps: JobDeps,
  account: Account,
  id: string,
): Promise<{ bytes: Buffer; fileName: string; contentType: string }> {
  const entry = await reviewOf(deps, account, id);
  const bytes = await deps.blobs.get(entry.fileBlobKey);
  return { bytes, fileName: entry.fileName, contentType: CONTENT_TYPES[entry.fileType] ?? 'application/octet-stream' };
}

/**
 * A person's corrected invoice: answers the created document, or why it is refused again (the
 * entry stays). REVIEW_CLOSED while another correction of it is being built, or once it is created.
 */
export async function correctReview(
  deps: JobDeps,
  account: Account,
  id: string,
  order: Omit<Correction, 'mail'> & { transport?: TransportOrder },
): Promise<CorrectionAnswer & { transport?: MailResult }> {
  const handle = await waitingReview(deps, account, id);
  const { transport, ...correction } = order;
  const mail = await prepareMail(deps, account, transport, invoicePlaceholders(correction.invoice));
  try {
    const staged = await mail.stage();
    const answer = await handle.executeUpdate(correctInvoice, { args: [{ ...correction, ...(staged ? { mail: staged } : {}) }] });
    if (!answer.created) return answer;
    const result = await mail.result(answer.mail);
    return { ...answer, ...(result ? { transport: result } : {}) };
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError)
      throw new JobRefusal('REVIEW_CLOSED', { detail: err.cause?.message ?? err.message, cause: err });
    // Created and filed by another correction since it was looked up.
    if (err instanceof WorkflowNotFoundError)
      throw new JobRefusal('REVIEW_CLOSED', { detail: 'The entry is no longer waiting.', cause: err });
    throw err;
  }
}

async function waitingReview(deps: JobDeps, account: Account, id: string) {
  const notFound = () => new JobRefusal('NOT_FOUND', { detail: 'No review of that id waits for this account.' });
  if (!id.startsWith('review-')) throw notFound();
  const handle = deps.temporal.workflow.getHandle(id);
  try {
    const described = await handle.describe();
    const attrs = described.typedSearchAttributes;
    const waiting = described.status.name === 'RUNNING' && attrs.get(OUTCOME) === 'awaiting-review';
    if (attrs.get(ACCOUNT) !== account.accountId || !waiting) throw notFound();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw notFound();
    throw err;
  }
  return handle;
}

/** How long a refused API conversion waits in the queue; its upload is kept as long. */
export const API_REVIEW_DAYS = 30;

/**
 * A refused createZugferdFromPdf of the account's own API call enters its review queue, where the
 * account chose so (`accounts.js review-api-refusals --on`): the upload is kept for the entry and
 * the refusal says where it waits. Any other refusal, or an account that did not choose it, is
 * answered as it is.
 */
export async function queueApiRefusal(
  deps: JobDeps,
  job: Job,
  refusal: JobRefusal,
  file: { bytes: Buffer; fileType: FileType; fileName: string },
): Promise<JobRefusal> {
  if (!REVIEWABLE.has(refusal.code) || !(await deps.storage.reviews.ofApi(job.account.accountId))) return refusal;
  const workflowId = `review-${jobId(job.source)}`;
  const { key } = await deps.blobs.put(file.bytes);
  const expiresAt = Date.now() + API_REVIEW_DAYS * DAY_MS;
  await deps.storage.reviews.keepFile({ reviewId: workflowId, accountId: job.account.accountId, blobKey: key, expiresAt });
  const { fields, details, userMessage } = refusal.options;
  const input = {
    origin: { kind: 'api' as const, fileName: file.fileName, fileType: file.fileType, fileBlobKey: key },
    refusal: {
      code: refusal.code,
      message: details?.userMessage ?? userMessage ?? refusal.message,
      ...((fields ?? details?.fields) ? { fields: fields ?? details?.fields } : {}),
    },
    keepDays: API_REVIEW_DAYS,
  };
  try {
    await startWorkflow(deps, job, reviewOperation, { input, summary: 'review of a refused conversion', workflowId });
  } catch (err) {
    // A retry of a keyed request: its entry is there already.
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  const where = `It waits in the review queue as ${workflowId} (/app/review, GET /api/v2/reviews/${workflowId}).`;
  return new JobRefusal(refusal.code, { ...refusal.options, detail: [refusal.options.detail, where].filter(Boolean).join(' ') });
}
