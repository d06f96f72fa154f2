import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOMParser, type Element } from '@xmldom/xmldom';

/**
 * Runs the Java reference validators that scripts/setup-validators.sh puts in
 * .tools/java (veraPDF; the Mustang CLI with --judges) and turns their output into small verdict objects, so test
 * suites can use them as judges for what our own code produces.
 *
 * The KoSIT validator is not offered here: neither its jar nor the XRechnung
 * scenario configuration can be obtained from the package registries this
 * project can reach; scripts/lib/kosit.ts runs it from ../shared/tools/kosit.
 */

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const javaDir = path.join(repoRoot, '.tools', 'java');
export const mustangJar = path.join(javaDir, 'Mustang-CLI.jar');
const veraPdfLib = path.join(javaDir, 'verapdf', 'lib');

export function mustangAvailable(): boolean {
  return existsSync(mustangJar);
}

export function veraPdfAvailable(): boolean {
  return existsSync(veraPdfLib);
}

interface JavaRun {
  code: number;
  stdout: string;
  stderr: string;
}

function runJava(args: string[], timeoutMs: number): Promise<JavaRun> {
  // A scratch working directory, because both tools may drop log or report
  // files next to where they run.
  const cwd = mkdtempSync(path.join(tmpdir(), 'java-validator-'));
  return new Promise((resolve, reject) => {
    execFile('java', args, { cwd, timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      rmSync(cwd, { recursive: true, force: true });
      if (error && typeof error.code !== 'number') {
        reject(new Error(`java ${args.slice(0, 3).join(' ')} failed: ${error.message}\n${stderr}`));
        return;
      }
      resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
    });
  });
}

// ---------------------------------------------------------------- Mustang

export type MustangStatus = 'valid' | 'invalid';

export interface MustangMessage {
  severity: 'error' | 'fatal' | 'warning' | 'notice';
  /** Mustang's numeric error class, e.g. 24 for EN 16931 schematron, 27 for XRechnung. */
  type?: string;
  /** Rule id taken from Mustang's "[ID BR-xx]" suffix when present. */
  ruleId?: string;
  location?: string;
  message: string;
}

export interface MustangVerdict {
  valid: boolean;
  /** Per part of the input that Mustang looked at. */
  xml?: MustangStatus;
  pdf?: MustangStatus;
  messages: MustangMessage[];
  exitCode: number;
  report: string;
}

const MESSAGE_TAGS = ['fatal', 'error', 'warning', 'notice'] as const;

function sectionStatus(section: Element | undefined): MustangStatus | undefined {
  if (!section) return undefined;
  for (const child of Array.from(section.childNodes)) {
    if (child.nodeType === 1 && (child as Element).tagName === 'summary') {
      return (child as Element).getAttribute('status') === 'valid' ? 'valid' : 'invalid';
    }
  }
  return undefined;
}

export function parseMustangReport(stdout: string, exitCode: number): MustangVerdict {
  const start = stdout.indexOf('<validation');
  const end = stdout.lastIndexOf('</validation>');
  if (start < 0 || end < 0) throw new Error(`Mustang printed no validation report (exit ${exitCode}):\n${stdout.slice(0, 2000)}`);
  const report = stdout.slice(start, end + '</validation>'.length);
  const root = new DOMParser().parseFromString(report, 'text/xml').documentElement;
  if (!root) throw new Error('Mustang report is not XML');
  const children = Array.from(root.childNodes).filter((n): n is Element => n.nodeType === 1);
  const messages: MustangMessage[] = [];
  for (const tag of MESSAGE_TAGS) {
    for (const el of Array.from(root.getElementsByTagName(tag))) {
      const message = (el.textContent ?? '').trim();
      messages.push({
        severity: tag,
        type: el.getAttribute('type') ?? undefined,
        ruleId: /\[ID ([^\]]+)\]/.exec(message)?.[1],
        location: el.getAttribute('location') ?? undefined,
        message,
      });
    }
  }
  const overall = sectionStatus(root);
  const xml = sectionStatus(children.find((c) => c.tagName === 'xml'));
  const pdf = sectionStatus(children.find((c) => c.tagName === 'pdf'));
  return { valid: overall === 'valid', xml, pdf, messages, exitCode, report };
}

