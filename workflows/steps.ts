import { RetryState } from '@temporalio/common';
import {
  ActivityFailure,
  ApplicationFailure,
  patched,
  proxyActivities,
  proxyLocalActivities,
  workflowInfo,
  type ActivityInterfaceFor,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { SourceStep, StepProfile } from '../src/operations/steps.js';
import { workloadQueue } from '../src/temporal/queues.js';

/**
 * An operation's steps as its workflow calls them: each activity of its definition's step table
 * (src/operations) with that step's profile, on its workload's queue or run locally.
 */

type QueueSteps = Readonly<Record<string, StepProfile>>;
type Steps<S extends QueueSteps> = Pick<ActivityInterfaceFor<Activities>, keyof S & keyof Activities>;

/**
 * Histories written before quick steps ran locally replay with them as ordinary activities;
 * new runs mark that they take the local path.
 */
const LOCAL_STEPS = 'quick-steps-local';

/**
 * The steps of a table: only those it names. The queue is resolved at each call, inside the
 * running workflow, from the queue that workflow runs on; module scope, where the steps are
 * declared, has no workflow to ask.
 */
export function stepsOf<S extends QueueSteps>(steps: S): Steps<S> {
  return stepProxy(steps, (profile, name, args) => {
    if (profile.local && patched(LOCAL_STEPS)) return runLocally(profile, name, args);
    return proxyActivities<AnyActivities>({ ...profile.options, taskQueue: workloadQueue(workflowInfo().taskQueue, profile.workload) })[
      name
    ]!(...args);
  });
}

/**
 * The steps of a table, always run locally: for steps that only run in workflows started after
 * quick steps became local, which therefore record no LOCAL_STEPS marker (nor the search
 * attribute update each marker brings) to tell.
 */
export function localStepsOf<S extends QueueSteps>(steps: S): Steps<S> {
  return stepProxy(steps, runLocally);
}

/** A connector's steps, on the queue of the connector processes that serve the route's source. */
export function onSource(step: SourceStep, taskQueue: string): ActivityOptions {
  return { ...step.options, taskQueue };
}

type AnyActivities = Record<string, (...a: unknown[]) => Promise<unknown>>;
type Call = (profile: StepProfile, name: string, args: unknown[]) => Promise<unknown>;

function stepProxy<S extends QueueSteps>(steps: S, call: Call): Steps<S> {
  return new Proxy({} as Steps<S>, {
    get(_, name) {
      const profile = typeof name === 'string' ? steps[name] : undefined;
      return profile && ((...args: unknown[]) => call(profile, name as string, args));
    },
  });
}

function runLocally(profile: StepProfile, name: string, args: unknown[]): Promise<unknown> {
  const { startToCloseTimeout, retry } = profile.options;
  // A local step's failure arrives bare; wrapped as an ordinary step's is, it keeps naming
  // the step that refused (src/jobs/submit/run-workflow.ts, toRefusal).
  return proxyLocalActivities<AnyActivities>({ startToCloseTimeout, retry })[name]!(...args).catch((err: unknown) => {
    if (err instanceof ActivityFailure || !(err instanceof Error)) throw err;
    const retryState =
      err instanceof ApplicationFailure && err.nonRetryable ? RetryState.NON_RETRYABLE_FAILURE : RetryState.MAXIMUM_ATTEMPTS_REACHED;
    throw new ActivityFailure('Local activity failed', name, undefined, retryState, undefined, err);
  });
}
