import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';

// Run after tsc: bundles dist/workflows once, so workers start without webpack.
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { code } = await bundleWorkflowCode({
  workflowsPath: path.join(dist, 'workflows/index.js'),
  logger: { info() {}, warn: console.warn, error: console.error, debug() {}, trace() {}, log() {} },
});
await writeFile(path.join(dist, 'workflow-bundle.js'), code);
console.log(`workflow bundle: ${(code.length / 1024).toFixed(0)} KiB`);
