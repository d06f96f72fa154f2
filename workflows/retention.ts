import { setCurrentDetails } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { RetentionReport } from '../src/storage/retention.js';
import { HOUSEKEEPING, proxySteps } from './activity-profiles.js';

const { applyRetention } = proxySteps<Activities>(HOUSEKEEPING);

/** Started every hour by the `retention` Schedule (src/temporal/schedules.ts): forgets what the service promises to forget. */
export async function retention(): Promise<RetentionReport> {
  const report = await applyRetention();
  setCurrentDetails(
    `removed ${report.idempotencyKeys} idempotency keys, ${report.documents} expired documents, ${report.drafts} stored messages, ${report.blobs} unreferenced files`,
  );
  return report;
}
