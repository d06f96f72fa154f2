import { mkdtempSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The folders the service's helpers keep in the system's temporary folder: tesseract's language
 * links, each veraPDF process's reports, each Ghostscript run. Each is removed by its owner when
 * it ends; a process that is killed (SIGKILL, out of memory) cannot, so every folder's name
 * carries its owner's process id, and a service starting removes the folders of owners that
 * are gone.
 */

export type TempPurpose = 'tessdata' | 'verapdf' | 'gs';

const PREFIX = 'einvoice-';
/** `einvoice-<purpose>-<pid>-<random>`; before process ids were part of it, `einvoice-<purpose>-<random>`. */
const NAME = /^einvoice-(tessdata|verapdf|gs)-(?:(\d+)-)?[A-Za-z0-9]{6}$/;
/** A folder of the old form is taken for orphaned after this long: no helper lives that long without being restarted. */
const OLD_FORM_AGE_MS = 24 * 60 * 60 * 1000;

const prefix = (purpose: TempPurpose) => path.join(tmpdir(), `${PREFIX}${purpose}-${process.pid}-`);

export function tempDirSync(purpose: TempPurpose): string {
  return mkdtempSync(prefix(purpose));
}

export function tempDir(purpose: TempPurpose): Promise<string> {
  return mkdtemp(prefix(purpose));
}

/** Removes the folders whose owner process is gone; returns their names. Folders of live processes, and anything else, stay. */
export async function removeOrphanedTempDirs(dir = tmpdir(), now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(dir).catch(() => [])) {
    const m = NAME.exec(name);
    if (!m) continue;
    const full = path.join(dir, name);
    const orphaned = m[2] ? !alive(Number(m[2])) : now - ((await stat(full).catch(() => undefined))?.mtimeMs ?? now) > OLD_FORM_AGE_MS;
    if (!orphaned) continue;
    await rm(full, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
