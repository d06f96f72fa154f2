import { defineOperation } from './operation.js';
import { HOUSEKEEPING } from './steps.js';

/** What one retention pass forgot. */
export interface RetentionReport {
  idempotencyKeys: number;
  documents: number;
  drafts: number;
  blobs: number;
}

/** Started every hour by a Temporal Schedule (src/temporal/schedules.ts); takes no input. */
export const retentionOperation = defineOperation<void, RetentionReport>()({
  name: 'retention',
  workflowType: 'retention',
  steps: { applyRetention: HOUSEKEEPING },
});
