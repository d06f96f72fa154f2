import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findRepoRoot } from '../validation/artefacts.js';
import type { Finding } from '../validation/index.js';

/**
 * PDF/A-3b conformance by veraPDF, the PDF Association's reference validator, which
 * scripts/setup-validators.sh installs into .tools/java/verapdf. Nothing short of it can say
 * whether a file is PDF/A; without it the service states that only structural checks ran.
 */

export interface VeraPdfResult {
  compliant: boolean;
  findings: Finding[];
  artefact: { name: string; version: string };
}

const TIMEOUT_MS = 120_000;

function veraPdfHome(): string | undefined {
  const dir = path.join(findRepoRoot(), '.tools', 'java', 'verapdf');
  return existsSync(path.join(dir, 'lib')) ? dir : undefined;
}

export function veraPdfInstalled(): boolean {
  return veraPdfHome() !== undefined;
}

interface VeraReport {
  report: {
    jobs: Array<{
      validationResult?: Array<{
        compliant: boolean;
        profileName: string;
        details: { ruleSummaries: Array<{ specification: string; clause: string; testNumber: number; description: string; failedChecks: number }> };
      }>;
      taskException?: Array<{ exceptionMessage?: string }> | { exceptionMessage?: string };
    }>;
  };
}

/** Undefined when veraPDF is not installed. A file veraPDF cannot parse is not compliant. */
export async function checkPdfA3b(bytes: Uint8Array): Promise<VeraPdfResult | undefined> {
  const home = veraPdfHome();
  if (!home) return undefined;
  const artefact = { name: 'veraPDF PDF/A-3B', version: readFileSync(path.join(home, 'version'), 'utf8').trim() };
  const dir = await mkdtemp(path.join(tmpdir(), 'einvoice-verapdf-'));
  try {
    const file = path.join(dir, 'document.pdf');
    await writeFile(file, bytes);
    const stdout = await runJava(['-Xmx768m', '-cp', path.join(home, 'lib', '*'), 'org.verapdf.apps.GreenfieldCliWrapper', '--flavour', '3b', '--format', 'json', '--maxfailuresdisplayed', '1', file], dir);
    const job = (JSON.parse(stdout) as VeraReport).report.jobs[0];
    const result = job?.validationResult?.[0];
    if (!result) {
      const exception = [job?.taskException].flat()[0]?.exceptionMessage ?? 'veraPDF could not parse the file';
      return { compliant: false, artefact, findings: [{ ruleId: 'PDFA-UNREADABLE', severity: 'fatal', message: `PDF/A validation failed: ${exception}`, source: 'pdf' }] };
    }
    const findings: Finding[] = result.details.ruleSummaries.map((rule) => ({
      ruleId: `PDFA-${rule.clause}-${rule.testNumber}`,
      severity: 'error',
      message: `${rule.specification} ${rule.clause} (test ${rule.testNumber}): ${rule.description} (${rule.failedChecks} failed check${rule.failedChecks === 1 ? '' : 's'})`,
      source: 'pdf',
    }));
    return { compliant: result.compliant, artefact, findings };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function runJava(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('java', args, { cwd, timeout: TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      // Exit 1 means "not compliant", which is a result; anything else is a failure of the tool.
      if (error && error.code !== 1) reject(new Error(`veraPDF failed (${error.killed ? `timed out after ${TIMEOUT_MS / 1000} s` : `exit ${String(error.code)}`}): ${stderr.slice(0, 500)}`));
      else resolve(stdout);
    });
  });
}
