import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { posix } from 'node:path';
import type { Client as Ssh2Client } from 'ssh2';
import Client from 'ssh2-sftp-client';
import { FileTooLargeError, SourceError, SourceGoneError, SourceUnavailableError, TargetExistsError, isConnectionError } from './errors.js';
import { join, segments, splitPath } from './paths.js';
import { readLimited } from './read-limited.js';
import type { FolderSource, SourceEntry } from './source.js';
import { temporaryName } from './temporary-names.js';

export interface SftpSourceOptions {
  host: string;
  port?: number;
  username: string;
  /** Key or password, read by the caller from a file or the environment, never from config text. */
  privateKey?: string | Buffer;
  passphrase?: string;
  password?: string;
  /** Directory on the server that source paths are relative to (relative to the login directory unless absolute). */
  root: string;
  /** The server's host key fingerprint as `ssh-keygen -l -E sha256` prints it; any other key is refused. Unset: any key is accepted. */
  hostKeySha256?: string;
  readyTimeoutMs?: number;
}

// SFTP status codes (draft-ietf-secsh-filexfer-02), which ssh2 passes on as the error code.
const NO_SUCH_FILE = 2;
const FAILURE = 4;
// ssh2-sftp-client's own codes for a connection that is not (or no longer) there.
const CLIENT_CONNECTION_CODES = new Set(['ERR_NOT_CONNECTED', 'ERR_GENERIC_CLIENT']);

const codeOf = (err: unknown) => (err as { code?: unknown } | undefined)?.code;
const notFound = (err: unknown) => codeOf(err) === NO_SUCH_FILE || codeOf(err) === 'ENOENT';

/**
 * A directory on an SFTP server, polled over one SSH connection that is opened
 * on first use and opened again after it drops.
 */
export class SftpSource implements FolderSource {
  readonly kind = 'sftp';
  readonly exclusiveMove = true;
  private readonly where: string;
  private connection: Promise<Client> | undefined;

  constructor(private readonly options: SftpSourceOptions) {
    this.where = `sftp ${options.username}@${options.host}:${options.port ?? 22}`;
  }

  private abs(path: string): string {
    return posix.join(this.options.root, ...segments(path));
  }

  private connect(): Promise<Client> {
    const connection = (async () => {
      const forget = () => {
        if (this.connection === connection) this.connection = undefined;
      };
      // Global listeners: a dropped connection is forgotten (the next call reconnects) instead of becoming an uncaught error.
      const client = new Client('folder-source', { error: forget, end: forget, close: forget });
      const { hostKeySha256 } = this.options;
      try {
        await client.connect({
          host: this.options.host,
          port: this.options.port ?? 22,
          username: this.options.username,
          privateKey: this.options.privateKey,
          passphrase: this.options.passphrase,
          password: this.options.password,
          readyTimeout: this.options.readyTimeoutMs ?? 20_000,
          hostVerifier: hostKeySha256
            ? (key: Buffer) => `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}` === hostKeySha256
            : undefined,
        });
        // ssh2-sftp-client hides the ssh2 connection it wraps, which leaves Nagle on (each SFTP request then
        // waits ~40 ms for a delayed ACK) and warns once more than ten requests (a poll, a batch of moves) add their listeners.
        const ssh = (client as unknown as { client: Ssh2Client }).client;
        ssh.setNoDelay(true);
        ssh.setMaxListeners(0);
        return client;
      } catch (err) {
        forget();
        throw isConnectionError(err)
          ? new SourceUnavailableError(this.where, err)
          : new SourceError(`${this.where}: ${(err as Error).message}`, { cause: err });
      }
    })();
    this.connection = connection;
    return connection;
  }

  /** Runs one operation on the connection; a connection lost meanwhile is reported as unavailable (retryable). */
  private async run<T>(operation: (client: Client) => Promise<T>): Promise<T> {
    const connection = this.connection ?? this.connect();
    const client = await connection;
    try {
      return await operation(client);
    } catch (err) {
      if (isConnectionError(err) || CLIENT_CONNECTION_CODES.has(codeOf(err) as string)) {
        if (this.connection === connection) this.connection = undefined;
        void client.end().catch(() => undefined);
        throw new SourceUnavailableError(this.where, err);
      }
      throw err;
    }
  }

