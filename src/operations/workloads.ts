/**
 * The workload classes a step belongs to, each served on a task queue of its own
 * (src/temporal/queues.ts), so that a burst of one kind (scans taking seconds per page) cannot
 * hold up another (an XML creation of milliseconds) and each kind can be scaled by its own
 * worker processes (EINVOICE_WORKER_QUEUES).
 */
export const WORKLOADS = ['quick', 'pdf', 'ocr', 'mail'] as const;
export type Workload = (typeof WORKLOADS)[number];
