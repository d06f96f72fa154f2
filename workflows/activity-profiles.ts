import type { ActivityOptions } from '@temporalio/workflow';

/**
 * How each kind of step is timed and retried. Every activity heartbeats (activities/heartbeat.ts),
 * so a heartbeat timeout of seconds is what notices a dead worker; the start-to-close timeout only
 * bounds a step that hangs while its process is alive. Refusals are thrown non-retryable, so the
 * attempts are spent on crashes and passing faults only.
 */

/** Storing, recording, writing XML, rendering a template: local work of milliseconds to seconds. */
export const QUICK: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  heartbeatTimeout: '20 seconds',
  retry: { maximumAttempts: 5, initialInterval: '200 milliseconds', backoffCoefficient: 2 },
};

/** Ghostscript, pdf-lib, veraPDF, the schematron validators: seconds, on a big file minutes. */
export const HEAVY: ActivityOptions = {
  startToCloseTimeout: '4 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { maximumAttempts: 5, initialInterval: '1 second', backoffCoefficient: 2 },
};

/** Reading a document: seconds per page, up to 30 scanned pages, perhaps waiting for a busy OCR pool. */
export const READING: ActivityOptions = {
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { maximumAttempts: 3, initialInterval: '1 second', backoffCoefficient: 2 },
};

/** The retention pass: a walk over the database and the blob folders, minutes on a large installation. */
export const HOUSEKEEPING: ActivityOptions = {
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '30 seconds',
  retry: { maximumAttempts: 3, initialInterval: '10 seconds', backoffCoefficient: 2 },
};

/**
 * One SMTP transaction. Temporary failures (4xx, greylisting, a server restarting) are retried
 * with growing pauses for up to 24 hours; permanent ones are thrown non-retryable by the activity.
 * A worker that dies mid-send is noticed by the heartbeat timeout; the send ledger
 * (activities/mail.ts) keeps the retry from sending what was accepted.
 */
export const DELIVERY: ActivityOptions = {
  startToCloseTimeout: '3 minutes',
  heartbeatTimeout: '20 seconds',
  scheduleToCloseTimeout: '24 hours',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 minutes' },
};

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
