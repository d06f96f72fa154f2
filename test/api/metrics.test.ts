import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/spawn-service.js';
import { invoiceSchema } from '../../src/invoice/model.js';
import { samplePdf } from '../pdf/sample-pdf.js';
import { scrape, total } from '../support/prometheus.js';
import { byName, call } from './client.js';

/**
 * /metrics of the running service (the embedded set-up, which serves them on METRICS_PORT and
 * the Temporal SDK's on TEMPORAL_METRICS_PORT): the figures move when requests run. Other test
 * files call the same service at the same time, so the counters must have moved at least as
 * far as this file's own requests take them.
 */

const service = byName('sqlite');
const metricsUrl = `http://127.0.0.1:${service.env.METRICS_PORT}/metrics`;
const temporalMetricsUrl = `http://127.0.0.1:${service.env.TEMPORAL_METRICS_PORT}/metrics`;
const invoice = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../fixtures/invoices', '01-standard-19.json'), 'utf8'));
const CREATE = '/api/v1/zugferd/createXinvoiceFromJson';

describe('metrics', () => {
  it('count requests by route pattern and status, with their latency, and the documents and validations they lead to', async () => {
    const before = await scrape(metricsUrl);
    const created = [await call(service, CREATE, { body: { invoice } }), await call(service, CREATE, { body: { invoice, syntax: 'UBL' } })];
    for (const r of created) expect(r.status, r.text).toBe(200);
    const refused = await call(service, CREATE, {
      body: { invoice: { ...invoice, invoiceNumber: undefined, invoiceIssueDate: undefined } },
    });
    expect(refused.status).toBe(412);
    const notFound = await call(service, `/no-such-route/${created[0]!.json.documentId}`);
    expect(notFound.status).toBe(404);
    const after = await scrape(metricsUrl);

    const moved = (name: string, labels: Record<string, string>) => total(after, name, labels) - total(before, name, labels);
    const ok = { method: 'POST', route: CREATE, status: '200' };
    expect(moved('einvoice_http_requests_total', ok)).toBeGreaterThanOrEqual(2);
    expect(moved('einvoice_http_request_duration_seconds_count', ok)).toBeGreaterThanOrEqual(2);
    expect(moved('einvoice_http_request_duration_seconds_sum', ok)).toBeGreaterThan(0);
    expect(moved('einvoice_http_requests_total', { route: CREATE, status: '412' })).toBeGreaterThanOrEqual(1);
    // Unknown paths are one label value, whatever the path: ids never become label values.
    expect(moved('einvoice_http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(after.some((s) => s.name === 'einvoice_http_requests_total' && s.labels.route!.includes(created[0]!.json.documentId))).toBe(
      false,
    );
    // Business figures, from the worker (the same process here).
    expect(moved('einvoice_documents_created_total', { kind: 'xrechnung-xml' })).toBeGreaterThanOrEqual(2);
    expect(moved('einvoice_validations_total', { format: 'xml', verdict: 'valid' })).toBeGreaterThanOrEqual(2);
    // Node's own figures.
    expect(total(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it("serve the Temporal SDK's worker metrics: the latency of each local step and slots per workload queue", async () => {
    const before = await scrape(temporalMetricsUrl);
    expect((await call(service, CREATE, { body: { invoice } })).status).toBe(200);
    const after = await scrape(temporalMetricsUrl);
    const moved = (name: string, labels: Record<string, string>) => total(after, name, labels) - total(before, name, labels);
    // An XML creation runs as one local activity in one workflow task on the quick queue.
    for (const step of ['createXmlDocument']) {
      expect(
        moved('temporal_local_activity_execution_latency_count', { task_queue: service.taskQueue, activity_type: step }),
        step,
      ).toBeGreaterThanOrEqual(1);
    }
    // One worker per workload class, each with its own slots.
    for (const queue of [service.taskQueue, `${service.taskQueue}-pdf`, `${service.taskQueue}-ocr`, `${service.taskQueue}-mail`]) {
      expect(
        after.some(
          (s) =>
            s.name === 'temporal_worker_task_slots_available' && s.labels.task_queue === queue && s.labels.worker_type === 'ActivityWorker',
        ),
        queue,
      ).toBe(true);
    }
  });

  it('include every metric the Grafana dashboard (deploy/grafana-dashboard.json) queries', async () => {
    // Steps dispatched through the server (the PDF queue's), and the workflow task that follows them, declare their families.
    const invoicePdf64 = Buffer.from(await samplePdf(invoiceSchema.parse(invoice))).toString('base64');
    expect((await call(service, '/api/v1/zugferd/createZugferdFromJson', { body: { invoice, invoicePdf64 } })).status).toBe(200);
    const dashboard = JSON.parse(readFileSync(path.join(repoRoot, 'deploy/grafana-dashboard.json'), 'utf8')) as {
      panels: Array<{ targets?: Array<{ expr: string }> }>;
    };
    const queried = new Set(
      dashboard.panels
        .flatMap((p) => p.targets ?? [])
        .flatMap((t) => t.expr.match(/\b(?:einvoice|temporal|process|nodejs)_[a-z0-9_]+/g) ?? []),
    );
    // A family is declared by its TYPE line even before it has samples (the connectors' counters in a process without routes).
    const declared = new Set<string>();
    for (const url of [metricsUrl, temporalMetricsUrl]) {
      for (const m of (await (await fetch(url)).text()).matchAll(/^# TYPE (\S+) (\w+)$/gm)) {
        declared.add(m[1]!);
        if (m[2] === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) declared.add(m[1]! + suffix);
      }
    }
    expect([...queried].filter((name) => !declared.has(name))).toEqual([]);
    expect(queried.size).toBeGreaterThan(10);
  });

  it('answer only /metrics on the metrics port', async () => {
    const res = await fetch(metricsUrl.replace('/metrics', '/health'));
    expect(res.status).toBe(404);
    const ok = await fetch(metricsUrl);
    expect(ok.headers.get('content-type')).toContain('text/plain');
  });
});
