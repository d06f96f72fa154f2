import { existsSync } from 'node:fs';
import path from 'node:path';
import { ResidentJvm } from '../resident-jvm.js';
import { findRepoRoot } from './artefacts.js';

/**
 * The official schematrons in Saxon-HE on a JVM (SchematronServer.java, which
 * scripts/setup-validators.sh compiles into .tools/java/saxon), for the long-running worker:
 * once warm, HotSpot applies the EN 16931 and XRechnung rules to an invoice in a few
 * milliseconds, where SaxonJS in this process needs 40-70 ms of the event loop. Short-lived
 * callers (tests, scripts) keep SaxonJS, which starts faster.
 *
 * One process serves every request: they are numbered, the JVM runs them on its own threads,
 * and answers come back by number. A process that dies, or a request that takes longer than
 * the timeout, fails the requests in flight (the activity's retry asks again) and the next
 * request starts a fresh process.
 */

export interface SvrlEntry {
  kind: string;
  id: string;
  flag: string;
  location: string;
  text: string;
}

export interface SaxonHeOptions {
  /** Rule set key → its XSLT file. */
  stylesheets: Record<string, string>;
  /** Per request, including the start of the JVM and the compilation of the stylesheet on first use. */
  timeoutMs: number;
  maxHeapMb: number;
  /** Threads the JVM applies rules on. */
  threads: number;
}

/** A rule set whose XSLT raised a dynamic error: the rules were not applied. */
export class SchematronProcessingError extends Error {
  override readonly name = 'SchematronProcessingError';
}

const UNIT = '\u001f';
const RECORD = '\u001e';

export function saxonHeHome(): string | undefined {
  const dir = path.join(findRepoRoot(), '.tools', 'java', 'saxon');
  return existsSync(path.join(dir, 'classes', 'SchematronServer.class')) ? dir : undefined;
}

export class SaxonHe {
  private process: SaxonHeProcess | undefined;
  private stopped = false;

  constructor(
    private readonly home: string,
    private readonly opts: SaxonHeOptions,
  ) {}

  /** The failed asserts and successful reports of the rule set `key` on `xml`. */
  async entries(key: string, xml: string): Promise<SvrlEntry[]> {
    if (this.stopped) throw new Error('Saxon-HE is shutting down');
    if (!this.process?.alive) this.process = new SaxonHeProcess(this.home, this.opts);
    const proc = this.process;
    try {
      return parseEntries(await proc.request(key, Buffer.from(xml, 'utf8'), this.opts.timeoutMs));
    } catch (err) {
      // A timeout leaves the process in an unknown state: the next request gets a fresh one.
      if (!(err instanceof SchematronProcessingError)) await proc.stop();
      throw err;
    }
  }

  get pid(): number | undefined {
    return this.process?.alive ? this.process.pid : undefined;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.process?.stop();
  }
}

function parseEntries(body: string): SvrlEntry[] {
  return body
    .split(RECORD)
    .filter((r) => r !== '')
    .map((record) => {
      const [kind = '', id = '', flag = '', location = '', text = ''] = record.split(UNIT);
      return { kind, id, flag, location, text };
    });
}

class SaxonHeProcess {
  private readonly jvm: ResidentJvm;
  private readonly pending = new Map<number, { resolve: (body: string) => void; reject: (err: Error) => void }>();
  private buffered = Buffer.alloc(0);
  private seq = 0;

  constructor(home: string, opts: SaxonHeOptions) {
    this.jvm = new ResidentJvm(
      'Saxon-HE',
      [
        `-Xmx${opts.maxHeapMb}m`,
        // The official stylesheets recurse deeply on long invoices.
        '-Xss8m',
        `-Dthreads=${opts.threads}`,
        '-cp',
        `${path.join(home, 'classes')}${path.delimiter}${path.join(home, 'lib', '*')}`,
        'SchematronServer',
        ...Object.entries(opts.stylesheets).map(([key, file]) => `${key}=${file}`),
      ],
      {
        onExit: (err) => {
          for (const w of this.pending.values()) w.reject(err);
          this.pending.clear();
        },
      },
    );
    this.jvm.child.stdout.on('data', (chunk: Buffer) => this.onStdout(chunk));
  }

  get pid(): number | undefined {
    return this.jvm.pid;
  }

  get alive(): boolean {
    return this.jvm.alive;
  }

  request(key: string, xml: Buffer, timeoutMs: number): Promise<string> {
    if (this.jvm.exited) return Promise.reject(this.jvm.exited);
    const id = ++this.seq;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`Saxon-HE did not apply ${key} within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (body) => {
          clearTimeout(timer);
          resolve(body);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      });
      this.jvm.child.stdin.write(`${id} ${key} ${xml.length}\n`);
      this.jvm.child.stdin.write(xml);
    });
  }

  stop(): Promise<void> {
    return this.jvm.stop();
  }

  /** Answers: a line "id status length", then length bytes. */
  private onStdout(chunk: Buffer): void {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    for (;;) {
      const eol = this.buffered.indexOf(0x0a);
      if (eol < 0) return;
      const [id, status, length] = this.buffered.subarray(0, eol).toString('utf8').split(' ');
      const end = eol + 1 + Number(length);
      if (this.buffered.length < end) return;
      const body = this.buffered.subarray(eol + 1, end).toString('utf8');
      this.buffered = this.buffered.subarray(end);
      const waiter = this.pending.get(Number(id));
      this.pending.delete(Number(id));
      if (status === 'ok') waiter?.resolve(body);
      else waiter?.reject(new SchematronProcessingError(body));
    }
  }
}
