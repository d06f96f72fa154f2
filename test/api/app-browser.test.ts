import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/spawn-service.js';
import { isErrorFinding } from '../../src/validation/index.js';
import { writeInvoiceXml } from '../../src/xml/index.js';
import { fixtureInvoice, invoicePdf } from '../reading/fixtures.js';
import { byName, call, ownAccountToken } from './client.js';

/**
 * The page at /app in a real browser: Debian's chromium (installed by scripts/setup-browser.sh),
 * driven by playwright-core against the running service. Screenshots of every step go to
 * .data/screenshots/app (not committed); APP_SCREENSHOT_DOCS=1 also refreshes docs/app.png.
 * Vitest's expect has no locator matchers, so waits are the locators' own (waitFor) or expect.poll.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = path.join(repoRoot, '.data', 'screenshots', 'app');
const service = byName('sqlite');
const invoice = fixtureInvoice('01-standard-19.json');

let browser: Browser;
/** The person's own account, so the page's job list shows only what these tests did. */
let token: string;
beforeAll(async () => {
  token = await ownAccountToken(service, 'browser tests');
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: scripts/setup-browser.sh (run by scripts/setup-test.sh) installs Debian's chromium.`);
  await mkdir(SHOTS, { recursive: true });
  // As root (CI, containers) chromium runs only without its sandbox.
  browser = await chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
});
afterAll(async () => {
  await browser?.close();
});

async function open(locale: 'en-GB' | 'de-DE' = 'en-GB'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(`${service.url}/app`);
  return { context, page };
}

/** The value at a page path such as `invoiceLine[0].invoicedQuantityUnitOfMeasureCode`. */
const valueAt = (root: unknown, p: string): unknown =>
  p
    .split(/[.[\]]+/)
    .filter(Boolean)
    .reduce<any>((node, key) => node?.[/^\d+$/.test(key) ? Number(key) : key], root);

const text = (page: Page, selector: string) => page.locator(selector).first().textContent();
const visible = (page: Page, selector: string, timeout = 30_000) => page.locator(selector).first().waitFor({ state: 'visible', timeout });

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

/** Types the token with the keyboard and submits it with Enter, as a person would. */
async function signIn(page: Page): Promise<void> {
  await page.getByLabel('Your API token').focus();
  await page.keyboard.type(token);
  await page.keyboard.press('Enter');
}

/** A drop on the drop zone, with the file made inside the page, as the browser makes it from a drag. */
async function dropFile(page: Page, name: string, type: string, bytes: Uint8Array): Promise<void> {
  const transfer = await page.evaluateHandle(
    ({ name, type, data }) => {
      const t = new DataTransfer();
      t.items.add(new File([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], name, { type }));
      return t;
    },
    { name, type, data: Buffer.from(bytes).toString('base64') },
  );
  await page.dispatchEvent('#drop', 'drop', { dataTransfer: transfer });
}