/** Validates an XML or PDF e-invoice with the Mustang CLI (EN 16931, XRechnung, Factur-X/ZUGFeRD, PDF/A). */
export async function runMustang(file: string, opts: { timeoutMs?: number } = {}): Promise<MustangVerdict> {
  if (!mustangAvailable()) throw new Error(`${mustangJar} missing: run scripts/setup-validators.sh`);
  const run = await runJava(
    ['-jar', mustangJar, '--action', 'validate', '--source', path.resolve(file), '--no-notices', '--disable-file-logging'],
    opts.timeoutMs ?? 120_000,
  );
  return parseMustangReport(run.stdout, run.code);
}

/** The files Mustang does not accept as valid with a valid PDF part, each with its errors; empty when all pass. */
export async function mustangRejects(files: readonly string[]): Promise<string[]> {
  const rejected: string[] = [];
  for (const file of files) {
    const verdict = await runMustang(file);
    if (!verdict.valid || verdict.pdf !== 'valid')
      rejected.push(`${path.basename(file)}: ${JSON.stringify(verdict.messages.filter((m) => m.severity !== 'warning'))}`);
  }
  return rejected;
}

// ---------------------------------------------------------------- veraPDF

export interface VeraPdfFailedRule {
  specification: string;
  clause: string;
  testNumber: number;
  description: string;
  failedChecks: number;
}

export interface VeraPdfVerdict {
  file: string;
  compliant: boolean;
  profileName: string;
  failedRules: VeraPdfFailedRule[];
}

interface VeraJob {
  itemDetails: { name: string };
  validationResult?: Array<{
    compliant: boolean;
    profileName: string;
    details: {
      ruleSummaries: Array<{ specification: string; clause: string; testNumber: number; description: string; failedChecks: number }>;
    };
  }>;
  taskException?: unknown;
}

/**
 * Validates PDFs against a PDF/A flavour (default 3b, what ZUGFeRD/Factur-X
 * require at minimum). Several files go through one JVM start.
 */
export async function runVeraPdf(files: string[], opts: { flavour?: string; timeoutMs?: number } = {}): Promise<VeraPdfVerdict[]> {
  if (!veraPdfAvailable()) throw new Error(`${veraPdfLib} missing: run scripts/setup-validators.sh`);
  const absolute = files.map((f) => path.resolve(f));
  const run = await runJava(
    [
      '-cp',
      path.join(veraPdfLib, '*'),
      'org.verapdf.apps.GreenfieldCliWrapper',
      '--flavour',
      opts.flavour ?? '3b',
      '--format',
      'json',
      '--maxfailuresdisplayed',
      '1',
      ...absolute,
    ],
    opts.timeoutMs ?? 300_000,
  );
  // Exit 0: all compliant, 1: some not compliant; anything else is a tool failure.
  if (run.code !== 0 && run.code !== 1) throw new Error(`veraPDF exited with ${run.code}:\n${run.stderr.slice(0, 2000)}`);
  const jobs = (JSON.parse(run.stdout) as { report: { jobs: VeraJob[] } }).report.jobs;
  return absolute.map((file) => {
    const job = jobs.find((j) => j.itemDetails.name === file);
    const result = job?.validationResult?.[0];
    if (!result) throw new Error(`veraPDF produced no validation result for ${file}`);
    return {
      file,
      compliant: result.compliant,
      profileName: result.profileName,
      failedRules: result.details.ruleSummaries.map((r) => ({
        specification: r.specification,
        clause: r.clause,
        testNumber: r.testNumber,
        description: r.description,
        failedChecks: r.failedChecks,
      })),
    };
  });
}
