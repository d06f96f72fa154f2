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
import type { RefusalDetails } from '../../conversion/refusal-details.js';
import type { InputOf, Operation, OutputOf, WorkflowOf } from '../../operations/operation.js';
import { startAttributes } from '../../temporal/search-attributes.js';
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

type Input<O extends Operation> = Omit<InputOf<O>, 'ctx'>;

/** How a job runs its operation's workflow; the operation's name is the workflow id prefix and the EinvoiceOperation search attribute. */
export interface WorkflowRun<O extends Operation> {
  /**
   * The workflow's one input (the job adds its context), or the staging that makes it: a keyed
   * request that finds its workflow running or done stages nothing.
   */
  input: Input<O> | (() => Promise<Input<O>>);
  /** One line shown in the Temporal UI; no personal data. */
  summary: string;
  timeoutMs?: number;
  /** Names the workflow (an async job id); default `<operation>-<job id>`. */
  workflowId?: string;
}

/** A run whose input is staged already. */
export type StagedRun<O extends Operation> = WorkflowRun<O> & { input: Input<O> };

/**
 * Starts one job's workflow, by its type's name, with its search attributes, summary and memo.
 * The id is `<operation>-<job id>` unless the caller names it, so the reference of an answer
 * leads to it in the Temporal UI.
 */
export async function startWorkflow<O extends Operation>(
  deps: JobDeps,
  job: Job,
  operation: O,
  run: WorkflowRun<O>,
  policies: Partial<WorkflowStartOptions> = {},
): Promise<WorkflowHandle<WorkflowOf<O>>> {
  const ctx = jobContext(job, jobId(job.source));
  const workflowId = run.workflowId ?? `${operation.name}-${ctx.requestId}`;
  const input = typeof run.input === 'function' ? await run.input() : run.input;
  try {
    const options = {
      ...policies,
      taskQueue: deps.taskQueue,
      requestEagerStart: deps.eagerStart ?? false,
      workflowId,
      args: [{ ctx, ...input }],
      typedSearchAttributes: startAttributes(
        operation.name,
        job.account.accountId,
        job.source.kind === 'connector' ? { route: job.source.route, name: job.source.file } : undefined,
      ),
      staticSummary: run.summary,
      memo: { requestId: ctx.requestId },
    } as unknown as WorkflowStartOptions<WorkflowOf<O>>; // the SDK's conditional args type does not resolve for a generic O
    const handle = await deps.temporal.workflow.start<WorkflowOf<O>>(operation.workflowType, options);
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
export async function runWorkflow<O extends Operation>(deps: JobDeps, job: Job, operation: O, run: WorkflowRun<O>): Promise<OutputOf<O>> {
  const timeoutMs = Math.min(run.timeoutMs ?? 120_000, deps.maxWaitMs ?? Infinity);
  if (!job.keyed) return awaitResult(await startWorkflow(deps, job, operation, run), timeoutMs, 'UPSTREAM_TIMEOUT');
  const { handle, joined } = await keyedWorkflow(deps, job, job.keyed, operation, run);
  const result = await awaitResult(handle, timeoutMs, joined ? 'IDEMPOTENCY_IN_PROGRESS' : 'UPSTREAM_TIMEOUT');
  job.keyed.answered = true;
  return result;
}

async function keyedWorkflow<O extends Operation>(
  deps: JobDeps,
  job: Job,
  keyed: KeyedRun,
  operation: O,
  run: WorkflowRun<O>,
): Promise<{ handle: WorkflowHandle<WorkflowOf<O>>; joined: boolean }> {
  const workflowId = `${operation.name}-key-${keyed.id}`;
  const existing = deps.temporal.workflow.getHandle<WorkflowOf<O>>(workflowId);
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
    return { handle: await startWorkflow(deps, job, operation, { ...run, workflowId }, KEYED_POLICIES), joined: false };
  } catch (err) {
    // Completed between the look and the start: its result is the answer.
    if (err instanceof WorkflowExecutionAlreadyStartedError) return { handle: existing, joined: true };
    throw err;
  }
}

async function awaitResult<O extends Operation>(
  handle: WorkflowHandle<WorkflowOf<O>>,
  timeoutMs: number,
  onTimeout: 'UPSTREAM_TIMEOUT' | 'IDEMPOTENCY_IN_PROGRESS',
): Promise<OutputOf<O>> {
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
    return (await Promise.race([handle.result(), timeout])) as OutputOf<O>;
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
