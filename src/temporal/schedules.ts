import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client, type ScheduleOptions } from '@temporalio/client';
import { retentionOperation } from '../operations/retention.js';
import { OPERATION } from './search-attributes.js';

/** One schedule per task queue: installations that share a namespace keep their own data. */
export const retentionScheduleId = (taskQueue: string) => `retention-${taskQueue}`;

/**
 * The retention workflow (workflows/retention.ts) as a Temporal Schedule: every hour, never two
 * at once, a run missed while Temporal was down taken up when it is back. Created by the first
 * worker to start; a later start brings an existing schedule in line with its configuration.
 */
export async function ensureRetentionSchedule(client: Client, taskQueue: string): Promise<void> {
  const scheduleId = retentionScheduleId(taskQueue);
  const options = {
    scheduleId,
    spec: { intervals: [{ every: '1 hour' }] },
    action: {
      type: 'startWorkflow' as const,
      workflowType: retentionOperation.workflowType,
      workflowId: scheduleId,
      taskQueue,
      args: [],
      typedSearchAttributes: [{ key: OPERATION, value: retentionOperation.name }],
    },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 day' },
  } satisfies ScheduleOptions;
  try {
    await client.schedule.create(options);
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule
      .getHandle(scheduleId)
      .update((previous) => ({ ...previous, spec: options.spec, action: options.action, policies: options.policies }));
  }
}