describe('the page at /app in chromium', () => {
  it("refuses a wrong token, in the reader's language, and shows nothing else", async () => {
    const { context, page } = await open('de-DE');
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    await page.getByLabel('Ihr API-Token').fill('einv_this-token-does-not-exist');
    await page.getByRole('button', { name: 'Token verwenden' }).click();
    await expect.poll(() => text(page, '#token-status')).toBe('Das Token wurde abgelehnt: unbekannt, fehlerhaft oder widerrufen.');
    expect(await page.locator('#work').isHidden()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('einvoice-token'))).toBeNull();
    await shot(page, '1-wrong-token');
    await context.close();
  });

  it('refuses a 12 MB file with the clear message, before uploading it', async () => {
    const { context, page } = await open();
    await signIn(page);
    await expect.poll(() => text(page, '#token-status')).toBe('Token accepted.');
    const posted: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && posted.push(r.url()));
    await page.getByLabel(/Choose or drop a file/).setInputFiles({
      name: 'scan.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(12_000_000 - 9, 0x20)]),
    });
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/^The file is 12 MB; at most 11 MB are accepted\./);
    expect(posted).toEqual([]);
    await shot(page, '2-file-too-large');
    await context.close();
  });

  it('drops an invalid XML: the report shows its rule ids; the readable view and the report PDF follow', { timeout: 120_000 }, async () => {
    const xml = writeInvoiceXml({
      ...invoice,
      buyerReference: undefined,
      documentTotals: { ...invoice.documentTotals, invoiceTotalAmountWithVat: '1.00' },
    });
    const expected = await call(service, '/api/v1/zugferd/validateXinvoiceXml', { body: { xinvoiceXML: xml } });
    const errorIds = [
      ...new Set<string>(
        expected.json.findings.filter((f: { severity: string }) => f.severity === 'error').map((f: { ruleId: string }) => f.ruleId),
      ),
    ];
    expect(errorIds).toEqual(expect.arrayContaining(['BR-CO-15', 'BR-DE-15']));

    const { context, page } = await open();
    await signIn(page);
    await visible(page, '#work');
    await dropFile(page, 'rechnung.xml', 'application/xml', Buffer.from(xml));
    await visible(page, '#report .verdict', 60_000);
    expect(await text(page, '#report .verdict')).toBe(`Invalid: ${errorIds.length} error(s).`);
    const shown = await page.locator('#report .rule-id').allTextContents();
    for (const id of errorIds) expect(shown).toContain(id);
    expect(await text(page, '#report [data-group="xrechnung"] h2')).toContain('XRechnung rules');
    await shot(page, '3-invalid-xml-report');

    await page.getByRole('button', { name: 'Readable view', exact: true }).click();
    await visible(page, '#view h1');
    expect(await text(page, '#view h1')).toBe(`Invoice ${invoice.invoiceNumber}`);
    expect(await text(page, '#view')).toContain(invoice.seller!.sellerName!);
    await shot(page, '4-readable-view');

    await page.getByRole('button', { name: 'Report as PDF' }).click();
    const link = page.getByRole('link', { name: /rechnung-report\.pdf/ });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const bytes = await readFile(await download.path());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    await context.close();
  });

  it(
    'drops a plain PDF: fields with confidence and origin, one edited, ZUGFeRD built; the downloaded PDF validates',
    { timeout: 240_000 },
    async () => {
      const { context, page } = await open();
      await signIn(page);
      await visible(page, '#work');
      await page
        .getByLabel(/Choose or drop a file/)
        .setInputFiles({ name: 'rechnung.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await invoicePdf(invoice)) });

      const number = page.locator('input[data-path="invoiceNumber"]');
      await number.waitFor({ state: 'visible', timeout: 120_000 });
      expect(await number.inputValue()).toBe(invoice.invoiceNumber);
      expect(await text(page, '#fields .meta')).toMatch(/^(please check: )?confidence \d+ % · (printed|inferred|default)$/);
      // The values to check come first, marked: the confidences never rise before the first sure field.
      const metas = await page.locator('#fields .meta').allTextContents();
      const unsure = metas.map((m) => m.startsWith('please check'));
      expect(unsure.indexOf(false)).toBeGreaterThanOrEqual(0);
      expect(unsure.slice(unsure.indexOf(false))).not.toContain(true);
      for (const m of metas) if (m.startsWith('please check')) expect(Number(/(\d+) %/.exec(m)![1])).toBeLessThan(90);
      // Labelled (label for=id) with the business term's name; a line's fields also say which line.
      expect(await page.getByLabel('Invoice number (BT-1)', { exact: true }).inputValue()).toBe(invoice.invoiceNumber);
      expect(await page.getByLabel('Invoiced quantity (BT-129) · Invoice line 1', { exact: true }).count()).toBe(1);
      // The page is drawn beside the fields with a box over the words each value was read from.
      await page.locator('.page-view canvas').waitFor({ state: 'visible', timeout: 30_000 });
      expect(await page.locator('.page-view .box').count()).toBeGreaterThan(5);
      await number.focus();
      const numberBox = page.locator('.page-view .box[data-path="invoiceNumber"]');
      expect(await numberBox.getAttribute('class')).toMatch(/\bactive\b/);
      const box = await numberBox.boundingBox();
      const sheet = await page.locator('.page-view canvas').boundingBox();
      expect(box!.width).toBeGreaterThan(0);
      expect(box!.y).toBeGreaterThanOrEqual(sheet!.y);
      expect(box!.y + box!.height).toBeLessThanOrEqual(sheet!.y + sheet!.height);
      // With no field focused (Escape leaves one), a box leads to its field.
      await page.keyboard.press('Escape');
      await page.locator('.page-view .box[data-path="documentTotals.invoiceTotalAmountWithVat"]').click({ force: true });
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.dataset.path)).toBe(
        'documentTotals.invoiceTotalAmountWithVat',
      );
      // A word pressed on the page goes into the focused field; the next one is added to it.
      await number.fill('');
      await page.locator(`.page-view .word[data-text="${invoice.invoiceNumber}"]`).first().click();
      expect(await number.inputValue()).toBe(invoice.invoiceNumber);
      await page.locator('.page-view .word[data-text="Rechnung"]').first().click();
      expect(await number.inputValue()).toBe(`${invoice.invoiceNumber} Rechnung`);
      await shot(page, '5-plain-pdf-fields');
      if (process.env.APP_SCREENSHOT_DOCS === '1') {
        await mkdir(path.join(repoRoot, 'docs'), { recursive: true });
        await page.screenshot({ path: path.join(repoRoot, 'docs', 'app.png'), clip: { x: 0, y: 0, width: 1280, height: 900 } });
      }

      const edited = `${invoice.invoiceNumber}-K`;
      await number.fill(edited);
      await page.locator('#format').selectOption('zugferd');
      await page.locator('#profile').selectOption('EN16931');
      const create = page.getByRole('button', { name: 'Create', exact: true });
      const link = page.getByRole('link', { name: /rechnung-zugferd\.pdf/ });
      const problem = page.locator('#problem p').first();
      // The reading misses what the page does not print plainly; the service names it (INVOICE_INCOMPLETE, or a broken
      // rule's business term), the page asks for it with an empty input, and the person fills it in from the paper.
      for (let round = 0; ; round++) {
        await create.click();
        await Promise.race([link.waitFor({ state: 'visible', timeout: 180_000 }), problem.waitFor({ state: 'visible', timeout: 180_000 })]);
        const empty = await page.$$eval('#fields input[data-path]', (inputs) =>
          (inputs as HTMLInputElement[]).filter((i) => i.value === '').map((i) => i.dataset.path!),
        );
        if (!empty.length) break;
        expect(round).toBeLessThan(3);
        expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.dataset.path)).toBe(empty[0]);
        await shot(page, `6-asked-round-${round + 1}`);
        for (const p of empty) await page.locator(`#fields input[data-path="${p}"]`).fill(String(valueAt(invoice, p)));
      }
      await link.waitFor({ state: 'visible', timeout: 180_000 });
      expect(await text(page, '#outcome')).toBe(`Created; validation found no errors.Download: rechnung-zugferd.pdf`);
      await shot(page, '7-built-zugferd');
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      const pdf = await readFile(await download.path());

      const report = await call(service, '/api/v1/zugferd/validateZugferdPdf', { body: { zugferdFile64: pdf.toString('base64') } });
      expect(report.status, report.text).toBe(200);
      expect(report.json.findings.filter(isErrorFinding)).toEqual([]);
      expect(report.json).toMatchObject({ isValid: true, profile: 'EN16931' });
      const extracted = await call(service, '/api/v1/zugferd/extractXinvoiceFromZugferdToJson', {
        body: { zugferd64: pdf.toString('base64') },
      });
      expect(extracted.json.invoice.invoiceNumber).toBe(edited);

      // Temporal's visibility store follows the workflow with a short delay: refresh until the list shows the build.
      await expect
        .poll(
          async () => {
            await page.getByRole('button', { name: 'Refresh' }).click();
            return text(page, '#jobs-list');
          },
          { timeout: 15_000, interval: 1_000 },
        )
        .toMatch(/createZugferdFromJson\s*completed · valid/);
      expect(await page.locator('#jobs-list a').first().getAttribute('href')).toMatch(/\/namespaces\/einvoice-test\/workflows\//);
      await shot(page, '8-recent-jobs');
      await context.close();
    },
  );

  it("labels the fields read with the business terms' German names on the German page", { timeout: 180_000 }, async () => {
    const { context, page } = await open('de-DE');
    await page.getByLabel('Ihr API-Token').fill(token);
    await page.getByRole('button', { name: 'Token verwenden' }).click();
    await visible(page, '#work');
    await page
      .getByLabel(/Datei wählen oder ablegen/)
      .setInputFiles({ name: 'rechnung.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await invoicePdf(invoice)) });
    const number = page.getByLabel('Rechnungsnummer (BT-1)', { exact: true });
    await number.waitFor({ state: 'visible', timeout: 120_000 });
    expect(await number.inputValue()).toBe(invoice.invoiceNumber);
    expect(await page.getByLabel('Name des Verkäufers (BT-27)', { exact: true }).count()).toBe(1);
    expect(await page.getByLabel('Menge (BT-129) · Rechnungsposition 1', { exact: true }).count()).toBe(1);
    expect(await text(page, '#fields')).not.toMatch(/Invoice number|Seller name|Invoiced quantity/);
    await shot(page, '9-german-fields');
    await context.close();
  });
});

/** The page must be usable without a pointer: every control the flows need is reachable with Tab. */
it('reaches the token field, the file chooser and the language switch with the keyboard', async () => {
  const { context, page } = await open();
  const reached = new Set<string>();
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    reached.add(
      await page.evaluate(
        () => document.activeElement?.id || document.activeElement?.getAttribute('hreflang') || document.activeElement?.tagName || '',
      ),
    );
  }
  expect(reached).toContain('token');
  expect(reached).toContain('de');
  await signIn(page);
  await visible(page, '#work');
  await page.locator('#token').focus();
  const after = new Set<string>();
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    after.add(await page.evaluate(() => document.activeElement?.id ?? ''));
  }
  expect(after).toContain('file');
  await context.close();
});
