import { ActivityFailure, ApplicationFailure, WorkflowFailedError, type Client, type WorkflowHandleWithFirstExecutionRunId, type WorkflowStartOptions } from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import { ACCOUNT, OPERATION, OUTCOME } from '../temporal/search-attributes.js';
import { ApiError, ERROR_CODES, type ErrorCode } from './errors.js';
import type { Principal, RequestInfo } from './route.js';

export interface RunOptions<W extends Workflow> {
  client: Client;
  taskQueue: string;
  /** API operation name; also the workflow id prefix and the EinvoiceOperation search attribute. */
  operation: string;
  principal: Principal;
  request: RequestInfo;
  args: Parameters<W>;
  /** One line shown in the Temporal UI; no personal data. */
  summary: string;
  timeoutMs?: number;
}

/**
 * Starts one request's workflow with its search attributes, summary and memo.
 * The id is `<operation>-<requestId>` unless the caller names it (an async job
 * id), so the `reference` of any answer leads to it in the Temporal UI.
 */
export async function startWorkflow<W extends Workflow>(workflow: W, opts: RunOptions<W> & { workflowId?: string }): Promise<WorkflowHandleWithFirstExecutionRunId<W>> {
  const workflowId = opts.workflowId ?? `${opts.operation}-${opts.request.requestId}`;
  try {
    const options = {
      taskQueue: opts.taskQueue,
      workflowId,
      args: opts.args,
      typedSearchAttributes: [
        { key: OPERATION, value: opts.operation },
        { key: ACCOUNT, value: opts.principal.accountId },
        { key: OUTCOME, value: 'running' },
      ],
      staticSummary: opts.summary,
      memo: { requestId: opts.request.requestId },
    } as unknown as WorkflowStartOptions<W>; // the SDK's conditional args type does not resolve for a generic W
    const handle = await opts.client.workflow.start(workflow, options);
    opts.request.log.debug({ workflowId }, 'workflow started');
    return handle;
  } catch (err) {
    throw new ApiError('SERVICE_UNAVAILABLE', { detail: `Could not start the workflow: ${(err as Error).message}`, cause: err });
  }
}

/** Runs one request's workflow and waits for its result. */
export async function runWorkflow<W extends Workflow>(workflow: W, opts: RunOptions<W>): Promise<Awaited<ReturnType<W>>> {
  const handle = await startWorkflow(workflow, opts);
  const timeoutMs = opts.timeoutMs ?? 120_000;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ApiError('UPSTREAM_TIMEOUT', { detail: `Workflow ${handle.workflowId} did not finish within ${timeoutMs / 1000} s.` })), timeoutMs);
  });
  try {
    return (await Promise.race([handle.result(), timeout])) as Awaited<ReturnType<W>>;
  } catch (err) {
    throw toApiError(err);
  } finally {
    clearTimeout(timer);
  }
}

/** An activity's ApplicationFailure whose type is one of our error codes becomes that API error. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (!(err instanceof WorkflowFailedError)) return new ApiError('INTERNAL_ERROR', { cause: err });
  let stage: string | undefined;
  let cause: unknown = err.cause;
  while (cause) {
    if (cause instanceof ActivityFailure) stage = cause.activityType;
    if (cause instanceof ApplicationFailure && cause.type && cause.type in ERROR_CODES) {
      return new ApiError(cause.type as ErrorCode, { detail: cause.message, ...(stage ? { stage } : {}), cause: err });
    }
    cause = (cause as { cause?: unknown }).cause;
  }
  return new ApiError('INTERNAL_ERROR', { ...(stage ? { stage } : {}), detail: err.message, cause: err });
}
