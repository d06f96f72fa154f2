import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { afterAll, beforeAll } from 'vitest';
import { SEARCH_ATTRIBUTES } from '../../src/temporal/search-attributes.js';
import { WORKLOADS } from '../../src/operations/workloads.js';
import { workloadQueue } from '../../src/temporal/queues.js';

/**
 * The workflows as workflows: the bundle of workflows/ (from source) on a real Temporal dev
 * server of its own (the CLI that scripts/setup.sh installs), with the activities stubbed, so the
 * orchestration rules are tested alone, in seconds and without PostgreSQL or the service.
 */

const cli = process.env.TEMPORAL_CLI ?? path.resolve('.tools/temporal/bin/temporal');
const quiet = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, log() {} };

export type StubActivities = Record<string, (...args: never[]) => Promise<unknown>>;

export interface WorkflowTestEnvironment {
  env(): TestWorkflowEnvironment;
  /** Runs `body` with workers on every workload queue of a fresh task queue, serving these stubs. */
  withWorker<T>(activities: StubActivities, body: (taskQueue: string) => Promise<T>): Promise<T>;
}

/** Call at the top of a test file: starts the server and bundles the workflows once for the file. */
export function workflowTestEnvironment(): WorkflowTestEnvironment {
  let env: TestWorkflowEnvironment | undefined;
  let bundle: WorkflowBundleWithSourceMap;
  beforeAll(async () => {
    env = await TestWorkflowEnvironment.createLocal({
      server: { executable: { type: 'existing-path', path: cli }, searchAttributes: [...SEARCH_ATTRIBUTES], ui: false },
    });
    bundle = await bundleWorkflowCode({ workflowsPath: path.resolve('workflows/index.ts'), logger: quiet });
  }, 120_000);
  afterAll(async () => {
    await env?.teardown();
  });
  return {
    env: () => env!,
    async withWorker(activities, body) {
      const taskQueue = `wf-${randomUUID()}`;
      const workers = await Promise.all(
        WORKLOADS.map((workload) =>
          Worker.create({
            connection: env!.nativeConnection,
            taskQueue: workloadQueue(taskQueue, workload),
            activities,
            ...(workload === 'quick' ? { workflowBundle: bundle } : {}),
          }),
        ),
      );
      const running = workers.map((w) => w.run());
      try {
        return await body(taskQueue);
      } finally {
        for (const w of workers) w.shutdown();
        await Promise.all(running);
      }
    },
  };
}
