import {
  ActivityFailure,
  ApplicationFailure,
  WorkflowExecutionAlreadyStartedError,
  WorkflowFailedError,
  WorkflowNotFoundError,
  type WorkflowHandle,
  type WorkflowStartOptions,
  type Client,
} from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import { ACCOUNT, FILE, OPERATION, OUTCOME, ROUTE } from '../../temporal/search-attributes.js';
import type { RefusalDetails } from '../contracts.js';
import { jobContext, jobId, type IntakeDeps, type Job, type KeyedRun } from '../intake/job.js';
import { isRefusalCode, JobRefusal } from '../intake/refusal.js';

/** What the submit functions use; built once at start, shared by every entry point. */
export interface JobDeps extends IntakeDeps {
  temporal: Client;
  /** The client shares its connection with a worker of the workflows' queue in this process (src/service.ts). */
  eagerStart?: boolean;
  taskQueue: string;
  /** The longest a caller waits for a workflow (WORKFLOW_WAIT_SECONDS); unset: each operation's own limit. */
  maxWaitMs?: number;
}

type Input<W extends Workflow> = Omit<Parameters<W>[0], 'ctx'>;

export interface WorkflowRun<W extends Workflow> {
  /** Operation name; also the workflow id prefix and the EinvoiceOperation search attribute. */
  operation: string;
  /**
   * The workflow's one input (the job adds its context), or the staging that makes it: a keyed
   * request that finds its workflow running or done stages nothing.
   */
  input: Input<W> | (() => Promise<Input<W>>);
  /** One line shown in the Temporal UI; no personal data. */
  summary: string;
  timeoutMs?: number;
  /** Names the workflow (an async job id); default `<operation>-<job id>`. */
  workflowId?: string;
}

/** A run whose input is staged already. */
export type StagedRun<W extends Workflow> = WorkflowRun<W> & { input: Input<W> };

/**
 * Starts one job's workflow with its search attributes, summary and memo. The id is
 * `<operation>-<job id>` unless the caller names it, so the reference of an answer
 * leads to it in the Temporal UI.
 */
export async function startWorkflow<W extends Workflow>(
  deps: JobDeps,
  job: Job,
  workflow: W,
  run: WorkflowRun<W>,
  policies: Partial<WorkflowStartOptions> = {},
): Promise<WorkflowHandle<W>> {
  const ctx = jobContext(job, jobId(job.source));
  const workflowId = run.workflowId ?? `${run.operation}-${ctx.requestId}`;
  const input = typeof run.input === 'function' ? await run.input() : run.input;
  try {
    const options = {
      ...policies,
      taskQueue: deps.taskQueue,
      requestEagerStart: deps.eagerStart ?? false,
      workflowId,
      args: [{ ctx, ...input }],
      typedSearchAttributes: [
        { key: OPERATION, value: run.operation },
        { key: ACCOUNT, value: job.account.accountId },
        { key: OUTCOME, value: 'running' },
        ...(job.source.kind === 'connector'
          ? [
              { key: ROUTE, value: job.source.route },
              { key: FILE, value: job.source.file },
            ]
          : []),
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

/**
 * A keyed request's workflow: a running one is joined, a completed one answered from, a failed
 * one (or none) started afresh. Temporal decides among concurrent starts, so however many
 * retries arrive, through however many API processes, the work runs once per key.
 */
const KEYED_POLICIES: Partial<WorkflowStartOptions> = {
  workflowIdConflictPolicy: 'USE_EXISTING',
  workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
};

/** Runs one job's workflow (a keyed request's: joins it) and waits for its result. */
export async function runWorkflow<W extends Workflow>(
  deps: JobDeps,
  job: Job,
  workflow: W,
  run: WorkflowRun<W>,
): Promise<Awaited<ReturnType<W>>> {
  const timeoutMs = Math.min(run.timeoutMs ?? 120_000, deps.maxWaitMs ?? Infinity);
  if (!job.keyed) return awaitResult(await startWorkflow(deps, job, workflow, run), timeoutMs, 'UPSTREAM_TIMEOUT');
  const { handle, joined } = await keyedWorkflow(deps, job, job.keyed, workflow, run);
  const result = await awaitResult(handle, timeoutMs, joined ? 'IDEMPOTENCY_IN_PROGRESS' : 'UPSTREAM_TIMEOUT');
  job.keyed.answered = true;
  return result;
}

async function keyedWorkflow<W extends Workflow>(
  deps: JobDeps,
  job: Job,
  keyed: KeyedRun,
  workflow: W,
  run: WorkflowRun<W>,
): Promise<{ handle: WorkflowHandle<W>; joined: boolean }> {
  const workflowId = `${run.operation}-key-${keyed.id}`;
  const existing = deps.temporal.workflow.getHandle<W>(workflowId);
  const status = await existing.describe().then(
    (d) => d.status.name,
    (err: unknown) => {
      if (err instanceof WorkflowNotFoundError) return undefined;
      throw new JobRefusal('SERVICE_UNAVAILABLE', {
        detail: `Could not ask Temporal for workflow ${workflowId}: ${(err as Error).message}`,
        cause: err,
      });
    },
  );
  if (status === 'RUNNING' || status === 'COMPLETED') {
    job.log.info({ workflowId, status }, 'Idempotency-Key: joining its workflow');
    return { handle: existing, joined: true };
  }
  try {
    return { handle: await startWorkflow(deps, job, workflow, { ...run, workflowId }, KEYED_POLICIES), joined: false };
  } catch (err) {
    // Completed between the look and the start: its result is the answer.
    if (err instanceof WorkflowExecutionAlreadyStartedError) return { handle: existing, joined: true };
    throw err;
  }
}

async function awaitResult<W extends Workflow>(
  handle: WorkflowHandle<W>,
  timeoutMs: number,
  onTimeout: 'UPSTREAM_TIMEOUT' | 'IDEMPOTENCY_IN_PROGRESS',
): Promise<Awaited<ReturnType<W>>> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new JobRefusal(onTimeout, { detail: `Workflow ${handle.workflowId} did not finish within ${timeoutMs / 1000} s; it goes on.` }),
        ),
      timeoutMs,
    );
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
      if (cause.type && isRefusalCode(cause.type))
        return new JobRefusal(cause.type, {
          detail: cause.message,
          ...(stage ? { stage } : {}),
          ...(details ? { details } : {}),
          cause: err,
        });
    }
    cause = (cause as { cause?: unknown }).cause;
  }
  return new JobRefusal('INTERNAL_ERROR', {
    ...(stage ? { stage } : {}),
    detail: err.message,
    ...(details ? { details } : {}),
    cause: err,
  });
}
