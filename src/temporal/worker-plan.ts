import { WORKLOADS, type Workload } from '../operations/workloads.js';
import { workloadQueue } from './queues.js';

/**
 * Which task queues a worker process polls and how many activities it runs at once on each
 * (EINVOICE_WORKER_QUEUES, EINVOICE_WORKER_CONCURRENCY). The OCR queue's limit also follows
 * from the memory the process may use for OCR (EINVOICE_OCR_MEMORY_MB): every document being
 * read holds a sandbox process, and the tesseract engines are loaded once per process.
 */

export interface WorkerSettings {
  workloads: readonly Workload[];
  /** Activities at once per class; classes left out get DEFAULT_CONCURRENCY (OCR: what its memory allows). */
  concurrency: Partial<Record<Workload, number>>;
  /** Memory for OCR in MiB; undefined: half of what the process may use. */
  ocrMemoryMb: number | undefined;
}

export interface QueuePlan {
  workload: Workload;
  taskQueue: string;
  /** The workflow tasks ride on the quick queue. */
  workflows: boolean;
  maxActivities: number;
}

export interface OcrBudget {
  memoryMb: number;
  engines: number;
  enginesMb: number;
  perDocumentMb: number;
  /** Documents the budget holds at once. */
  documents: number;
}

export interface WorkerPlan {
  queues: QueuePlan[];
  /** When the process serves the OCR queue. */
  ocr?: OcrBudget;
}

/**
 * quick: XML build and validation take milliseconds each, so a few at once keep both cores
 * busy without queueing behind one another. pdf: Ghostscript and veraPDF take a core and
 * hundreds of MB each. mail: waiting on SMTP servers, not on the CPU.
 */
export const DEFAULT_CONCURRENCY: Record<Exclude<Workload, 'ocr'>, number> = { quick: 8, pdf: 4, mail: 8 };

/**
 * A tesseract.js engine (WASM, German and English models) takes 100–150 MB; a document's
 * sandbox process is capped at its V8 heap (DEFAULT_SANDBOX_LIMITS.heapMb in src/reading/sandbox.ts)
 * plus canvas and page bitmaps outside the heap (up to 18 Mpx per page, a few pages in flight)
 * and the process itself: the budget reserves the worst case, so it holds even when every
 * document is a large scan. One more sandbox process waits for the next document.
 */
export const OCR_ENGINE_MB = 150;
export const OCR_DOCUMENT_OVERHEAD_MB = 256;
/** The sandbox process forked ahead of the next document (src/reading/sandbox-launcher.ts): Node, pdfjs and the reader loaded, no document. */
export const OCR_CHILD_AHEAD_MB = 160;

export class WorkerPlanError extends Error {}

export function planWorker(
  taskQueue: string,
  settings: WorkerSettings,
  machine: { memoryMb: number; ocrEngines: number; sandboxHeapMb: number },
): WorkerPlan {
  const queues: QueuePlan[] = [];
  let ocr: OcrBudget | undefined;
  for (const workload of WORKLOADS.filter((w) => settings.workloads.includes(w))) {
    let maxActivities: number;
    if (workload === 'ocr') {
      ocr = ocrBudget(settings.ocrMemoryMb ?? Math.floor(machine.memoryMb / 2), machine.ocrEngines, machine.sandboxHeapMb);
      // More documents than engines only queue pages; the memory decides how many may wait for them.
      maxActivities = Math.min(settings.concurrency.ocr ?? 2 * machine.ocrEngines, ocr.documents);
    } else {
      maxActivities = settings.concurrency[workload] ?? DEFAULT_CONCURRENCY[workload];
    }
    queues.push({ workload, taskQueue: workloadQueue(taskQueue, workload), workflows: workload === 'quick', maxActivities });
  }
  return { queues, ...(ocr ? { ocr } : {}) };
}

function ocrBudget(memoryMb: number, engines: number, sandboxHeapMb: number): OcrBudget {
  const enginesMb = engines * OCR_ENGINE_MB;
  const perDocumentMb = sandboxHeapMb + OCR_DOCUMENT_OVERHEAD_MB;
  const documents = Math.floor((memoryMb - enginesMb - OCR_CHILD_AHEAD_MB) / perDocumentMb);
  if (documents < 1) {
    throw new WorkerPlanError(
      `EINVOICE_OCR_MEMORY_MB: ${memoryMb} MiB do not hold one document being read (${engines} OCR engine(s) × ${OCR_ENGINE_MB} MiB + ${OCR_CHILD_AHEAD_MB} MiB for the sandbox process forked ahead + ${perDocumentMb} MiB per document = ${enginesMb + OCR_CHILD_AHEAD_MB + perDocumentMb} MiB)`,
    );
  }
  return { memoryMb, engines, enginesMb, perDocumentMb, documents };
}

/** What the process may use: the container's limit where there is one, else the machine's memory. */
export function availableMemoryMb(constrained: number, total: number): number {
  const bytes = constrained > 0 && constrained < total ? constrained : total;
  return Math.floor(bytes / (1024 * 1024));
}
