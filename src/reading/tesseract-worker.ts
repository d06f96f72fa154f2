/**
 * Entry point of every tesseract.js worker thread (passed as its `workerPath`).
 * The language data is read from node_modules; a fetch would mean a
 * misconfiguration that quietly downloads at run time, so it fails instead.
 */
import { createRequire } from 'node:module';

globalThis.fetch = () =>
  Promise.reject(new Error('Network access is disabled in OCR workers: the language data must come from node_modules.'));

createRequire(import.meta.url)('tesseract.js/src/worker-script/node/index.js');
