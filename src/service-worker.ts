import os from 'node:os';
import type { Client } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import type { Logger } from 'pino';
import { OCR_ENGINES } from '../activities/analysis.js';
import { withHeartbeats } from '../activities/heartbeat.js';
import { createActivities } from '../activities/index.js';
import { withBusinessMetrics } from '../activities/metrics.js';
import type { Config } from './config.js';
import { createMailTransport } from './mail/transport.js';
import { configureVeraPdf, stopVeraPdf } from './pdf/verapdf.js';
import { ocrEngineName } from './reading/ocr-engine.js';
import { DEFAULT_SANDBOX_LIMITS } from './reading/sandbox.js';
import { sandboxLauncher } from './reading/sandbox-launcher.js';
import type { Cleanups } from './cleanups.js';
import type { BlobStorage } from './storage/blob-storage.js';
import type { Storage } from './storage/index.js';
import { removeOrphanedTempDirs } from './temp-dirs.js';
import { ensureRetentionSchedule } from './temporal/schedules.js';
import { startWorkers } from './temporal/worker.js';
import { availableMemoryMb, planWorker } from './temporal/worker-plan.js';
import { warmUpValidation } from './validation/index.js';
import { stopSaxonHe, useSaxonHe } from './validation/schematron.js';

export interface WorkerDeps {
  connection: NativeConnection;
  temporal: Client;
  storage: Storage;
  blobs: BlobStorage;
}

/**
 * The worker, polling the queues of the workload classes EINVOICE_WORKER_QUEUES names. Answers
 * whether it serves the workflows' queue, where workflows this process starts can start eagerly.
 */
export async function startWorkerRole(config: Config, log: Logger, deps: WorkerDeps, cleanups: Cleanups): Promise<boolean> {
  await prepareHelpers(config, log, cleanups);
  const plan = planWorker(config.temporal.taskQueue, config.worker, {
    memoryMb: availableMemoryMb(process.constrainedMemory(), os.totalmem()),
    ocrEngines: OCR_ENGINES,
    sandboxHeapMb: DEFAULT_SANDBOX_LIMITS.heapMb,
  });
  if (plan.ocr) {
    // The first document's sandbox child is forked now, not when it arrives; ended after the worker.
    sandboxLauncher.warmUp(DEFAULT_SANDBOX_LIMITS.heapMb);
    cleanups.push(async () => sandboxLauncher.close());
  }
  const workers = await startWorkers({
    connection: deps.connection,
    namespace: config.temporal.namespace,
    queues: plan.queues,
    activities: withHeartbeats(
      withBusinessMetrics(
        createActivities({
          blobs: deps.blobs,
          storage: deps.storage,
          log,
          mail: { transport: await createMailTransport(config.mail), testFaults: config.mail.testFaults },
          ...(config.documentTime ? { documentTime: config.documentTime } : {}),
          ...(config.scanCertainty !== undefined ? { scanCertainty: config.scanCertainty } : {}),
        }),
      ),
    ),
  });
  cleanups.push(() => workers.stop());
  log.info(
    {
      queues: plan.queues.map((q) => `${q.taskQueue} (${q.maxActivities} at once)`),
      ocr: plan.ocr && { ...plan.ocr, engine: ocrEngineName() },
    },
    'worker polling',
  );
  // The retention workflow and its pass run on the workflows' queue: a process serving it sets the schedule up.
  const servesWorkflows = plan.queues.some((q) => q.workflows);
  if (servesWorkflows) await ensureRetentionSchedule(deps.temporal, config.temporal.taskQueue);
  return servesWorkflows;
}

/** The worker's helpers: temporary folders left by dead processes cleared, veraPDF configured, Saxon-HE started. */
async function prepareHelpers(config: Config, log: Logger, cleanups: Cleanups): Promise<void> {
  // What killed predecessors left behind (their helpers' folders); folders of processes still running stay.
  const orphans = await removeOrphanedTempDirs();
  if (orphans.length) log.info({ removed: orphans.length }, 'removed temporary folders of processes that are gone');
  // The veraPDF processes start with the first check and end after the worker has finished its activities.
  await configureVeraPdf({ size: config.veraPdf.poolSize });
  cleanups.push(() => stopVeraPdf());
  // Once warm, Saxon-HE applies the official rules to an invoice in a few ms, SaxonJS in 40-70 ms of this event loop.
  if (config.schematronEngine === 'saxon-he') {
    if (useSaxonHe()) {
      cleanups.push(() => stopSaxonHe());
      warmUpValidation({ profiles: false });
    } else log.warn('Saxon-HE is not installed (scripts/setup-validators.sh): the official rules run in SaxonJS');
  }
}
