import { Context } from '@temporalio/activity';
import type { BlobStorage } from '../src/storage/blob-storage.js';

/**
 * What makes a retried activity harmless: it writes what it makes under keys derived from its
 * workflow step and the content (a second run of the step finds its bytes there and writes
 * nothing), and a document it builds carries a time that every run of the step shares.
 */

/** The blob store as the running activity writes to it. */
export function stepBlobs(blobs: BlobStorage): BlobStorage {
  const { workflowExecution, activityId } = Context.current().info;
  return blobs.scoped(`${workflowExecution?.workflowId ?? 'activity'}/${activityId}`);
}

/**
 * The creation time of a document built by the running activity: `fixed` (SOURCE_DATE_EPOCH:
 * reproducible builds) or the time the workflow first scheduled the step, which its retries share
 * (an ordinary activity's: a local one is scheduled anew when its workflow task moves to another worker).
 */
export function documentTime(fixed: Date | undefined): Date {
  return fixed ?? new Date(Context.current().info.scheduledTimestampMs);
}
