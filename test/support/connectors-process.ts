import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot, type SpawnedService } from '../../scripts/lib/spawn-service.js';

/**
 * The folder connectors as their own process (EINVOICE_ROLE=connectors), beside a spawned
 * service: the same data directory and Temporal server, its own configuration file. Tests kill
 * it (SIGKILL) and start it again to see that nothing is lost or done twice.
 */
export interface ConnectorsProcess {
  child: ChildProcess;
  logFile: string;
  /** SIGKILL, as a crash. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export async function startConnectorsProcess(service: SpawnedService, configYaml: string, name = 'connectors'): Promise<ConnectorsProcess> {
  const configFile = path.join(service.dataDir, `${name}.yaml`);
  writeFileSync(configFile, configYaml);
  const logFile = path.join(service.dataDir, `${name}.log`);
  const env = { ...service.env, EINVOICE_ROLE: 'connectors', EINVOICE_CONNECTORS: configFile, TEMPORAL_ADDRESS: service.temporalAddress };
  const child = spawn(process.execPath, [path.join(repoRoot, 'dist/src/main.js')], { cwd: repoRoot, env, stdio: ['ignore', openSync(logFile, 'a'), openSync(logFile, 'a')] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  while (!readFileSync(logFile, 'utf8').includes('connectors started')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`The connectors process did not start; see ${logFile}:\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { child, logFile, kill: () => end('SIGKILL'), stop: () => end('SIGTERM') };
}
