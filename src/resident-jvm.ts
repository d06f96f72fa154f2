import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/**
 * A Java process that lives beside ours and answers requests over its standard streams (veraPDF's
 * server mode, the schematron server): started once, because a JVM needs seconds to start and to
 * warm up, and killed with our process even when nobody stopped it. It never keeps an idle
 * process alive; a pending request keeps the event loop busy through its own timer.
 */
export class ResidentJvm {
  private static readonly live = new Set<ResidentJvm>();
  private static exitHookInstalled = false;

  readonly child: ChildProcessWithoutNullStreams;
  /** Why it is gone, once it is. */
  exited: Error | undefined;
  private stderrTail = '';

  /**
   * `onExit` hears once why the process ended (or could not start); `cleanup` runs after it
   * ended, also when our process exits first.
   */
  constructor(name: string, args: string[], opts: { cwd?: string; onExit: (err: Error) => void; cleanup?: () => void }) {
    if (!ResidentJvm.exitHookInstalled) {
      ResidentJvm.exitHookInstalled = true;
      process.on('exit', () => {
        for (const jvm of ResidentJvm.live) {
          jvm.child.kill('SIGKILL');
          jvm.cleanup?.();
        }
      });
    }
    this.cleanup = opts.cleanup;
    this.child = spawn('java', args, { stdio: ['pipe', 'pipe', 'pipe'], ...(opts.cwd ? { cwd: opts.cwd } : {}) });
    ResidentJvm.live.add(this);
    this.child.unref();
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) (stream as unknown as { unref?: () => void }).unref?.();
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-2000);
    });
    this.child.stdin.on('error', () => {}); // EPIPE after the JVM died; the exit handler reports it
    const end = (err: Error) => {
      this.exited ??= err;
      opts.onExit(err);
    };
    this.child.on('error', (err) => end(new Error(`${name} could not be started: ${err.message}`)));
    this.child.on('exit', (code, signal) =>
      end(new Error(`${name} ended (${signal ?? `exit ${String(code)}`}): ${this.stderrTail.trim().slice(-500)}`)),
    );
  }

  private readonly cleanup: (() => void) | undefined;

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return !this.exited;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.ref(); // whoever awaits this must not see the event loop end first
      this.child.kill('SIGKILL');
      await exited;
    }
    this.cleanup?.();
    ResidentJvm.live.delete(this);
  }
}
