import { setCurrentDetails } from '@temporalio/workflow';
import { retentionOperation, type RetentionReport } from '../src/operations/retention.js';
import { stepsOf } from './steps.js';

const { applyRetention } = stepsOf(retentionOperation.steps);

/** Started every hour by the `retention` Schedule (src/temporal/schedules.ts): forgets what the service promises to forget. */
export async function retention(): Promise<RetentionReport> {
  const report = await applyRetention();
  setCurrentDetails(
    `removed ${report.idempotencyKeys} idempotency keys, ${report.documents} expired documents, ${report.drafts} stored messages, ${report.blobs} unreferenced files`,
  );
  return report;
}
