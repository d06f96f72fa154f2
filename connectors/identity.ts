import { createHash } from 'node:crypto';

/**
 * A file's identity on a route is its content: the job layer names the file's workflow after the
 * route and this hash (src/jobs/intake/job.ts jobId), and the ledger keys on it, so the same invoice
 * dropped twice, seen by a second replica or found again after a crash is one job.
 */
export function contentHash(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 32);
}