  list(folder: string): Promise<SourceEntry[]> {
    return this.run(async (client) => {
      let infos;
      try {
        infos = await client.list(this.abs(folder));
      } catch (err) {
        if (notFound(err)) return [];
        throw err;
      }
      return infos
        .filter((info) => info.type === '-')
        .map((info) => ({ path: join(folder, info.name), name: info.name, size: info.size, modifiedMs: info.modifyTime }));
    });
  }

  read(path: string, maxBytes: number): Promise<Uint8Array> {
    return this.run(async (client) => {
      const abs = this.abs(path);
      try {
        const { size } = await client.stat(abs);
        if (size > maxBytes) throw new FileTooLargeError(path, maxBytes);
        const stream = client.createReadStream(abs);
        // The stream closes its remote handle after the last chunk; waiting for that (once() also listens for
        // 'error') keeps a close() right after the read from failing the pending request as an uncaught error.
        const closed = once(stream, 'close').catch(() => undefined);
        try {
          return await readLimited(stream, path, maxBytes);
        } finally {
          await closed;
        }
      } catch (err) {
        if (notFound(err)) throw new SourceGoneError(path, { cause: err });
        throw err;
      }
    });
  }

  /**
   * Upload under a temporary name, then posix-rename@openssh.com, which
   * replaces an existing result atomically (plain SFTP rename refuses to).
   * Servers without that OpenSSH extension fail here with the server's message.
   */
  write(path: string, bytes: Uint8Array): Promise<void> {
    return this.run(async (client) => {
      const { folder, name } = splitPath(path);
      const dir = this.abs(folder);
      await ensureFolder(client, dir);
      const tmp = posix.join(dir, temporaryName(name));
      try {
        await client.put(Buffer.from(bytes), tmp);
        await client.posixRename(tmp, this.abs(path));
      } catch (err) {
        await client.delete(tmp, true).catch(() => undefined);
        throw err;
      }
    });
  }

  /**
   * Plain SFTP rename. OpenSSH's sftp-server renames a regular file with
   * link(2) + unlink(2), like LocalSource.move, so it refuses an existing
   * target (SSH_FX_FAILURE) and of two racing replicas only one gets past the
   * unlink; the other's link is removed and it gets SSH_FX_NO_SUCH_FILE. Other
   * servers may replace the target instead: the contract test tells.
   */
  move(from: string, to: string): Promise<void> {
    return this.run(async (client) => {
      const src = this.abs(from);
      const dst = this.abs(to);
      const rename = async () => {
        try {
          await client.rename(src, dst);
          return true;
        } catch (err) {
          if (codeOf(err) === FAILURE && (await client.exists(dst))) throw new TargetExistsError(to);
          if (!notFound(err)) throw err;
          if (!(await client.exists(src))) throw new SourceGoneError(from, { cause: err });
          return false;
        }
      };
      // NO_SUCH_FILE with the source still there means the target folder is missing (done/2025-01-31/): create it once.
      if (await rename()) return;
      await ensureFolder(client, posix.dirname(dst));
      if (!(await rename())) throw new SourceGoneError(from);
    });
  }

  check(): Promise<void> {
    return this.run(async (client) => {
      if ((await client.exists(this.options.root)) !== 'd')
        throw new SourceError(`${this.where}: folder ${this.options.root} does not exist`);
    });
  }

  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    const client = await connection?.catch(() => undefined);
    await client?.end();
  }
}

/**
 * ssh2-sftp-client's recursive mkdir checks, then creates, so two replicas
 * creating the same folder fail on the level the other created meanwhile;
 * another try goes past it.
 */
async function ensureFolder(client: Client, dir: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.mkdir(dir, true);
      return;
    } catch (err) {
      if ((await client.exists(dir)) === 'd') return;
      if (attempt === 3) throw err;
    }
  }
}
