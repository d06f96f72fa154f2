import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import {
  availableMemoryMb,
  DEFAULT_CONCURRENCY,
  OCR_CHILD_AHEAD_MB,
  OCR_DOCUMENT_OVERHEAD_MB,
  OCR_ENGINE_MB,
  planWorker,
  WorkerPlanError,
} from '../../src/temporal/worker-plan.js';

const machine = { memoryMb: 16_384, ocrEngines: 2, sandboxHeapMb: 1024 };

describe('which queues a worker process serves, and how much at once', () => {
  it('serves every class by default (one machine), the workflows on the quick queue', () => {
    const plan = planWorker('einvoice', loadConfig({}).worker, machine);
    expect(plan.queues.map((q) => [q.taskQueue, q.workflows])).toEqual([
      ['einvoice', true],
      ['einvoice-pdf', false],
      ['einvoice-ocr', false],
      ['einvoice-mail', false],
    ]);
    expect(plan.queues.find((q) => q.workload === 'quick')!.maxActivities).toBe(DEFAULT_CONCURRENCY.quick);
  });

  it('serves only the classes EINVOICE_WORKER_QUEUES names, with the limits EINVOICE_WORKER_CONCURRENCY sets', () => {
    const settings = loadConfig({ EINVOICE_WORKER_QUEUES: 'pdf, mail', EINVOICE_WORKER_CONCURRENCY: 'pdf=2,quick=3' }).worker;
    const plan = planWorker('inv', settings, machine);
    expect(plan.queues.map((q) => [q.taskQueue, q.maxActivities, q.workflows])).toEqual([
      ['inv-pdf', 2, false],
      ['inv-mail', DEFAULT_CONCURRENCY.mail, false],
    ]);
    expect(plan.ocr).toBeUndefined();
  });

  it('lets the OCR memory budget bound how many documents are read at once', () => {
    const perDocument = machine.sandboxHeapMb + OCR_DOCUMENT_OVERHEAD_MB;
    const engines = machine.ocrEngines * OCR_ENGINE_MB + OCR_CHILD_AHEAD_MB;
    const ocrOnly = (env: Record<string, string>) =>
      planWorker('einvoice', loadConfig({ EINVOICE_WORKER_QUEUES: 'ocr', ...env }).worker, machine);
    // Room for exactly three documents besides the engines and the sandbox process forked ahead.
    const three = ocrOnly({
      EINVOICE_OCR_MEMORY_MB: String(engines + 3 * perDocument + perDocument - 1),
      EINVOICE_WORKER_CONCURRENCY: 'ocr=10',
    });
    expect(three.queues).toEqual([{ workload: 'ocr', taskQueue: 'einvoice-ocr', workflows: false, maxActivities: 3 }]);
    expect(three.ocr).toMatchObject({ engines: 2, perDocumentMb: perDocument, documents: 3 });
    // A generous budget: two documents per engine, unless told otherwise.
    expect(ocrOnly({ EINVOICE_OCR_MEMORY_MB: '65536' }).queues[0]!.maxActivities).toBe(4);
    expect(ocrOnly({ EINVOICE_OCR_MEMORY_MB: '65536', EINVOICE_WORKER_CONCURRENCY: 'ocr=1' }).queues[0]!.maxActivities).toBe(1);
    // Without a budget: half of what the process may use (16 GiB here).
    expect(ocrOnly({}).ocr!.memoryMb).toBe(8192);
  });

  it('refuses a budget that does not hold one document, naming the variable and the figures', () => {
    expect(() =>
      planWorker('einvoice', loadConfig({ EINVOICE_WORKER_QUEUES: 'ocr', EINVOICE_OCR_MEMORY_MB: '1000' }).worker, machine),
    ).toThrow(WorkerPlanError);
    expect(() =>
      planWorker('einvoice', loadConfig({ EINVOICE_WORKER_QUEUES: 'ocr', EINVOICE_OCR_MEMORY_MB: '1000' }).worker, machine),
    ).toThrow(/EINVOICE_OCR_MEMORY_MB: 1000 MiB .* 1740 MiB/);
  });

  it("takes a container's memory limit where there is one", () => {
    expect(availableMemoryMb(2 * 1024 ** 3, 64 * 1024 ** 3)).toBe(2048);
    // No limit: Node reports a huge number (or 0).
    expect(availableMemoryMb(2 ** 64, 16 * 1024 ** 3)).toBe(16_384);
    expect(availableMemoryMb(0, 16 * 1024 ** 3)).toBe(16_384);
  });

  it('refuses unknown classes and malformed limits at start', () => {
    expect(() => loadConfig({ EINVOICE_WORKER_QUEUES: 'quick,scan' })).toThrow(/EINVOICE_WORKER_QUEUES/);
    expect(() => loadConfig({ EINVOICE_WORKER_CONCURRENCY: 'pdf:2' })).toThrow(/EINVOICE_WORKER_CONCURRENCY/);
    expect(() => loadConfig({ EINVOICE_WORKER_CONCURRENCY: 'pdf=0' })).toThrow(/EINVOICE_WORKER_CONCURRENCY/);
    expect(() => loadConfig({ EINVOICE_OCR_MEMORY_MB: '100' })).toThrow(/EINVOICE_OCR_MEMORY_MB/);
  });
});
