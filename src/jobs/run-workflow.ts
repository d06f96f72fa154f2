import { ActivityFailure, ApplicationFailure, WorkflowExecutionAlreadyStartedError, WorkflowFailedError, type WorkflowHandleWithFirstExecutionRunId, type WorkflowStartOptions } from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import { ACCOUNT, FILE, OPERATION, OUTCOME, ROUTE } from '../temporal/search-attributes.js';
import type { RefusalDetails } from './contracts.js';
import { jobContext, jobId, type Job, type JobDeps } from './job.js';
import { isRefusalCode, JobRefusal } from './refusal.js';

export interface WorkflowRun<W extends Workflow> {
  /** Operation name; also the workflow id prefix and the EinvoiceOperation search attribute. */
  operation: string;
  /** The workflow's one input; the job adds its context. */
  input: Omit<Parameters<W>[0], 'ctx'>;
  /** One line shown in the Temporal UI; no personal data. */
  summary: string;
  timeoutMs?: number;
  /** Names the workflow (an async job id); default `<operation>-<job id>`. */
  workflowId?: string;
}

/**
 * Starts one job's workflow with its search attributes, summary and memo. The id is
 * `<operation>-<job id>` unless the caller names it, so the reference of an answer
 * leads to it in the Temporal UI.
 */
export async function startWorkflow<W extends Workflow>(deps: JobDeps, job: Job, workflow: W, run: WorkflowRun<W>): Promise<WorkflowHandleWithFirstExecutionRunId<W>> {
  const ctx = jobContext(job, jobId(job.source));
  const workflowId = run.workflowId ?? `${run.operation}-${ctx.requestId}`;
  try {
    const options = {
      taskQueue: deps.taskQueue,
      workflowId,
      args: [{ ctx, ...run.input }],
      typedSearchAttributes: [
        { key: OPERATION, value: run.operation },
        { key: ACCOUNT, value: job.account.accountId },
        { key: OUTCOME, value: 'running' },
        ...(job.source.kind === 'connector' ? [{ key: ROUTE, value: job.source.route }, { key: FILE, value: job.source.file }] : []),
      ],
      staticSummary: run.summary,
      memo: { requestId: ctx.requestId },
    } as unknown as WorkflowStartOptions<W>; // the SDK's conditional args type does not resolve for a generic W
    const handle = await deps.temporal.workflow.start(workflow, options);
    job.log.debug({ workflowId }, 'workflow started');
    return handle;
  } catch (err) {
    // The same job started before: whoever starts it again decides (a connector's file is then under way already).
    if (err instanceof WorkflowExecutionAlreadyStartedError) throw err;
    throw new JobRefusal('SERVICE_UNAVAILABLE', { detail: `Could not start the workflow: ${(err as Error).message}`, cause: err });
  }
}

/** Runs one job's workflow and waits for its result. */
export async function runWorkflow<W extends Workflow>(deps: JobDeps, job: Job, workflow: W, run: WorkflowRun<W>): Promise<Awaited<ReturnType<W>>> {
  const handle = await startWorkflow(deps, job, workflow, run);
  const timeoutMs = run.timeoutMs ?? 120_000;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new JobRefusal('UPSTREAM_TIMEOUT', { detail: `Workflow ${handle.workflowId} did not finish within ${timeoutMs / 1000} s.` })), timeoutMs);
  });
  try {
    return (await Promise.race([handle.result(), timeout])) as Awaited<ReturnType<W>>;
  } catch (err) {
    throw toRefusal(err);
  } finally {
    clearTimeout(timer);
  }
}

/** An activity's or workflow's ApplicationFailure whose type is a refusal code becomes that refusal, with the step and details. */
export function toRefusal(err: unknown): JobRefusal {
  if (err instanceof JobRefusal) return err;
  if (!(err instanceof WorkflowFailedError)) return new JobRefusal('INTERNAL_ERROR', { cause: err });
  let stage: string | undefined;
  let details: RefusalDetails | undefined;
  let cause: unknown = err.cause;
  while (cause) {
    if (cause instanceof ActivityFailure) stage = cause.activityType;
    if (cause instanceof ApplicationFailure) {
      details ??= typeof cause.details?.[0] === 'object' && cause.details[0] !== null ? (cause.details[0] as RefusalDetails) : undefined;
      if (cause.type && isRefusalCode(cause.type)) return new JobRefusal(cause.type, { detail: cause.message, ...(stage ? { stage } : {}), ...(details ? { details } : {}), cause: err });
    }
    cause = (cause as { cause?: unknown }).cause;
  }
  return new JobRefusal('INTERNAL_ERROR', { ...(stage ? { stage } : {}), detail: err.message, ...(details ? { details } : {}), cause: err });
}
