import { ActivityFailure, ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import { RetryState } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { JobRefusal } from '../../src/jobs/intake/refusal.js';
import { toRefusal } from '../../src/jobs/submit/run-workflow.js';

const failed = (cause: Error) => new WorkflowFailedError('Workflow execution failed', cause, RetryState.NON_RETRYABLE_FAILURE);
const inActivity = (activityType: string, cause: Error) =>
  new ActivityFailure('Activity task failed', activityType, '1', RetryState.NON_RETRYABLE_FAILURE, 'worker', cause);

describe('Temporal failures as job refusals', () => {
  it('turns a non-retryable activity failure typed with one of our codes into that refusal, naming the stage', () => {
    const err = toRefusal(failed(inActivity('buildInvoiceXml', ApplicationFailure.nonRetryable('BT-1 missing', 'XML_BUILD_FAILED'))));
    expect(err).toBeInstanceOf(JobRefusal);
    expect(err.code).toBe('XML_BUILD_FAILED');
    expect(err.options).toMatchObject({ stage: 'buildInvoiceXml', detail: 'BT-1 missing' });
  });

  it('keeps the details a workflow attached to its refusal', () => {
    const details = { ruleCodes: ['BR-CO-15'], stage: 'validateZugferdPdf' };
    const err = toRefusal(
      failed(ApplicationFailure.create({ nonRetryable: true, type: 'ZUGFERD_INVALID', message: 'fails validation', details: [details] })),
    );
    expect(err.code).toBe('ZUGFERD_INVALID');
    expect(err.options.details).toEqual(details);
  });

  it('treats an unknown failure type as an internal error, still naming the stage', () => {
    const err = toRefusal(failed(inActivity('storeDocument', ApplicationFailure.retryable('disk full', 'Error'))));
    expect(err.code).toBe('INTERNAL_ERROR');
    expect(err.options.stage).toBe('storeDocument');
  });

  it('passes refusals through and wraps anything else as internal', () => {
    const timeout = new JobRefusal('UPSTREAM_TIMEOUT');
    expect(toRefusal(timeout)).toBe(timeout);
    expect(toRefusal(new TypeError('boom')).code).toBe('INTERNAL_ERROR');
  });
});
