import { ActivityFailure, ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import { RetryState } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { toApiError } from '../../src/api/run-workflow.js';

const failed = (cause: Error) => new WorkflowFailedError('Workflow execution failed', cause, RetryState.NON_RETRYABLE_FAILURE);
const inActivity = (activityType: string, cause: Error) => new ActivityFailure('Activity task failed', activityType, '1', RetryState.NON_RETRYABLE_FAILURE, 'worker', cause);

describe('Temporal failures as API errors', () => {
  it('turns a non-retryable activity failure typed with one of our codes into that error, naming the stage', () => {
    const err = toApiError(failed(inActivity('buildInvoiceXml', ApplicationFailure.nonRetryable('BT-1 missing', 'XML_BUILD_FAILED'))));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'XML_BUILD_FAILED', status: 422, retryable: false });
    expect(err.options).toMatchObject({ stage: 'buildInvoiceXml', detail: 'BT-1 missing' });
  });

  it('treats an unknown failure type as an internal error, still naming the stage', () => {
    const err = toApiError(failed(inActivity('storeDocument', ApplicationFailure.retryable('disk full', 'Error'))));
    expect(err).toMatchObject({ code: 'INTERNAL_ERROR', status: 500, retryable: true });
    expect(err.options.stage).toBe('storeDocument');
  });

  it('passes API errors through and wraps anything else as internal', () => {
    const timeout = new ApiError('UPSTREAM_TIMEOUT');
    expect(toApiError(timeout)).toBe(timeout);
    expect(toApiError(new TypeError('boom')).code).toBe('INTERNAL_ERROR');
  });
});
