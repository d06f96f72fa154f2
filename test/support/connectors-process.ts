import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SpawnedService } from '../../scripts/lib/spawn-service.js';
import { startRoleProcess, type RoleProcess } from '../../scripts/lib/role-process.js';

/**
 * The folder connectors as their own process (EINVOICE_ROLE=connectors), beside a spawned
 * service: the same data directory and Temporal server, its own configuration file, and `env`
 * for the secrets the configuration names by environment variable.
 */
export type ConnectorsProcess = RoleProcess;

export function startConnectorsProcess(
  service: SpawnedService,
  configYaml: string,
  name = 'connectors',
  env: Record<string, string> = {},
): Promise<ConnectorsProcess> {
  const configFile = path.join(service.dataDir, `${name}.yaml`);
  writeFileSync(configFile, configYaml);
  return startRoleProcess(service, 'connectors', name, { ...env, EINVOICE_CONNECTORS: configFile });
}
