import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wildItems } from '../../scripts/lib/corpus-truth.js';
import { partyExamples } from '../../scripts/lib/party-examples.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { BlobStore } from '../../src/storage/blob-store.js';
import { openStorage, type Storage } from '../../src/storage/index.js';
import { writeInvoiceXml } from '../../src/xml/index.js';
import { fixtureInvoice, invoicePdf } from '../reading/fixtures.js';
import { createTestEnv, SETUP_TIMEOUT_MS, type TestEnv } from '../storage/helpers.js';
import { compileCli, type CompiledCli } from './run-cli.js';

/**
 * The labelled examples of the review queue leave the service as train-models reads real
 * invoices: exported by the examples CLI, they are read back by the training's own reader
 * (wildItems: the embedded XML as the truth, the pages' text layer) and give it examples.
 */

let compiled: CompiledCli;
let env: TestEnv;
let storage: Storage;
let out: string;
const invoice = fixtureInvoice();

/** What a review keeps: the pages, with the invoice XML the person confirmed embedded as factur-x.xml. */
async function reviewedPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.load(await invoicePdf(invoice));
  await pdf.attach(Buffer.from(writeInvoiceXml(invoice, { profile: 'EN16931' })), 'factur-x.xml', { mimeType: 'text/xml' });
  return Buffer.from(await pdf.save());
}

beforeAll(async () => {
  compiled = await compileCli('examples');
  env = await createTestEnv('sqlite');
  storage = await openStorage(env.config);
  out = await mkdtemp(path.join(tmpdir(), 'examples-out-'));
}, SETUP_TIMEOUT_MS);
afterAll(async () => {
  await storage?.close();
  await compiled?.remove();
  await env?.cleanup();
  await rm(out, { recursive: true, force: true });
});

describe('the examples CLI', () => {
  it('exports the kept examples as train-models reads invoices, stops keeping them, and deletes them', async () => {
    const account = await storage.accounts.create('office');
    const blobs = new BlobStore(env.config.dataDir);
    const { key } = await blobs.put(await reviewedPdf());
    const labels = [{ path: 'seller.sellerVatIdentifier', value: 'DE298765432', changed: true }];
    await storage.examples.add({ id: 'review-1', accountId: account.id, blobKey: key, fileName: 'RE 7.pdf', labels, createdAt: 1 });

    const exported = await compiled.run(env.env, 'export', '--account', account.id, '--out', out);
    expect(exported, exported.stderr).toMatchObject({ code: 0, stdout: `1 example(s) in ${path.join(out, account.id)}\n` });
    expect((await readdir(path.join(out, account.id))).sort()).toEqual(['0001-RE_7.labels.json', '0001-RE_7.pdf']);
    expect(JSON.parse(await readFile(path.join(out, account.id, '0001-RE_7.labels.json'), 'utf8'))).toEqual(labels);

    // Read back by the training's reader: one fold per account, the confirmed invoice as the truth.
    const [item, ...more] = wildItems(out);
    expect(more).toEqual([]);
    expect(item!.group).toBe(`wild/${account.id}`);
    const truth = await item!.truth();
    expect(truth).toMatchObject({ invoiceNumber: invoice.invoiceNumber, seller: { sellerName: invoice.seller.sellerName } });
    const examples = partyExamples(truth!, await extractTextLayer(await readFile(item!.file)));
    expect(examples.seller.length).toBeGreaterThan(0);

    expect(await compiled.run(env.env, 'keep', '--account', account.id, '--off')).toMatchObject({ code: 0 });
    expect(await storage.examples.keeps(account.id)).toBe(false);
    expect(await compiled.run(env.env, 'remove', '--account', account.id)).toMatchObject({
      code: 0,
      stdout: `1 example(s) of ${account.id} deleted\n`,
    });
    expect(await storage.examples.list(account.id)).toEqual([]);
    expect(await blobs.delete(key)).toBe(false);
  });

  it('keeps examples by default, for accounts made before the setting too', async () => {
    const account = await storage.accounts.create('default');
    expect(await storage.examples.keeps(account.id)).toBe(true);
  });

  it.each([
    [['export', '--account', 'acc_x'], 2, /--out is required/],
    [['keep', '--account', 'acc_x'], 2, /exactly one of --on and --off/],
    [['frobnicate'], 2, /Usage:/],
    [['remove'], 2, /--account is required/],
    [['remove', '--account', 'acc_unknown'], 1, /No account acc_unknown/],
  ])('refuses %j (exit %i)', async (args, code, message) => {
    const result = await compiled.run(env.env, ...args);
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
    expect(existsSync(path.join(out, 'acc_x'))).toBe(false);
  });
});
