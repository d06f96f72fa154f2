import { spawn } from 'node:child_process';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tempDir } from '../temp-dirs.js';
import { SRGB_ICC_PROFILE, SRGB_OUTPUT_CONDITION } from './output-intent.js';
import { PdfInputError } from './structure.js';

/**
 * PDF → PDF/A-3b with Ghostscript (Debian package, installed by scripts/setup-pdf.sh).
 *
 * The input is untrusted: Ghostscript runs with -dSAFER (no file access beyond what is
 * permitted, no shell), in a scratch directory, with a wall-clock timeout after which it is
 * killed, and its output is refused above a size limit. It never reaches the network.
 */

export interface ConversionLimits {
  timeoutMs: number;
  maxOutputBytes: number;
}

export const DEFAULT_CONVERSION_LIMITS: ConversionLimits = { timeoutMs: 60_000, maxOutputBytes: 50 * 1024 * 1024 };

export interface ConversionOptions extends Partial<ConversionLimits> {
  /** The output's creation time; with it (and the same input) the output is the same, byte for byte. */
  now?: Date;
}

// pdfmark program that gives the output the sRGB OutputIntent PDF/A requires. Its file name must
// not be PDFA_def.ps: Ghostscript would find its own library copy first.
const OUTPUT_INTENT_PS = `%!
/ICCProfile (${SRGB_ICC_PROFILE}) def
[/_objdef {icc_PDFA} /type /stream /OBJ pdfmark
[{icc_PDFA} << /N 3 >> /PUT pdfmark
[{icc_PDFA} ICCProfile (r) file /PUT pdfmark
[/_objdef {OutputIntent_PDFA} /type /dict /OBJ pdfmark
[{OutputIntent_PDFA} << /Type /OutputIntent /S /GTS_PDFA1 /DestOutputProfile {icc_PDFA}
  /OutputConditionIdentifier (${SRGB_OUTPUT_CONDITION}) /Info (${SRGB_OUTPUT_CONDITION}) >> /PUT pdfmark
[{Catalog} << /OutputIntents [ {OutputIntent_PDFA} ] >> /PUT pdfmark
`;

export async function convertToPdfA3(input: Uint8Array, options: ConversionOptions = {}): Promise<Uint8Array> {
  const limits = { ...DEFAULT_CONVERSION_LIMITS, ...options };
  const dir = await tempDir('gs');
  try {
    const source = path.join(dir, 'input.pdf');
    const intent = path.join(dir, 'output-intent.ps');
    const output = path.join(dir, 'output.pdf');
    await writeFile(source, input);
    await writeFile(intent, OUTPUT_INTENT_PS);
    const args = [
      '-q',
      '-dSAFER',
      '-dBATCH',
      '-dNOPAUSE',
      '-dNOOUTERSAVE',
      '-sDEVICE=pdfwrite',
      '-dPDFA=3',
      // 1: drop what PDF/A forbids (transparency groups it cannot flatten, actions, …) instead of
      // silently writing a non-PDF/A file; the result is checked afterwards anyway.
      '-dPDFACompatibilityPolicy=1',
      '-sColorConversionStrategy=RGB',
      '-dAutoRotatePages=/None',
      `--permit-file-read=${path.dirname(SRGB_ICC_PROFILE)}/`,
      // Relative names: Ghostscript derives the trailer ID from the output's name and the time.
      '-sOutputFile=output.pdf',
      'output-intent.ps',
      'input.pdf',
    ];
    const { code, stderr } = await run('gs', args, dir, limits.timeoutMs, options.now);
    if (code !== 0)
      throw new PdfInputError(`The PDF could not be converted to PDF/A-3: Ghostscript failed (${firstLines(stderr) || `exit ${code}`}).`);
    const size = (await stat(output).catch(() => undefined))?.size ?? 0;
    if (size === 0) throw new PdfInputError('The PDF could not be converted to PDF/A-3: Ghostscript produced no output.');
    if (size > limits.maxOutputBytes)
      throw new PdfInputError(`The PDF/A-3 conversion produced ${size} bytes, above the limit of ${limits.maxOutputBytes}.`);
    return new Uint8Array(await readFile(output));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function run(
  cmd: string,
  args: string[],
  cwd: string,
  timeoutMs: number,
  now: Date | undefined,
): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    // A minimal environment: nothing from the service's own (secrets, proxies) reaches Ghostscript.
    // SOURCE_DATE_EPOCH sets its dates (and so its trailer ID), as in reproducible builds.
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      TMPDIR: cwd,
      ...(now ? { SOURCE_DATE_EPOCH: String(Math.floor(now.getTime() / 1000)) } : {}),
    };
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env });
    let stderr = '';
    const keep = (chunk: Buffer) => {
      if (stderr.length < 8192) stderr += chunk.toString('utf8');
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(
        (err as NodeJS.ErrnoException).code === 'ENOENT' ? new Error('Ghostscript (gs) is not installed: run scripts/setup-pdf.sh') : err,
      );
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') reject(new PdfInputError(`The PDF/A-3 conversion took longer than ${timeoutMs / 1000} s and was stopped.`));
      else resolve({ code: code ?? 1, stderr });
    });
  });
}

function firstLines(text: string): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, 3)
    .join(' ')
    .slice(0, 300);
}
