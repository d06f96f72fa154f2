import { setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import { OUTCOME, type Outcome } from '../src/temporal/search-attributes.js';

/**
 * How a workflow shows its end in the Temporal UI: the EinvoiceOutcome search
 * attribute and a one-line summary. Helpers, not workflow types: index.ts does
 * not re-export this module.
 */

/** A failed run is findable as such in the UI, not left looking 'running'. */
export async function recordingFailure<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (err) {
    finish('failed', `failed: ${err instanceof Error ? err.message : String(err)}`);
    throw err;
  }
}

export function finish(outcome: Outcome, details: string): void {
  upsertSearchAttributes([{ key: OUTCOME, value: outcome }]);
  setCurrentDetails(details);
}
