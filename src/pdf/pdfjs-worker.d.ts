// pdfjs-dist ships no types for its worker module; it is only imported for its side effect (pdfjs.ts, preloadPdfJs).
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
