import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { correctInvoice, reviewEntry } from '../../../workflows/review.js';
import type { Invoice } from '../../invoice/model.js';
import { reviewOperation, type CorrectionAnswer, type ReviewEntry } from '../../operations/review.js';
import { ACCOUNT, FILE, OUTCOME, ROUTE } from '../../temporal/search-attributes.js';
import type { Account } from '../intake/job.js';
import { JobRefusal } from '../intake/refusal.js';
import type { JobDeps } from './run-workflow.js';

/**
 * The review queue of an account: its refused conversions waiting for a person
 * (workflows/review.ts), read from Temporal's visibility store, each answered by its workflow.
 */

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
  // Account ids are opaque and ours (acc_…), but a quote in one would change the query: refuse rather than escape.
  if (!/^[\w-]+$/.test(account.accountId)) throw new Error(`unexpected account id ${account.accountId}`);
  const query = `EinvoiceAccount = "${account.accountId}" AND EinvoiceOperation = "${reviewOperation.name}" AND ${WAITING}`;
  const queue: QueuedReview[] = [];
  try {
    for await (const wf of deps.temporal.workflow.list({ query, pageSize: limit })) {
      const [route, file] = [wf.typedSearchAttributes.get(ROUTE), wf.typedSearchAttributes.get(FILE)];
      queue.push({ id: wf.workflowId, ...(route ? { route } : {}), ...(file ? { file } : {}), since: wf.startTime.toISOString() });
      if (queue.length >= limit) break;
    }
  } catch (err) {
    throw new JobRefusal('SERVICE_UNAVAILABLE', {
      detail: `Temporal did not list the review queue: ${(err as Error).message}`,
      cause: err,
    });
  }
  // Oldest first: the queue is worked through in the order it filled.
  return queue.sort((a, b) => a.since.localeCompare(b.since));
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
export async function correctReview(deps: JobDeps, account: Account, id: string, invoice: Invoice): Promise<CorrectionAnswer> {
  const handle = await waitingReview(deps, account, id);
  try {
    return await handle.executeUpdate(correctInvoice, { args: [{ invoice }] });
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
