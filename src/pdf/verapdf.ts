import { existsSync, readFileSync, rmSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ResidentJvm } from '../resident-jvm.js';
import { tempDirSync } from '../temp-dirs.js';
import { findRepoRoot } from '../validation/artefacts.js';
import type { Finding } from '../validation/index.js';

/**
 * PDF/A-3b conformance by veraPDF, the PDF Association's reference validator, which
 * scripts/setup-validators.sh installs into .tools/java/verapdf. Nothing short of it can say
 * whether a file is PDF/A; without it the service states that only structural checks ran.
 *
 * Starting a JVM and loading veraPDF costs about 4 s, far more than validating one of our
 * files, so veraPDF runs as long-lived processes: the CLI's own server mode (`--servermode`,
 * hidden from --help; veraPDF's `--processes N` drives its child processes the same way). The
 * process takes one file path per stdin line, validates it with exactly the options a one-off
 * CLI run would use, writes the same JSON report to a temporary file and prints that file's
 * path on stdout. A pool of such processes (VERAPDF_POOL_SIZE, default 1) starts on first use;
 * each process validates one file at a time and further requests wait in line. A request that
 * takes longer than the timeout, or a process that dies, costs that one request: the process
 * is killed and the next request starts a fresh one.
 */

export interface VeraPdfResult {
  compliant: boolean;
  findings: Finding[];
  artefact: { name: string; version: string };
}

export interface VeraPdfPoolOptions {
  /** Processes validating at the same time. */
  size: number;
  /** Per request, including the start of a process when the request needs a fresh one. */
  timeoutMs: number;
  /** -Xmx of each JVM. */
  maxHeapMb: number;
  /** A process is replaced after this many files, so nothing it accumulates can grow without bound. */
  maxRequestsPerProcess: number;
}

export const DEFAULT_VERAPDF_POOL: VeraPdfPoolOptions = { size: 1, timeoutMs: 120_000, maxHeapMb: 768, maxRequestsPerProcess: 1000 };

/** The options of the one-off CLI runs this replaced; keeping them keeps the reports identical. */
const CLI_ARGS = ['--flavour', '3b', '--format', 'json', '--maxfailuresdisplayed', '1'];

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
        details: {
          ruleSummaries: Array<{ specification: string; clause: string; testNumber: number; description: string; failedChecks: number }>;
        };
      }>;
      taskException?: Array<{ exceptionMessage?: string }> | { exceptionMessage?: string };
    }>;
  };
}

/**
 * Undefined when veraPDF is not installed. A file veraPDF cannot parse is not compliant
 * (finding PDFA-UNREADABLE); a timeout or a failure of veraPDF itself rejects.
 */
export async function checkPdfA3b(bytes: Uint8Array): Promise<VeraPdfResult | undefined> {
  const home = veraPdfHome();
  if (!home) return undefined;
  // The version is read once, not on every request.
  installedArtefact ??= { name: 'veraPDF PDF/A-3B', version: readFileSync(path.join(home, 'version'), 'utf8').trim() };
  pool ??= new VeraPdfPool(home, options);
  const report = await pool.validate(bytes);
  return resultFromReport(report, installedArtefact);
}

/** Our verdict and findings from veraPDF's JSON report of one file. */
export function resultFromReport(json: string, artefact: VeraPdfResult['artefact']): VeraPdfResult {
  const job = (JSON.parse(json) as VeraReport).report.jobs[0];
  if (!job) throw new Error('veraPDF failed: its report names no file');
  const result = job.validationResult?.[0];
  if (!result) {
    const exception = [job.taskException].flat()[0]?.exceptionMessage ?? 'veraPDF could not parse the file';
    return {
      compliant: false,
      artefact,
      findings: [{ ruleId: 'PDFA-UNREADABLE', severity: 'fatal', message: `PDF/A validation failed: ${exception}`, source: 'pdf' }],
    };
  }
  // Sorted by clause and test: veraPDF lists failed rules in hash order, which differs between a
  // fresh JVM and one that has validated other files before.
  const rules = [...result.details.ruleSummaries].sort((a, b) => compareClauses(a.clause, b.clause) || a.testNumber - b.testNumber);
  const findings: Finding[] = rules.map((rule) => ({
    ruleId: `PDFA-${rule.clause}-${rule.testNumber}`,
    severity: 'error',
    message: `${rule.specification} ${rule.clause} (test ${rule.testNumber}): ${rule.description} (${rule.failedChecks} failed check${rule.failedChecks === 1 ? '' : 's'})`,
    source: 'pdf',
  }));
  return { compliant: result.compliant, artefact, findings };
}

