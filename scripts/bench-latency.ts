import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { invoiceSchema } from '../src/invoice/model.js';
import { loadTemplate, renderInvoicePdf, templateRoots } from '../src/render/index.js';
import { send, type Target } from './lib/keyed-client.js';
import { quantile } from './lib/quantile.js';
import { repoRoot, spawnService, type SpawnedService } from './lib/spawn-service.js';
import { startSplitService } from './lib/split-service.js';

/**
 * Latency of one small request (not in CI's time budget): `node dist-tools/scripts/bench-latency.js
 * [--requests 30] [--warm-up 3] [--pause-ms 0] [--split] [--file some.pdf]`. Starts the built service (one
 * process, or with --split API, worker and Temporal as processes of their own), then sends a
 * one-page PDF with a text layer (the fixture invoice through the German template, or --file)
 * to the sync analysis, one request after the other (with --pause-ms between them: a request that
 * finds the service idle), and prints median, p95 and max of the wall time. What a text PDF costs beyond its ~30 ms of analysis is start-up and orchestration, which
 * is what this measures. Exit code 1 when any answer is not 200.
 */

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '30' },
    'warm-up': { type: 'string', default: '3' },
    'pause-ms': { type: 'string', default: '0' },
    split: { type: 'boolean', default: false },
    file: { type: 'string' },
  },
});
const requests = Number(values.requests);
const warmUp = Number(values['warm-up']);
const pauseMs = Number(values['pause-ms']);
const ENDPOINT = '/createJSONFromAnalysedPdf';

async function textPdf(): Promise<Buffer> {
  if (values.file) return readFile(values.file);
  const invoice = invoiceSchema.parse(
    JSON.parse(await readFile(path.join(repoRoot, 'test/fixtures/invoices/01-standard-19.json'), 'utf8')),
  );
  const template = await loadTemplate(templateRoots('/nonexistent'), 'de-standard');
  const rendered = await renderInvoicePdf(invoice, template, { created: new Date('2025-03-12T10:00:00Z'), fileId: '0'.repeat(32) });
  return Buffer.from(rendered.pdf);
}

/** One analysis; its wall time in ms. */
async function timed(target: Target, body: unknown): Promise<number> {
  const started = performance.now();
  const answer = await send(target, ENDPOINT, body);
  const ms = performance.now() - started;
  if (answer.status !== 200) throw new Error(`${ENDPOINT} answered ${answer.status}: ${answer.body.toString('utf8').slice(0, 500)}`);
  return ms;
}

async function startService(): Promise<{ api: SpawnedService; stop(): Promise<unknown> }> {
  if (!values.split) {
    const service = await spawnService({ name: 'latency' });
    return { api: service, stop: () => service.stop() };
  }
  return startSplitService({ name: 'latency' });
}

const body = { fileBase64: (await textPdf()).toString('base64'), withLineItems: true };
const service = await startService();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void service.stop().finally(() => process.exit(130)));
try {
  const target: Target = { url: service.api.url, token: service.api.token };
  for (let i = 0; i < warmUp; i++) await timed(target, body);
  const times: number[] = [];
  for (let i = 0; i < requests; i++) {
    await new Promise((r) => setTimeout(r, pauseMs));
    times.push(await timed(target, body));
  }
  const s = (ms: number) => `${(ms / 1000).toFixed(3)} s`;
  console.log(
    `${ENDPOINT}, one-page text PDF (${values.split ? 'split' : 'one process'}), ${requests} requests after ${warmUp} warm-up, ${pauseMs} ms apart: ` +
      `median ${s(quantile(times, 0.5))}, p95 ${s(quantile(times, 0.95))}, max ${s(Math.max(...times))}`,
  );
} finally {
  await service.stop();
}
