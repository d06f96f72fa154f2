import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { scanPage, type ScanProfile } from '../../scripts/lib/scan-simulation.js';
import { fixtureInvoice, grayTiff, invoicePdf, pdfBitmaps } from '../reading/fixtures.js';
import { byName } from './client.js';

const run = promisify(execFile);

/**
 * Every upload gets an answer (issue 29): degraded scans, single-page JPEGs and multi-page TIFFs
 * of up to 3 MB, base64 in JSON, sent by Node's fetch two and three at a time to the sync
 * analysis and to the one-call conversion, from a client process on the Node the machine ships.
 * A result or an error envelope counts; a connection closed without an answer (fetch throwing,
 * `UND_ERR_SOCKET`) is what must not happen.
 */

const UPLOADS = 40;
/** A scanner's output at its worst setting the service should still answer: 170 dpi, askew, noisy, JPEG 55. */
const DEGRADED: ScanProfile = { dpi: 170, skewDegrees: 1.2, noise: 14, jpegQuality: 55 };

interface Answer {
  status: number;
  /** The error envelope's code, for an answer that is not a result. */
  code?: string;
}

interface Upload {
  path: string;
  name: string;
  body: string;
}

async function uploads(): Promise<Upload[]> {
  const names = readdirSync(path.join(import.meta.dirname, '../fixtures/invoices')).filter((n) => n.endsWith('.json'));
  const out: Upload[] = [];
  for (let i = 0; out.length < UPLOADS; i++) {
    const pdf = await invoicePdf(fixtureInvoice(names[i % names.length]!));
    // Every third a two-page TIFF as a fax or sheet feeder writes it: 2 × 1.4 MB of grey at 120 dpi.
    const tiff = i % 3 === 2;
    const dpi = tiff ? 120 : DEGRADED.dpi;
    const [first, second] = await pdfBitmaps(pdf, dpi);
    const bytes = tiff ? grayTiff([first!, second ?? first!], { x: dpi, y: dpi }) : await scanPage(first!, DEGRADED, i + 1);
    const file = Buffer.from(bytes).toString('base64');
    // Every fourth goes to the conversion, the others to the analysis.
    const convert = i % 4 === 3;
    out.push({
      path: convert ? '/createZugferdFromPdf' : '/createJSONFromAnalysedPdf',
      name: `${tiff ? 'tiff' : 'jpeg'} ${i + 1}`,
      // The conversion names its output after the upload; the analysis takes the file alone.
      body: JSON.stringify({ fileBase64: file, ...(convert ? { fileName: tiff ? `scan-${i + 1}.tif` : `scan-${i + 1}.jpg` } : {}) }),
    });
  }
  return out;
}

/** The Node the machine ships (its fetch is the client of the report), else this one. */
const CLIENT_NODE = ['/usr/bin/node', process.execPath].find((p) => existsSync(p))!;
const CLIENT = path.join(import.meta.dirname, 'upload-client.mjs');

/** Sends the uploads `inFlight` at a time from a client process; returns each answer's status and code, or why there was none. */
async function sendAll(url: string, token: string, list: Upload[], inFlight: number): Promise<Array<Answer | string>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'uploads-'));
  try {
    const uploads = list.map((u, i) => {
      const file = path.join(dir, `${i}.json`);
      writeFileSync(file, u.body);
      return { path: u.path, name: u.name, file };
    });
    const manifest = path.join(dir, 'manifest.json');
    writeFileSync(manifest, JSON.stringify({ url, token, uploads }));
    const { stdout } = await run(CLIENT_NODE, [CLIENT, manifest, String(inFlight)], { maxBuffer: 1 << 20 });
    return JSON.parse(stdout) as Array<Answer | string>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('uploads of degraded scans', () => {
  it('are all answered, two and three in flight', { timeout: 900_000 }, async () => {
    const service = byName('sqlite');
    const list = await uploads();
    const sizes = list.map((u) => (u.body.length * 3) / 4);
    expect(Math.max(...sizes)).toBeGreaterThan(2_000_000);
    const half = list.length / 2;
    const answers = [
      ...(await sendAll(service.url, service.token, list.slice(0, half), 2)),
      ...(await sendAll(service.url, service.token, list.slice(half), 3)),
    ];
    const dropped = answers.filter((a) => typeof a === 'string');
    expect(dropped).toEqual([]);
    expect(answers).toHaveLength(UPLOADS);
    // Answers, not errors of the service: the analyses succeed, the conversions succeed or refuse with a reason.
    for (const [i, a] of answers.entries())
      expect([200, 422], `${list[i]!.name} to ${list[i]!.path}: ${JSON.stringify(a)}`).toContain((a as Answer).status);
    expect(answers.filter((a, i) => (a as Answer).status === 200 && list[i]!.path === '/createJSONFromAnalysedPdf').length).toBeGreaterThan(
      half,
    );
  });
});
