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
import { workloadQueue, type Workload } from '../src/temporal/queues.js';

/**
 * How each kind of step is timed and retried, and which workload class (task queue, see
 * src/temporal/queues.ts) runs it. Every activity heartbeats (activities/heartbeat.ts), so a
 * heartbeat timeout of seconds is what notices a dead worker; the start-to-close timeout only
 * bounds a step that hangs while its process is alive. Refusals are thrown non-retryable, so the
 * attempts are spent on crashes and passing faults only.
 */
export interface StepProfile {
  workload: Workload;
  options: ActivityOptions;
  /**
   * Runs as a local activity, inside the workflow task of the worker running the workflow: no
   * round trip through the server per step, which costs more than the quick steps themselves. A
   * dead worker is noticed by the workflow task timeout (10 s), and the step runs again with the
   * workflow task elsewhere. Only for quick-queue steps: that is the queue the workflows run on.
   */
  local?: boolean;
}

/** Storing, recording, writing XML, rendering a template: local work of milliseconds to seconds. */
export const QUICK: StepProfile = {
  workload: 'quick',
  local: true,
  options: {
    startToCloseTimeout: '1 minute',
    heartbeatTimeout: '20 seconds',
    retry: { maximumAttempts: 5, initialInterval: '200 milliseconds', backoffCoefficient: 2 },
  },
};

/**
 * Rendering a template: quick, but not local. The PDF carries the time its step was first
 * scheduled (activities/step.ts), which only an ordinary activity keeps when a worker dies and
 * the step runs again elsewhere: a local one would be scheduled anew, and render other bytes.
 */
export const RENDERING: StepProfile = { workload: 'quick', options: QUICK.options };

/** Seconds, on a big file minutes. */
const LONG: ActivityOptions = {
  startToCloseTimeout: '4 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { maximumAttempts: 5, initialInterval: '1 second', backoffCoefficient: 2 },
};

/** The schematron validators on an XML invoice: quick CPU work for an ordinary invoice, minutes for one of thousands of lines. */
export const XML_RULES: StepProfile = { workload: 'quick', local: true, options: LONG };

/** Ghostscript, pdf-lib, veraPDF: the PDF workers. */
export const PDF: StepProfile = { workload: 'pdf', options: LONG };

/** Reading a document: seconds per page, up to 30 scanned pages, perhaps waiting for a busy OCR pool. */
export const READING: StepProfile = {
  workload: 'ocr',
  options: {
    startToCloseTimeout: '15 minutes',
    heartbeatTimeout: '30 seconds',
    retry: { maximumAttempts: 3, initialInterval: '1 second', backoffCoefficient: 2 },
  },
};

/** The retention pass: a walk over the database and the blob folders, minutes on a large installation. */
export const HOUSEKEEPING: StepProfile = {
  workload: 'quick',
  options: {
    startToCloseTimeout: '1 hour',
    heartbeatTimeout: '30 seconds',
    retry: { maximumAttempts: 3, initialInterval: '10 seconds', backoffCoefficient: 2 },
  },
};

/**
 * One SMTP transaction, on the mail queue. Temporary failures (4xx, greylisting, a server
 * restarting) are retried with growing pauses for up to 24 hours; permanent ones are thrown
 * non-retryable by the activity. A worker that dies mid-send is noticed by the heartbeat timeout;
 * the send ledger (activities/mail.ts) keeps the retry from sending what was accepted.
 */
export const SENDING: StepProfile = {
  workload: 'mail',
  options: {
    startToCloseTimeout: '3 minutes',
    heartbeatTimeout: '20 seconds',
    scheduleToCloseTimeout: '24 hours',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 minutes' },
  },
};

/**
 * Histories written before quick steps ran locally replay with them as ordinary activities;
 * new runs mark that they take the local path.
 */
const LOCAL_STEPS = 'quick-steps-local';

/**
 * Activities of one profile, scheduled on its workload's queue (or run locally, see `local`). The
 * queue is resolved at each call, inside the running workflow, from the queue that workflow runs
 * on; module scope, where the proxies are declared, has no workflow to ask.
 */
export function proxySteps<A>(profile: StepProfile): ActivityInterfaceFor<A> {
  return new Proxy({} as ActivityInterfaceFor<A>, {
    get(_, name) {
      if (typeof name !== 'string') return undefined;
      return (...args: unknown[]) => {
        if (profile.local && patched(LOCAL_STEPS)) return runLocally(profile, name, args);
        return proxyActivities<Steps>({ ...profile.options, taskQueue: workloadQueue(workflowInfo().taskQueue, profile.workload) })[name]!(
          ...args,
        );
      };
    },
  });
}

/**
 * Activities of a local profile, always run locally: for code that only runs in workflows
 * started after quick steps became local, which therefore records no LOCAL_STEPS marker (nor
 * the search attribute update each marker brings) to tell.
 */
export function localSteps<A>(profile: StepProfile): ActivityInterfaceFor<A> {
  return new Proxy({} as ActivityInterfaceFor<A>, {
    get: (_, name) => (typeof name === 'string' ? (...args: unknown[]) => runLocally(profile, name, args) : undefined),
  });
}

type Steps = Record<string, (...a: unknown[]) => Promise<unknown>>;

function runLocally(profile: StepProfile, name: string, args: unknown[]): Promise<unknown> {
  const { startToCloseTimeout, retry } = profile.options;
  // A local step's failure arrives bare; wrapped as an ordinary step's is, it keeps naming
  // the step that refused (src/jobs/submit/run-workflow.ts, toRefusal).
  return proxyLocalActivities<Steps>({ startToCloseTimeout, retry })[name]!(...args).catch((err: unknown) => {
    if (err instanceof ActivityFailure || !(err instanceof Error)) throw err;
    const retryState =
      err instanceof ApplicationFailure && err.nonRetryable ? RetryState.NON_RETRYABLE_FAILURE : RetryState.MAXIMUM_ATTEMPTS_REACHED;
    throw new ActivityFailure('Local activity failed', name, undefined, retryState, undefined, err);
  });
}

/**
 * A connector's steps on its source (list, read, write, move), served by the connector processes
 * on their own queue. A source that is down is waited for with growing pauses, for hours if need be.
 */
export function sourceStep(taskQueue: string): ActivityOptions {
  return {
    taskQueue,
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: '20 seconds',
    retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes' },
  };
}
