import { FILE, OPERATION, OUTCOME, ROUTE } from '../../temporal/search-attributes.js';
import { watchRouteOperation } from '../../../connectors/watch-operation.js';
import type { WorkflowExecutionInfo } from '@temporalio/client';
import type { JobDeps } from './run-workflow.js';
import type { Account } from '../intake/job.js';
import { workflowsOfAccount } from './visibility.js';

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
  // The route watchers run for the whole installation, not for an account's file.
  const jobs = await workflowsOfAccount(deps, account, `EinvoiceOperation != "${watchRouteOperation.name}"`, {
    limit,
    what: 'the jobs',
    map: recentJob,
  });
  // Temporal lists the newest first; the page wants them by start even where a store orders by close.
  return jobs.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

function recentJob(wf: WorkflowExecutionInfo): RecentJob {
  const attrs = wf.typedSearchAttributes;
  const operation = attrs.get(OPERATION) ?? wf.type;
  const outcome = attrs.get(OUTCOME);
  const route = attrs.get(ROUTE);
  const file = attrs.get(FILE);
  return {
    workflowId: wf.workflowId,
    operation,
    status: wf.status.name,
    ...(outcome ? { outcome } : {}),
    ...(route ? { route } : {}),
    ...(file ? { file } : {}),
    startedAt: wf.startTime.toISOString(),
    ...(wf.closeTime ? { closedAt: wf.closeTime.toISOString() } : {}),
  };
}
