import { createHash } from 'node:crypto';

/**
 * The workflow id of a file on a route: the route and the content's hash, so the same invoice
 * dropped twice (or seen again by a second replica, or after a crash) is one workflow. Temporal
 * refuses a second start with the same id while the first runs, and the ledger remembers it after
 * Temporal's retention has dropped the history.
 */
export function fileWorkflowId(route: string, content: Uint8Array): string {
  return `connector-${route}-${contentHash(content)}`;
}

export function contentHash(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 32);
}
