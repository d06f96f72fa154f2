import { FILE, OPERATION, OUTCOME, ROUTE } from '../../temporal/search-attributes.js';
import { watchRouteOperation } from '../../../connectors/watch-operation.js';
import type { JobDeps } from './run-workflow.js';
import type { Account } from '../intake/job.js';
import { JobRefusal } from '../intake/refusal.js';

/** What the page shows of an account's recent work: its workflows, newest first, from Temporal's visibility store. */
export interface RecentJob {
  workflowId: string;
  operation: string;
  /** Temporal's execution status: RUNNING, COMPLETED, FAILED, TIMED_OUT, … */
  status: string;
  /** EinvoiceOutcome: valid, invalid, failed, refused, sent, … */
  outcome?: string;
  /** A connector's route and the file's name, for connector files. */
  route?: string;
  file?: string;
  startedAt: string;
  closedAt?: string;
}

export async function recentJobs(deps: JobDeps, account: Account, limit: number): Promise<RecentJob[]> {
  // Account ids are opaque and ours (acc_…), but a quote in one would change the query: refuse rather than escape.
  if (!/^[\w-]+$/.test(account.accountId)) throw new Error(`unexpected account id ${account.accountId}`);
  const jobs: RecentJob[] = [];
  // The route watchers run for the whole installation, not for an account's file.
  const query = `EinvoiceAccount = "${account.accountId}" AND EinvoiceOperation != "${watchRouteOperation.name}"`;
  try {
    await listInto(deps, query, limit, jobs);
  } catch (err) {
    throw new JobRefusal('SERVICE_UNAVAILABLE', { detail: `Temporal did not list the jobs: ${(err as Error).message}`, cause: err });
  }
  // Temporal lists the newest first; the page wants them by start even where a store orders by close.
  return jobs.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

async function listInto(deps: JobDeps, query: string, limit: number, jobs: RecentJob[]): Promise<void> {
  for await (const wf of deps.temporal.workflow.list({ query, pageSize: limit })) {
    const attrs = wf.typedSearchAttributes;
    const operation = attrs.get(OPERATION) ?? wf.type;
    const outcome = attrs.get(OUTCOME);
    const route = attrs.get(ROUTE);
    const file = attrs.get(FILE);
    jobs.push({
      workflowId: wf.workflowId,
      operation,
      status: wf.status.name,
      ...(outcome ? { outcome } : {}),
      ...(route ? { route } : {}),
      ...(file ? { file } : {}),
      startedAt: wf.startTime.toISOString(),
      ...(wf.closeTime ? { closedAt: wf.closeTime.toISOString() } : {}),
    });
    if (jobs.length >= limit) break;
  }
}
