import type { WorkflowExecutionInfo } from '@temporalio/client';
import type { Account } from '../intake/job.js';
import { JobRefusal } from '../intake/refusal.js';
import type { JobDeps } from './run-workflow.js';

/**
 * An account's workflows that match `clauses` (a visibility query), as Temporal's visibility
 * store lists them, newest first, each mapped by `map`; at most `limit`. `what` names the list in
 * the refusal when Temporal does not answer.
 */
export async function workflowsOfAccount<T>(
  deps: JobDeps,
  account: Account,
  clauses: string,
  { limit, what, map }: { limit?: number; what: string; map: (wf: WorkflowExecutionInfo) => T },
): Promise<T[]> {
  const query = accountQuery(account, clauses);
  const found: T[] = [];
  try {
    for await (const wf of deps.temporal.workflow.list({ query, ...(limit ? { pageSize: limit } : {}) })) {
      found.push(map(wf));
      if (found.length === limit) break;
    }
  } catch (err) {
    throw new JobRefusal('SERVICE_UNAVAILABLE', { detail: `Temporal did not list ${what}: ${(err as Error).message}`, cause: err });
  }
  return found;
}

/** How many of the account's workflows match `clauses`, counted by the visibility store. */
export async function countOfAccount(deps: JobDeps, account: Account, clauses: string, what: string): Promise<number> {
  const query = accountQuery(account, clauses);
  try {
    return (await deps.temporal.workflow.count(query)).count;
  } catch (err) {
    throw new JobRefusal('SERVICE_UNAVAILABLE', { detail: `Temporal did not count ${what}: ${(err as Error).message}`, cause: err });
  }
}

function accountQuery(account: Account, clauses: string): string {
  // Account ids are opaque and ours (acc_…), but a quote in one would change the query: refuse rather than escape.
  if (!/^[\w-]+$/.test(account.accountId)) throw new Error(`unexpected account id ${account.accountId}`);
  return `EinvoiceAccount = "${account.accountId}" AND ${clauses}`;
}
