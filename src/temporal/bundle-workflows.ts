import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';
import { WORKFLOW_BUNDLE_PATH } from './worker.js';

// The last step of `npm run build`, after tsc: bundles dist/workflows once, so workers start without webpack.
const { code } = await bundleWorkflowCode({
  workflowsPath: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../workflows/index.js'),
  logger: { info() {}, warn: console.warn, error: console.error, debug() {}, trace() {}, log() {} },
});
await writeFile(WORKFLOW_BUNDLE_PATH, code);
console.log(`workflow bundle: ${(code.length / 1024).toFixed(0)} KiB`);