/** "6.2.11.4.1" before "6.2.11.5", "6.8" after "6.2.11.5". */
function compareClauses(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? -1) - (y[i] ?? -1);
    if (d) return d;
  }
  return a.localeCompare(b);
}

let options: VeraPdfPoolOptions = DEFAULT_VERAPDF_POOL;
let pool: VeraPdfPool | undefined;
let installedArtefact: VeraPdfResult['artefact'] | undefined;

/** Sets the pool's options (the service does, from VERAPDF_POOL_SIZE); a running pool is stopped first. */
export async function configureVeraPdf(next: Partial<VeraPdfPoolOptions>): Promise<void> {
  await stopVeraPdf();
  options = { ...DEFAULT_VERAPDF_POOL, ...next };
}

/** Ends the veraPDF processes (service shutdown); requests still waiting are refused. The next check starts a new pool. */
export async function stopVeraPdf(): Promise<void> {
  const running = pool;
  pool = undefined;
  await running?.stop();
}

/** Pool statistics, for tests and diagnostics. */
export function veraPdfPoolStats(): ReturnType<VeraPdfPool['stats']> | undefined {
  return pool?.stats();
}

// ---------------------------------------------------------------- the pool

export class VeraPdfPool {
  private readonly idle: VeraPdfProcess[] = [];
  private readonly waiting: Array<{ resolve: (p: VeraPdfProcess | undefined) => void; reject: (err: Error) => void }> = [];
  private processes = 0;
  private busy = 0;
  private started = 0;
  private stopped = false;
  private readonly all = new Set<VeraPdfProcess>();

  constructor(
    private readonly home: string,
    private readonly opts: VeraPdfPoolOptions,
  ) {
    if (!(opts.size >= 1)) throw new Error(`veraPDF pool size must be at least 1, not ${opts.size}`);
  }

  /** veraPDF's JSON report of the file. */
  async validate(bytes: Uint8Array, timeoutMs = this.opts.timeoutMs): Promise<string> {
    const proc = await this.acquire();
    let healthy = false;
    try {
      const report = await proc.validate(bytes, timeoutMs);
      healthy = true;
      return report;
    } finally {
      this.release(proc, healthy && proc.requests < this.opts.maxRequestsPerProcess);
    }
  }

  stats() {
    return {
      processes: this.processes,
      started: this.started,
      busy: this.busy,
      waiting: this.waiting.length,
      pids: [...this.all].map((p) => p.pid),
    };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const w of this.waiting.splice(0)) w.reject(new Error('veraPDF is shutting down'));
    await Promise.all([...this.all].map((p) => p.stop()));
    this.idle.length = 0;
  }

  private async acquire(): Promise<VeraPdfProcess> {
    if (this.stopped) throw new Error('veraPDF is shutting down');
    for (let idle = this.idle.pop(); idle; idle = this.idle.pop()) {
      if (idle.alive) {
        this.busy++;
        return idle;
      }
      // Died while idle (killed from outside, say): not this request's problem.
      this.all.delete(idle);
      this.processes--;
      void idle.stop();
    }
    if (this.processes < this.opts.size) {
      this.processes++;
      this.busy++;
      return this.spawn();
    }
    // Every process is busy: wait for one to come back (or for a slot a dead one left).
    const proc = await new Promise<VeraPdfProcess | undefined>((resolve, reject) => this.waiting.push({ resolve, reject }));
    return proc ?? this.spawn();
  }

  private spawn(): VeraPdfProcess {
    this.started++;
    const proc = new VeraPdfProcess(this.home, this.opts.maxHeapMb);
    this.all.add(proc);
    return proc;
  }

  /** Back to the pool, or (dead, timed out, worn out) ended and its slot given to the next request. */
  private release(proc: VeraPdfProcess, reusable: boolean): void {
    if (!reusable || this.stopped) {
      this.all.delete(proc);
      void proc.stop();
    }
    const next = this.waiting.shift();
    if (next) {
      // The slot passes on: the same process, or the right to start a new one.
      next.resolve(reusable && !this.stopped ? proc : undefined);
      return;
    }
    this.busy--;
    if (reusable && !this.stopped) this.idle.push(proc);
    else this.processes--;
  }
}

