import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './spawn-service.js';
import { startChildServer, type ChildServer } from './child-server.js';

/**
 * A throwaway OpenSSH server for SFTP tests: Debian's sshd, run as the current
 * user on a loopback port with its own host key and one generated client key.
 * scripts/setup-connectors.sh installs openssh-server.
 */

const SSHD = '/usr/sbin/sshd';
const run = promisify(execFile);

export interface SshdServer {
  host: string;
  port: number;
  username: string;
  privateKey: string;
  /** The host key's fingerprint as `ssh-keygen -l` prints it (SHA256:...). */
  hostKeySha256: string;
  /** Starts sshd (again) on the same port. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stops it and removes its keys and config. */
  dispose(): Promise<void>;
}

export async function startSshd(): Promise<SshdServer> {
  if (!existsSync(SSHD)) throw new Error(`${SSHD} is missing: run scripts/setup-test.sh, which installs Debian's openssh-server`);
  const dir = await mkdtemp(path.join(tmpdir(), 'sshd-'));
  const file = (name: string) => path.join(dir, name);
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file('host_key')]);
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file('client_key')]);
  await writeFile(file('authorized_keys'), await readFile(file('client_key.pub')));
  const { stdout: fingerprint } = await run('ssh-keygen', ['-l', '-E', 'sha256', '-f', file('host_key.pub')]);
  const asRoot = process.getuid?.() === 0;
  // As root, sshd insists on its privilege separation directory and must be allowed to log root in.
  if (asRoot) await mkdir('/run/sshd', { recursive: true });
  const port = await freePort();
  await writeFile(
    file('sshd_config'),
    [
      `ListenAddress 127.0.0.1:${port}`,
      `HostKey ${file('host_key')}`,
      `AuthorizedKeysFile ${file('authorized_keys')}`,
      `PidFile ${file('sshd.pid')}`,
      'AuthenticationMethods publickey',
      'UsePAM no',
      'StrictModes no',
      'Subsystem sftp internal-sftp',
      // Replicas racing for files open connections at once; the default MaxStartups drops some.
      'MaxStartups 100',
      ...(asRoot ? ['PermitRootLogin prohibit-password'] : []),
      '',
    ].join('\n'),
  );

  let running: ChildServer | undefined;
  const server: SshdServer = {
    host: '127.0.0.1',
    port,
    username: userInfo().username,
    privateKey: await readFile(file('client_key'), 'utf8'),
    hostKeySha256: fingerprint.split(' ')[1]!,
    async start() {
      running = await startChildServer(SSHD, ['-D', '-e', '-f', file('sshd_config')], port);
    },
    async stop() {
      await running?.stop();
      running = undefined;
    },
    async dispose() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}
