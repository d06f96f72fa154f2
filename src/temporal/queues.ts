import type { Workload } from '../operations/workloads.js';

/**
 * The task queue of each workload class (src/operations/workloads.ts). Workflows cannot read the
 * environment, so a class's queue is derived from the queue the workflow itself runs on
 * (TEMPORAL_TASK_QUEUE): the workflow and the worker agree on it without further configuration.
 * No Node imports: the workflow bundle uses this module.
 *
 * `quick` (building and validating XML, storing, recording) shares the workflows' own queue:
 * workflow tasks are as short, and whoever runs workflows needs both. The others get a suffix.
 */
export function workloadQueue(workflowQueue: string, workload: Workload): string {
  return workload === 'quick' ? workflowQueue : `${workflowQueue}-${workload}`;
}
