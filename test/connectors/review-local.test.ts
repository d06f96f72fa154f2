import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectPdf } from '../../src/pdf/inspect.js';
import { spawnService, type SpawnedService } from '../../scripts/lib/spawn-service.js';
import { startWorkerProcess, type RoleProcess } from '../../scripts/lib/role-process.js';
import { fixtureInvoice, invoicePdf } from '../reading/fixtures.js';
import { startConnectorsProcess } from '../support/connectors-process.js';
import { waitFor } from '../support/wait-for.js';

/**
 * The review queue end to end, as an office uses it: the API, the worker and the folder
 * connectors as processes of their own; an invoice PDF that prints no tax id of its seller is
 * dropped into a local route, refused, found in the queue over the API, corrected there, and its
 * ZUGFeRD PDF appears in the route's output with the input filed into done/.
 */

const today = () => new Date().toISOString().slice(0, 10);

describe('the review queue of a connector route (local folder, real service)', () => {
  let base: string;
  let service: SpawnedService;
  let worker: RoleProcess;
  let connectors: RoleProcess;
  const share = (...parts: string[]) => path.join(base, 'share', ...parts);
  const files = async (...folder: string[]) => (existsSync(share(...folder)) ? (await readdir(share(...folder))).sort() : []);
  const api = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const res = await fetch(`${service.url}${url}`, {
      method,
      headers: { Authorization: `Bearer ${service.token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'review-route-'));
    await mkdir(share('in'), { recursive: true });
    service = await spawnService({ name: 'review', env: { EINVOICE_ROLE: 'api' } });
    worker = await startWorkerProcess(service);
    const yaml = `sources:
  box: { kind: local, root: ${share()}, pollSeconds: 1 }
routes:
  - name: inbox
    account: ${service.accountId}
    source: box
    folder: in
    files: "*.pdf"
    operation: createZugferdFromPdf
    output: { folder: out }
    minAgeSeconds: 1
`;
    connectors = await startConnectorsProcess(service, yaml);
  }, 240_000);

  afterAll(async () => {
    await connectors?.stop();
    await worker?.stop();
    await service?.stop();
    await rm(base, { recursive: true, force: true });
  });

  it(
    'holds a refused PDF until a person adds what it lacks, then files the e-invoice where the route files results',
    { timeout: 240_000 },
    async () => {
      const invoice = fixtureInvoice();
      const { sellerVatIdentifier, ...seller } = invoice.seller;
      delete seller.sellerTaxRegistrationIdentifier;
      delete seller.sellerLegalRegistrationIdentifier;
      delete seller.sellerAdditionalLegalInformation;
      await writeFile(share('in', 'RE-no-tax-id.pdf'), await invoicePdf({ ...invoice, seller }));

      const queue = await waitFor('the entry in the review queue', async () => {
        const { body } = await api('GET', '/api/v2/reviews');
        return body.reviews?.length === 1 && body.reviews;
      });
      expect(queue[0]).toMatchObject({ route: 'inbox', file: 'RE-no-tax-id.pdf' });
      expect(await files('error')).toEqual(['RE-no-tax-id.pdf', 'RE-no-tax-id.report.json', 'RE-no-tax-id.report.txt']);

      const entry = await api('GET', `/api/v2/reviews/${queue[0].id}`);
      expect(entry).toMatchObject({ status: 200 });
      expect(entry.body.refusal.code).toBe('FIELDS_MISSING');
      expect(entry.body.refusal.fields.map((f: { bt: string }) => f.bt)).toContain('BT-31');
      expect(entry.body.invoice.seller.sellerName).toBe(invoice.seller.sellerName);
      expect(entry.body.fields['seller.sellerName'].place).toMatchObject({ page: 1 });

      // Sent back as read, it is refused again and stays.
      const again = await api('POST', `/api/v2/reviews/${queue[0].id}/invoice`, { invoice: entry.body.invoice });
      expect(again).toMatchObject({ status: 200, body: { created: false, refusal: { code: 'FIELDS_MISSING' } } });

      const corrected = { ...entry.body.invoice, seller: { ...entry.body.invoice.seller, sellerVatIdentifier } };
      const created = await api('POST', `/api/v2/reviews/${queue[0].id}/invoice`, { invoice: corrected });
      expect(created).toMatchObject({ status: 200, body: { created: true } });

      const pdf = await waitFor('out/RE-no-tax-id-zugferd.pdf', async () =>
        (await files('out')).includes('RE-no-tax-id-zugferd.pdf') ? readFile(share('out', 'RE-no-tax-id-zugferd.pdf')) : undefined,
      );
      expect((await inspectPdf(pdf, { withText: false })).invoice?.xml).toContain(`<ram:ID schemeID="VA">${sellerVatIdentifier}</ram:ID>`);
      await waitFor('the report in out/', async () => (await files('out')).includes('RE-no-tax-id.report.txt'));
      expect(await readFile(share('out', 'RE-no-tax-id.report.txt'), 'utf8')).toMatch(/Refused at first \(FIELDS_MISSING\)/);
      expect(await files('done', today())).toEqual(['RE-no-tax-id.pdf', 'RE-no-tax-id.refusal.json', 'RE-no-tax-id.refusal.txt']);
      expect(await files('error')).toEqual([]);
      expect((await api('GET', '/api/v2/reviews')).body.reviews).toEqual([]);
      expect((await api('GET', `/api/v2/reviews/${queue[0].id}`)).status).toBe(404);
    },
  );
});
