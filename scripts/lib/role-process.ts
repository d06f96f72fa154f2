import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot, serviceCommand, type SpawnedService } from './spawn-service.js';

/**
 * One role of the service (EINVOICE_ROLE) as a process of its own beside a spawned service: the
 * same data directory and Temporal server. Tests kill such a process (SIGKILL, as a crash) and
 * start it again to see that nothing is lost or done twice.
 */
export interface RoleProcess {
  child: ChildProcess;
  logFile: string;
  /** SIGKILL, as a crash. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRoleProcess(
  service: SpawnedService,
  role: 'worker' | 'connectors',
  name: string,
  env: Record<string, string> = {},
  nice = 0,
): Promise<RoleProcess> {
  const logFile = path.join(service.dataDir, `${name}.log`);
  const [node, args] = serviceCommand();
  const command = [node, ...args];
  // A lower CPU priority (nice), inherited by the threads and processes it starts.
  const [file, ...argv] = nice > 0 ? ['nice', '-n', String(nice), ...command] : command;
  const child = spawn(file!, argv, {
    cwd: repoRoot,
    env: { ...service.env, ...env, EINVOICE_ROLE: role, TEMPORAL_ADDRESS: service.temporalAddress },
    stdio: ['ignore', openSync(logFile, 'a'), openSync(logFile, 'a')],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  // Logged once every part of the role runs (after 'connectors started' for the connectors).
  while (!readFileSync(logFile, 'utf8').includes('service started')) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`The ${role} process did not start; see ${logFile}:\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { child, logFile, kill: () => end('SIGKILL'), stop: () => end('SIGTERM') };
}

/** The worker (workflows and the operations' activities) of a service spawned with EINVOICE_ROLE=api. */
export function startWorkerProcess(service: SpawnedService, name = 'worker'): Promise<RoleProcess> {
  return startRoleProcess(service, 'worker', name);
}
