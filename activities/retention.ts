import type { RetentionReport } from '../src/operations/retention.js';
import { applyRetention } from '../src/storage/retention.js';
import type { ActivityDeps } from './deps.js';

export function retentionActivities({ blobs, storage, log }: ActivityDeps) {
  return {
    /** One pass of src/storage/retention.ts; safe to repeat. */
    async applyRetention(): Promise<RetentionReport> {
      const report = await applyRetention(storage, blobs);
      log.info({ removed: report }, 'retention applied');
      return report;
    },
  };
}
