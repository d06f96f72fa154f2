import { execFile } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot, spawnService } from '../../scripts/lib/spawn-service.js';
import { invoiceFixture } from '../xml/fixtures.js';

const invoice = invoiceFixture('01-standard-19');

it('finishes in-flight requests on SIGTERM, then exits 0 and stops its Temporal dev server', async () => {
  const service = await spawnService({ name: 'shutdown' });
  const requests = Array.from({ length: 6 }, () =>
    fetch(`${service.url}/api/v1/zugferd/createXinvoiceFromJson`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ invoice }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { valid?: boolean } })),
  );
  await new Promise((r) => setTimeout(r, 150)); // let the requests reach the server
  const exitCode = await service.stop();
  const results = await Promise.all(requests);
  expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
  expect(results.every((r) => r.body.valid === true)).toBe(true);
  expect(exitCode).toBe(0);
  // The dev server was a child of the service: its port is free again.
  await expect(fetch(`http://${service.temporalAddress}`)).rejects.toThrow();
}, 120_000);

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
