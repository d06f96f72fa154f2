import { spawn } from 'node:child_process';
import { connect } from 'node:net';

/** A server process the tests start on a loopback port and stop again (sshd, the S3 server). */
export interface ChildServer {
  pid: number | undefined;
  stop(): Promise<void>;
}

export async function startChildServer(command: string, args: string[], port: number, env?: NodeJS.ProcessEnv): Promise<ChildServer> {
  const proc = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let output = '';
  const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  proc.stdout.on('data', collect);
  proc.stderr.on('data', collect);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
    await exited;
  };

  const deadline = Date.now() + 30_000;
  while (!(await accepts(port))) {
    if (proc.exitCode !== null || proc.signalCode !== null)
      throw new Error(`${command} exited (${proc.exitCode ?? proc.signalCode}): ${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${command} did not listen on port ${port} within 30 s: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { pid: proc.pid, stop };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
