import type { Workload } from './workloads.js';

/**
 * How each kind of step is timed and retried, and which workload class (task queue, see
 * src/temporal/queues.ts) runs it. Every activity heartbeats (activities/heartbeat.ts), so a
 * heartbeat timeout of seconds is what notices a dead worker; the start-to-close timeout only
 * bounds a step that hangs while its process is alive. Refusals are thrown non-retryable, so the
 * attempts are spent on crashes and passing faults only.
 *
 * Plain data: the operation definitions name a profile per step, and workflows/steps.ts turns it
 * into Temporal's activity options.
 */
export interface StepProfile {
  workload: Workload;
  options: StepTiming;
  /**
   * Runs as a local activity, inside the workflow task of the worker running the workflow: no
   * round trip through the server per step, which costs more than the quick steps themselves. A
   * dead worker is noticed by the workflow task timeout (10 s), and the step runs again with the
   * workflow task elsewhere. Only for quick-queue steps: that is the queue the workflows run on.
   */
  local?: boolean;
}

/**
 * A connector's step on its source (list, read, write, move): served by the connector processes
 * on a queue of their own, which the workflow is told, not on a workload's queue.
 */
export interface SourceStep {
  onSource: true;
  options: StepTiming;
}

/** Each step an operation's workflow calls (an activity's name), with its profile. */
export type StepTable = Readonly<Record<string, StepProfile | SourceStep>>;

/** The part of Temporal's ActivityOptions the profiles set, in types of their own so that this module needs no Temporal. */
export interface StepTiming {
  startToCloseTimeout: Duration;
  heartbeatTimeout: Duration;
  scheduleToCloseTimeout?: Duration;
  retry: { maximumAttempts?: number; initialInterval: Duration; backoffCoefficient: number; maximumInterval?: Duration };
}

/** The duration strings the profiles use: a subset of Temporal's (ms-formatted), so they pass for its Duration. */
type Duration = `${number} ${'milliseconds' | 'second' | 'seconds' | 'minute' | 'minutes' | 'hour' | 'hours'}`;

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
const LONG: StepTiming = {
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

/** A connector's step on its source. A source that is down is waited for with growing pauses, for hours if need be. */
export const ON_SOURCE: SourceStep = {
  onSource: true,
  options: {
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: '20 seconds',
    retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes' },
  },
};
