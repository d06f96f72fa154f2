import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll } from 'vitest';
import { repoRoot } from '../../scripts/lib/spawn-service.js';
import { WORKLOADS, type Workload } from '../../src/operations/workloads.js';
import { workloadQueue } from '../../src/temporal/queues.js';

/** The bundle the built service runs (scripts/test.sh builds before testing). */
export const WORKFLOW_BUNDLE = path.join(repoRoot, 'dist', 'workflow-bundle.js');

/**
 * Workers for the workflows' queue and each workload class's queue (src/temporal/queues.ts), as
 * the service runs them, with the given (stub) activities on every queue; runs `body` and shuts
 * them down. `workloads` leaves classes unserved.
 */
export async function withQueueWorkers<T>(
  opts: { connection: NativeConnection; namespace: string; taskQueue: string; activities: object; workloads?: readonly Workload[] },
  body: () => Promise<T>,
): Promise<T> {
  const workers: Worker[] = [];
  for (const workload of opts.workloads ?? WORKLOADS) {
    workers.push(
      await Worker.create({
        connection: opts.connection,
        namespace: opts.namespace,
        taskQueue: workloadQueue(opts.taskQueue, workload),
        ...(workload === 'quick' ? { workflowBundle: { codePath: WORKFLOW_BUNDLE } } : {}),
        activities: opts.activities,
      }),
    );
  }
  // Each worker runs until the one inside it has stopped; the innermost until `body` is done.
  return workers.reduce<() => Promise<T>>((inner, worker) => () => worker.runUntil(inner), body)();
}

/** A worker connection and a client to the Temporal server at `address`, opened before the file's tests and closed after them. */
export function temporalForTests(address: string, namespace: string): { connection: NativeConnection; client: Client } {
  const handles = {} as { connection: NativeConnection; client: Client };
  beforeAll(async () => {
    handles.connection = await NativeConnection.connect({ address });
    handles.client = new Client({ connection: await Connection.connect({ address }), namespace });
  });
  afterAll(async () => {
    await handles.connection?.close();
    await handles.client?.connection.close();
  });
  return handles;
}
