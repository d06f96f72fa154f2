/**
 * The workload classes of the worker, each on a task queue of its own, so that a burst of one
 * kind (scans taking seconds per page) cannot hold up another (an XML creation of milliseconds)
 * and each kind can be scaled by its own worker processes (EINVOICE_WORKER_QUEUES).
 *
 * Workflows cannot read the environment, so a class's queue is derived from the queue the
 * workflow itself runs on (TEMPORAL_TASK_QUEUE): the workflow and the worker agree on it
 * without further configuration. No Node imports: the workflow bundle uses this module.
 */

export const WORKLOADS = ['quick', 'pdf', 'ocr', 'mail'] as const;
export type Workload = (typeof WORKLOADS)[number];

/**
 * `quick` (building and validating XML, storing, recording) shares the workflows' own queue:
 * workflow tasks are as short, and whoever runs workflows needs both. The others get a suffix.
 */
export function workloadQueue(workflowQueue: string, workload: Workload): string {
  return workload === 'quick' ? workflowQueue : `${workflowQueue}-${workload}`;
}
