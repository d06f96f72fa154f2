import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSigningSecret, signDownload, verifyDownload } from '../../src/auth/signed-url.js';
import { REPO_ROOT } from '../storage/helpers.js';

const SECRET = 'k'.repeat(32);
const DOC = '6f1c1f0e-8d6b-4a53-9d8e-0d3f5c2b9a11';
const NOW = 1_800_000_000;

function params(query: string): { expires: number; signature: string } {
  const p = new URLSearchParams(query);
  return { expires: Number(p.get('expires')), signature: p.get('signature') ?? '' };
}

describe('signed download links', () => {
  it('produce expires and signature parameters that verify until the expiry', () => {
    const query = signDownload(DOC, NOW + 60, SECRET);
    expect(query).toMatch(/^expires=1800000060&signature=[A-Za-z0-9_-]{43}$/);
    const { expires, signature } = params(query);
    expect(verifyDownload(DOC, expires, signature, SECRET, NOW)).toBe(true);
    expect(verifyDownload(DOC, expires, signature, SECRET, NOW + 59)).toBe(true);
  });

  it('expire at the expiry second', () => {
    const { expires, signature } = params(signDownload(DOC, NOW + 60, SECRET));
    expect(verifyDownload(DOC, expires, signature, SECRET, NOW + 60)).toBe(false);
    expect(verifyDownload(DOC, expires, signature, SECRET, NOW + 3600)).toBe(false);
  });

  it('reject tampering with the document, the expiry, the signature or the secret', () => {
    const { expires, signature } = params(signDownload(DOC, NOW + 60, SECRET));
    expect(verifyDownload(DOC.replace('6f', '7f'), expires, signature, SECRET, NOW)).toBe(false);
    expect(verifyDownload(DOC, expires + 1, signature, SECRET, NOW)).toBe(false);
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    expect(verifyDownload(DOC, expires, flipped, SECRET, NOW)).toBe(false);
    expect(verifyDownload(DOC, expires, `${signature}=`, SECRET, NOW)).toBe(false);
    expect(verifyDownload(DOC, expires, `${signature}!!`, SECRET, NOW)).toBe(false);
    expect(verifyDownload(DOC, expires, signature.slice(0, -1), SECRET, NOW)).toBe(false);
    expect(verifyDownload(DOC, expires, '', SECRET, NOW)).toBe(false);
    expect(verifyDownload(DOC, expires, signature, 'x'.repeat(32), NOW)).toBe(false);
  });

  it('reject a non-integer expiry', () => {
    const { signature } = params(signDownload(DOC, NOW + 60, SECRET));
    expect(verifyDownload(DOC, Number.NaN, signature, SECRET, NOW)).toBe(false);
    expect(verifyDownload(DOC, NOW + 60.5, signature, SECRET, NOW)).toBe(false);
    expect(() => signDownload(DOC, 1.5, SECRET)).toThrow(RangeError);
  });
});

describe('loadSigningSecret', () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'einv-signing-'));
  });

  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('uses SIGNING_SECRET when configured, without touching the data dir', async () => {
    expect(loadSigningSecret({ dataDir, signingSecret: SECRET })).toBe(SECRET);
    await expect(stat(path.join(dataDir, 'signing.key'))).rejects.toThrow();
  });

  it('otherwise creates a random secret once, mode 0600, and reuses it', async () => {
    const first = loadSigningSecret({ dataDir, signingSecret: undefined });
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const file = path.join(dataDir, 'signing.key');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(loadSigningSecret({ dataDir, signingSecret: undefined })).toBe(first);
    expect((await readFile(file, 'utf8')).trim()).toBe(first);
  });

  it('creates the data dir if needed', () => {
    expect(loadSigningSecret({ dataDir: path.join(dataDir, 'new', 'dir'), signingSecret: undefined })).toHaveLength(43);
  });

  it('refuses an unusable key file instead of silently replacing it', async () => {
    await writeFile(path.join(dataDir, 'signing.key'), 'short\n');
    expect(() => loadSigningSecret({ dataDir, signingSecret: undefined })).toThrow(/no usable signing secret/);
  });

  it('gives every process the same secret when several start at once', async () => {
    const run = promisify(execFile);
    const script = `import { loadSigningSecret } from ${JSON.stringify(path.join(REPO_ROOT, 'src/auth/signed-url.ts'))};
      process.stdout.write(loadSigningSecret({ dataDir: process.argv[1], signingSecret: undefined }));`;
    // Node strips the types of this import-free module itself (no build needed).
    const secrets = await Promise.all(
      Array.from({ length: 8 }, () => run(process.execPath, ['--input-type=module', '-e', script, dataDir]).then((r) => r.stdout)),
    );
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]).toHaveLength(43);
  });
});
