import { execFile } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';
import { freePort, repoRoot, spawnService } from '../../scripts/lib/spawn-service.js';
import { scrape, total } from '../support/prometheus.js';
import { invoiceFixture } from '../xml/fixtures.js';

const invoice = invoiceFixture('01-standard-19');

it('finishes in-flight requests on SIGTERM, then exits 0 and stops its Temporal dev server', async () => {
  const service = await spawnService({ name: 'shutdown', env: { METRICS_PORT: String(await freePort()) } });
  const requests = Array.from({ length: 6 }, () =>
    fetch(`${service.url}/api/v1/zugferd/createXinvoiceFromJson`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ invoice }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { valid?: boolean } })),
  );
  await untilServerHolds(6, `http://127.0.0.1:${service.env.METRICS_PORT}/metrics`);
  const exitCode = await service.stop();
  const results = await Promise.all(requests);
  expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
  expect(results.every((r) => r.body.valid === true)).toBe(true);
  expect(exitCode).toBe(0);
  // The dev server was a child of the service: its port is free again.
  await expect(fetch(`http://${service.temporalAddress}`)).rejects.toThrow();
}, 120_000);

/**
 * Waits until the front end has taken `count` requests (being answered or answered): a SIGTERM
 * sent before the kernel hands a connection over would test the client, not the shutdown.
 */
async function untilServerHolds(count: number, metricsUrl: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    const samples = await scrape(metricsUrl);
    const taken = total(samples, 'einvoice_http_requests_in_flight') + total(samples, 'einvoice_http_requests_total', { method: 'POST' });
    if (taken >= count) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the service did not take ${count} requests within 30 s`);
}

it('refuses to start with an invalid configuration, naming each bad variable', async () => {
  const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      [path.join(repoRoot, 'dist/src/main.js')],
      { env: { PATH: process.env.PATH, PORT: 'eighty', DATABASE_URL: 'mysql://db/x' } },
      (_err, _out, stderr) => resolve({ code: child.exitCode, stderr }),
    );
  });
  expect(result.code).toBe(78);
  expect(result.stderr).toContain('PORT');
  expect(result.stderr).toContain('DATABASE_URL: must be a postgres');
});
