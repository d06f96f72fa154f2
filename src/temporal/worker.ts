import { NativeConnection, Worker } from '@temporalio/worker';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Logger } from 'pino';
import { connectNative } from './connect.js';
import type { QueuePlan } from './worker-plan.js';

/** Workflows are bundled once at build (src/temporal/bundle-workflows.ts); the worker only loads the bundle. */
export const WORKFLOW_BUNDLE_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../workflow-bundle.js');

export interface WorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  activities: object;
  log: Logger;
}

const SHUTDOWN_GRACE = '20 seconds';

export async function createWorker(opts: WorkerOptions): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await connectNative(opts.address, opts.log);
  const worker = await Worker.create({
    connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    workflowBundle: { codePath: WORKFLOW_BUNDLE_PATH },
    activities: opts.activities,
    // Two cores: a few validations or PDF builds at once keep latency predictable.
    maxConcurrentActivityTaskExecutions: 8,
    shutdownGraceTime: SHUTDOWN_GRACE,
  });
  return { worker, connection };
}

export interface RunningWorkers {
  /** Stops polling and lets running activities finish (up to the grace time). */
  stop(): Promise<void>;
}

/**
 * One worker per planned queue, over the process's connection (closed by its owner). Every worker
 * registers every activity: the workflows decide which queue a step goes to
 * (src/operations/steps.ts), and an activity never asked for on a queue costs nothing there.
 */
export async function startWorkers(opts: {
  connection: NativeConnection;
  namespace: string;
  queues: readonly QueuePlan[];
  activities: object;
}): Promise<RunningWorkers> {
  const workers: Worker[] = [];
  for (const queue of opts.queues) {
    workers.push(
      await Worker.create({
        connection: opts.connection,
        namespace: opts.namespace,
        taskQueue: queue.taskQueue,
        ...(queue.workflows ? { workflowBundle: { codePath: WORKFLOW_BUNDLE_PATH } } : {}),
        activities: opts.activities,
        maxConcurrentActivityTaskExecutions: queue.maxActivities,
        shutdownGraceTime: SHUTDOWN_GRACE,
      }),
    );
  }
  const running = workers.map((w) => w.run());
  return {
    async stop() {
      for (const w of workers) w.shutdown();
      await Promise.allSettled(running);
    },
  };
}
