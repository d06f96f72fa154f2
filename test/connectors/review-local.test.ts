import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { wildItems } from '../../scripts/lib/corpus-truth.js';
import { inspectPdf } from '../../src/pdf/inspect.js';
import { repoRoot, spawnService, type SpawnedService } from '../../scripts/lib/spawn-service.js';
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
const run = promisify(execFile);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The fixture invoice without any tax id of its seller: the conversion refuses it (FIELDS_MISSING, BT-31). */
async function withoutSellerTaxId(invoiceNumber: string) {
  const invoice = fixtureInvoice();
  const { sellerVatIdentifier, ...seller } = invoice.seller;
  delete seller.sellerTaxRegistrationIdentifier;
  delete seller.sellerLegalRegistrationIdentifier;
  delete seller.sellerAdditionalLegalInformation;
  return {
    pdf: await invoicePdf({ ...invoice, invoiceNumber, seller }),
    sellerVatIdentifier: sellerVatIdentifier!,
    sellerName: seller.sellerName,
  };
}

/** Chromium on the page at /app/review, signed in with the keyboard. */
async function inChromium(service: SpawnedService, body: (page: Page) => Promise<void>): Promise<void> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: scripts/setup-browser.sh (run by scripts/setup-test.sh) installs Debian's chromium.`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
  try {
    const page = await (await browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${service.url}/app/review`);
    await page.getByLabel('Your API token').focus();
    await page.keyboard.type(service.token);
    await page.keyboard.press('Enter');
    await body(page);
  } finally {
    await browser.close();
  }
}

/**
 * Opens the entry with the keyboard (the page opened at /app/review puts the focus on the first
 * entry's button) and types the seller's VAT id into the field the refusal names, which comes
 * first, marked and focused, beside the page with the boxes of the values read.
 */
async function reviewByKeyboard(page: Page, entry: string, sellerVatIdentifier: string): Promise<void> {
  await page.getByRole('button', { name: entry }).waitFor();
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(entry);
  await page.keyboard.press('Enter');
  const first = page.locator('#review-fields .field').first();
  await first.waitFor();
  expect(await first.getAttribute('class')).toContain('unsure');
  expect(await first.locator('input').getAttribute('data-path')).toBe('seller.sellerVatIdentifier');
  await expect
    .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.dataset.path))
    .toBe('seller.sellerVatIdentifier');
  await page.locator('#review .box').first().waitFor();
  await page.keyboard.type(sellerVatIdentifier);
}

describe('the review queue of a connector route (local folder, real service)', () => {
  let base: string;
  let service: SpawnedService;
  let worker: RoleProcess;
  let connectors: RoleProcess;
  const share = (...parts: string[]) => path.join(base, 'share', ...parts);
  const files = async (...folder: string[]) => (existsSync(share(...folder)) ? (await readdir(share(...folder))).sort() : []);
  /** One of the service's operator tools, on its data. */
  const cli = (tool: string, ...args: string[]) =>
    run(process.execPath, [path.join(repoRoot, 'dist/src/cli', tool), ...args], { env: { ...process.env, ...service.env } });
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
      const { pdf: dropped, sellerVatIdentifier, sellerName } = await withoutSellerTaxId('RE-2025-0117');
      await writeFile(share('in', 'RE-no-tax-id.pdf'), dropped);

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
      expect(entry.body.invoice.seller.sellerName).toBe(sellerName);
      expect(entry.body.fields['seller.sellerName'].place).toMatchObject({ page: 1 });

      // Sent back as read, it is refused again and stays.
      const again = await api('POST', `/api/v2/reviews/${queue[0].id}/invoice`, { invoice: entry.body.invoice });
      expect(again).toMatchObject({ status: 200, body: { created: false, refusal: { code: 'FIELDS_MISSING' } } });

      // Created, and sent by e-mail as the person asked (the service has no SMTP server here: the outbox).
      const corrected = { ...entry.body.invoice, seller: { ...entry.body.invoice.seller, sellerVatIdentifier } };
      await cli('accounts.js', 'allow-sender', '--account', service.accountId, '--sender', 'rechnung@acme.example');
      const transport = {
        type: 'email',
        useTransport: true,
        sender: 'rechnung@acme.example',
        receiver: 'einkauf@customer.example',
        subject: 'Rechnung {invoicenumber}',
        message: 'Anbei die Rechnung {invoicenumber}.',
      };
      const created = await api('POST', `/api/v2/reviews/${queue[0].id}/invoice`, { invoice: corrected, transport });
      expect(created).toMatchObject({ status: 200, body: { created: true, transport: { status: 'sent' } } });
      const eml = await readFile(path.join(service.dataDir, 'outbox', (await readdir(path.join(service.dataDir, 'outbox')))[0]!), 'utf8');
      expect(eml).toContain('Subject: Rechnung RE-2025-0117');
      expect(eml).toMatch(/filename="?RE-no-tax-id-zugferd\.pdf/);

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

      // The correction is kept as a labelled example; exported, the training's reader takes the confirmed values as the truth.
      const exported = path.join(base, 'examples');
      await waitFor('the labelled example', async () => {
        const { stdout } = await cli('examples.js', 'export', '--account', service.accountId, '--out', exported);
        return stdout.startsWith('1 example(s)');
      });
      const [example] = wildItems(exported);
      expect(await example!.truth()).toMatchObject({ seller: { sellerVatIdentifier } });
      const labels = JSON.parse(await readFile(example!.file.replace(/\.pdf$/, '.labels.json'), 'utf8')) as Array<{
        path: string;
        changed: boolean;
      }>;
      // Every value confirmed is labelled; the person changed the one the refusal asked for, and where the seller's name was read is known.
      expect(labels.filter((l) => l.changed)).toEqual([{ path: 'seller.sellerVatIdentifier', value: sellerVatIdentifier, changed: true }]);
      expect(labels.find((l) => l.path === 'seller.sellerName')).toMatchObject({ value: sellerName, read: sellerName, place: { page: 1 } });
    },
  );

  it(
    'is worked through in chromium with the keyboard alone: open the entry, type what is missing, Enter; the e-invoice lands in out/ and validates',
    { timeout: 240_000 },
    async () => {
      const { pdf: dropped, sellerVatIdentifier } = await withoutSellerTaxId('RE-2025-0118');
      await writeFile(share('in', 'RE-browser.pdf'), dropped);
      await waitFor('the entry in the review queue', async () => (await api('GET', '/api/v2/reviews')).body.reviews?.length === 1);

      await inChromium(service, async (page) => {
        await reviewByKeyboard(page, 'Review: RE-browser.pdf', sellerVatIdentifier);
        if (process.env.APP_SCREENSHOT_DOCS === '1') {
          // The queue, the page with its boxes and the first fields: the review as a person sees it.
          const clip = await page.evaluate(() => {
            const r = document.getElementById('reviews')!.getBoundingClientRect();
            return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: Math.min(r.height, 1000) };
          });
          await page.screenshot({ path: path.join(repoRoot, 'docs', 'review.png'), clip, fullPage: true });
        }
        await page.keyboard.press('Enter');
        await page.getByText(/Created and delivered to the route/).waitFor({ timeout: 60_000 });
        await page.getByText('Nothing waits for review.').waitFor();
        // The queue's statistics count it (with the first case's, created over the API without a time).
        const stats = async () => {
          await page.getByRole('button', { name: 'Reload the queue' }).click();
          return page.locator('#reviews-stats').textContent();
        };
        await expect.poll(stats, { timeout: 20_000 }).toMatch(/^Last 30 days: 2 created from the queue; a review took \d+ s \(median\)\.$/);
      });

      const pdf = await waitFor('out/RE-browser-zugferd.pdf', async () =>
        (await files('out')).includes('RE-browser-zugferd.pdf') ? readFile(share('out', 'RE-browser-zugferd.pdf')) : undefined,
      );
      const report = await api('POST', '/api/v1/zugferd/validateZugferdPdf', { zugferdFile64: pdf.toString('base64') });
      expect(report).toMatchObject({ status: 200, body: { isValid: true, numberOfErrors: 0 } });
      await waitFor('the input in done/', async () => (await files('done', today())).includes('RE-browser.pdf'));
      expect(await files('error')).toEqual([]);
    },
  );

  it(
    "holds an API call's refused conversion, where the account chose so, until a person corrects it in chromium; the e-invoice is linked",
    { timeout: 240_000 },
    async () => {
      const { pdf, sellerVatIdentifier } = await withoutSellerTaxId('RE-2025-0119');
      const convert = () =>
        api('POST', '/createZugferdFromPdf', { fileBase64: Buffer.from(pdf).toString('base64'), fileName: 'RE-api.pdf' });
      // By default a refused call is only answered.
      const answered = await convert();
      expect(answered).toMatchObject({ status: 422, body: { error: { reason: 'FIELDS_MISSING' } } });
      expect(answered.body.error.detail).not.toMatch(/review queue/);
      expect((await api('GET', '/api/v2/reviews')).body.reviews).toEqual([]);

      await cli('accounts.js', 'review-api-refusals', '--account', service.accountId, '--on');
      const refused = await convert();
      expect(refused).toMatchObject({ status: 422, body: { error: { reason: 'FIELDS_MISSING' } } });
      const id = /review queue as (review-\S+) /.exec(refused.body.error.detail)?.[1];
      expect(id).toBeDefined();
      await waitFor('the entry in the review queue', async () => (await api('GET', '/api/v2/reviews')).body.reviews?.[0]?.id === id);

      const entry = await api('GET', `/api/v2/reviews/${id}`);
      expect(entry).toMatchObject({ status: 200, body: { origin: 'api', fileName: 'RE-api.pdf', refusal: { code: 'FIELDS_MISSING' } } });
      expect(entry.body.route).toBeUndefined();
      const file = await fetch(`${service.url}/api/v2/reviews/${id}/file`, { headers: { Authorization: `Bearer ${service.token}` } });
      expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(pdf))).toBe(true);

      // Worked through in the browser as a connector's entry is; the created e-invoice is linked there.
      let link: string | null = null;
      await inChromium(service, async (page) => {
        await reviewByKeyboard(page, `Review: ${id}`, sellerVatIdentifier);
        await page.keyboard.press('Enter');
        await page.getByText(/^Created; document /).waitFor({ timeout: 60_000 });
        link = await page.locator('#review a').first().getAttribute('href');
      });
      const download = await fetch(link!);
      expect(download.status).toBe(200);
      const xml = (await inspectPdf(Buffer.from(await download.arrayBuffer()), { withText: false })).invoice?.xml;
      expect(xml).toContain(`<ram:ID schemeID="VA">${sellerVatIdentifier}</ram:ID>`);
      await waitFor('the queue empty', async () => (await api('GET', '/api/v2/reviews')).body.reviews?.length === 0);
    },
  );
});
