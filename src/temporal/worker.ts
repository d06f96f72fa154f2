import { NativeConnection, Worker } from '@temporalio/worker';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** Workflows are bundled once at build (scripts/bundle-workflows.ts); the worker only loads the bundle. */
export const WORKFLOW_BUNDLE_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../workflow-bundle.js');

export interface WorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  activities: object;
}

export async function createWorker(opts: WorkerOptions): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: opts.address });
  const worker = await Worker.create({
    connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    workflowBundle: { codePath: WORKFLOW_BUNDLE_PATH },
    activities: opts.activities,
    // Two cores: a few validations or PDF builds at once keep latency predictable.
    maxConcurrentActivityTaskExecutions: 8,
    shutdownGraceTime: '20 seconds',
  });
  return { worker, connection };
}
