import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BlobStorage } from '../../storage/blob-storage.js';
import type { Storage } from '../../storage/index.js';

/**
 * The account's labelled examples (src/storage/labelled-examples.ts) as files: one folder per
 * account under `outDir`, the layout `train-models --wild DIR` reads (each folder a fold of its
 * own): `0001-invoice.pdf`, the pages with the invoice XML a person confirmed embedded, and
 * `0001-invoice.labels.json`, each value the person confirmed (field, value, what was read and
 * where on the page, whether the person changed it).
 */
export async function exportExamples(
  deps: { storage: Pick<Storage, 'examples'>; blobs: BlobStorage },
  accountId: string,
  outDir: string,
): Promise<{ folder: string; files: string[] }> {
  const folder = path.join(outDir, accountId);
  await mkdir(folder, { recursive: true });
  const files: string[] = [];
  for (const [i, example] of (await deps.storage.examples.list(accountId)).entries()) {
    const stem = `${String(i + 1).padStart(4, '0')}-${safeStem(example.fileName)}`;
    await writeFile(path.join(folder, `${stem}.pdf`), await deps.blobs.get(example.blobKey));
    await writeFile(path.join(folder, `${stem}.labels.json`), `${JSON.stringify(example.labels, null, 2)}\n`);
    files.push(`${stem}.pdf`);
  }
  return { folder, files };
}

/** The dropped file's name without its extension, as a file name on any system. */
const safeStem = (fileName: string) =>
  fileName
    .replace(/\.[^.]*$/, '')
    .replace(/[^\w.-]+/g, '_')
    .slice(0, 80) || 'invoice';

/** Deletes the account's examples and their files; answers how many there were. */
export async function removeExamples(deps: { storage: Pick<Storage, 'examples'>; blobs: BlobStorage }, accountId: string): Promise<number> {
  const keys = await deps.storage.examples.remove(accountId);
  for (const key of keys) await deps.blobs.delete(key);
  return keys.length;
}