// ---------------------------------------------------------------- one process

/**
 * One `veraPDF --servermode` JVM. It prints the path of a report file once at start (for the
 * empty file list it was started with) and then once per path it reads; reports go to a
 * private temporary folder, removed with the process.
 */
class VeraPdfProcess {
  requests = 0;
  private readonly jvm: ResidentJvm;
  private readonly dir: string;
  private readonly reportPrefix: string;
  private readonly ready: Promise<void>;
  /** Resolvers of the report lines still to come, in order: the start line, then one per request. */
  private readonly lineWaiters: Array<{ resolve: (file: string) => void; reject: (err: Error) => void }> = [];
  private stdoutRest = '';
  private seq = 0;

  constructor(home: string, maxHeapMb: number) {
    const dir = tempDirSync('verapdf');
    this.dir = dir;
    this.reportPrefix = path.join(dir, 'tempReport');
    this.jvm = new ResidentJvm(
      'veraPDF',
      [
        `-Xmx${maxHeapMb}m`,
        `-Djava.io.tmpdir=${dir}`,
        '-cp',
        path.join(home, 'lib', '*'),
        'org.verapdf.apps.GreenfieldCliWrapper',
        '--servermode',
        ...CLI_ARGS,
      ],
      {
        cwd: dir,
        onExit: (err) => {
          for (const w of this.lineWaiters.splice(0)) w.reject(err);
        },
        // Its reports and veraPDF's log.
        cleanup: () => rmSync(dir, { recursive: true, force: true }),
      },
    );
    this.jvm.child.stdout.setEncoding('utf8').on('data', (chunk: string) => this.onStdout(chunk));
    this.ready = this.nextReport().then((file) => rm(file, { force: true }));
    this.ready.catch(() => {}); // the request that waits on it sees the error
  }

  get pid(): number | undefined {
    return this.jvm.pid;
  }

  get alive(): boolean {
    return this.jvm.alive;
  }

  async validate(bytes: Uint8Array, timeoutMs: number): Promise<string> {
    this.requests++;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`veraPDF failed (timed out after ${timeoutMs / 1000} s)`)), timeoutMs);
    });
    const input = path.join(this.dir, `document-${++this.seq}.pdf`);
    try {
      return await Promise.race([timeout, this.run(input, bytes)]);
    } catch (err) {
      await this.stop(); // whatever state it is in, it is not trusted with another file
      throw err;
    } finally {
      clearTimeout(timer);
      await rm(input, { force: true });
    }
  }

  private async run(input: string, bytes: Uint8Array): Promise<string> {
    await this.ready;
    await writeFile(input, bytes);
    if (this.jvm.exited) throw this.jvm.exited;
    const report = this.nextReport();
    this.jvm.child.stdin.write(`${input}\n`);
    const file = await report;
    try {
      return await readFile(file, 'utf8');
    } finally {
      await rm(file, { force: true });
    }
  }

  stop(): Promise<void> {
    return this.jvm.stop();
  }

  private nextReport(): Promise<string> {
    if (this.jvm.exited) return Promise.reject(this.jvm.exited);
    return new Promise((resolve, reject) => this.lineWaiters.push({ resolve, reject }));
  }

  private onStdout(chunk: string): void {
    const lines = (this.stdoutRest + chunk).split('\n');
    this.stdoutRest = lines.pop()!;
    for (const line of lines.map((l) => l.trim())) {
      // Only report paths answer requests; veraPDF prints nothing else there, but be strict.
      if (line.startsWith(this.reportPrefix)) this.lineWaiters.shift()?.resolve(line);
    }
  }
}
