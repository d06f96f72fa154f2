import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { z } from 'zod';
import { createApp } from '../../src/api/app.js';
import { defineRoute } from '../../src/api/route.js';
import { registry } from '../../src/metrics/metrics.js';
import { startMetricsServer } from '../../src/metrics/server.js';
import { scrape, total } from '../support/prometheus.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The HTTP metrics of the front end (src/metrics/http.ts) around a route whose answer the test holds back. */
describe('HTTP metrics', () => {
  it('show a request in flight while it runs, then count it by route pattern and status', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const route = defineRoute({
      method: 'GET',
      path: '/things/:id',
      operationId: 'thing',
      summary: 'a thing',
      tags: ['test'],
      auth: 'none',
      query: z.object({}).passthrough(),
      responses: { 200: { description: 'ok' } },
      handle: async () => {
        await held;
        return { body: { ok: true } };
      },
    });
    const app = createApp({
      routes: [route],
      log: pino({ level: 'silent' }),
      authenticate: async () => ({ accountId: 'a', tokenId: 't' }),
    });
    const server = http.createServer(app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const metrics = await startMetricsServer(registry, '127.0.0.1', 0);
    try {
      const labels = { method: 'GET', route: '/things/:id', status: '200' };
      const before = await scrape(metrics.url);
      const answer = fetch(`${base}/things/4711`);
      const deadline = Date.now() + 5_000;
      let during = await scrape(metrics.url);
      while (
        total(during, 'einvoice_http_requests_in_flight') <= total(before, 'einvoice_http_requests_in_flight') &&
        Date.now() < deadline
      )
        during = await scrape(metrics.url);
      expect(total(during, 'einvoice_http_requests_in_flight')).toBe(total(before, 'einvoice_http_requests_in_flight') + 1);
      expect(total(during, 'einvoice_http_requests_total', labels)).toBe(total(before, 'einvoice_http_requests_total', labels));
      release();
      expect((await answer).status).toBe(200);
      await fetch(`${base}/nothing/here`);
      const after = await scrape(metrics.url);
      expect(total(after, 'einvoice_http_requests_in_flight')).toBe(total(before, 'einvoice_http_requests_in_flight'));
      expect(total(after, 'einvoice_http_requests_total', labels) - total(before, 'einvoice_http_requests_total', labels)).toBe(1);
      expect(
        total(after, 'einvoice_http_request_duration_seconds_count', labels) -
          total(before, 'einvoice_http_request_duration_seconds_count', labels),
      ).toBe(1);
      expect(
        total(after, 'einvoice_http_requests_total', { route: 'unmatched', status: '404' }) -
          total(before, 'einvoice_http_requests_total', { route: 'unmatched', status: '404' }),
      ).toBe(1);
      expect(after.some((s) => s.labels.route?.includes('4711'))).toBe(false);
    } finally {
      release();
      await metrics.close();
      await new Promise((r) => server.close(r));
    }
  });
});
