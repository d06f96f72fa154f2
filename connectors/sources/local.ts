import { createReadStream } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as nodePath from 'node:path';
import { FileTooLargeError, SourceGoneError, SourceUnavailableError, TargetExistsError } from './errors.js';
import { join, segments, splitPath } from './paths.js';
import { readLimited } from './read-limited.js';
import type { FolderSource, SourceEntry } from './source.js';
import { temporaryName } from './temporary-names.js';

export interface LocalSourceOptions {
  /** The directory all source paths are relative to. */
  root: string;
}

const errno = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | undefined)?.code;

/** A directory on this machine (or a mount: NFS, SMB, a bind mount into the container). */
export class LocalSource implements FolderSource {
  readonly kind = 'local';
  readonly exclusiveMove = true;
  private readonly root: string;

  constructor(options: LocalSourceOptions) {
    this.root = nodePath.resolve(options.root);
  }

  private abs(path: string): string {
    return nodePath.join(this.root, ...segments(path));
  }

  async list(folder: string): Promise<SourceEntry[]> {
    let dirents;
    try {
      dirents = await fs.readdir(this.abs(folder), { withFileTypes: true });
    } catch (err) {
      if (errno(err) !== 'ENOENT') throw err;
      // A missing folder is empty, but a missing root is an unmounted share.
      await this.check();
      return [];
    }
    const entries: SourceEntry[] = [];
    for (const dirent of dirents) {
      if (!dirent.isFile()) continue;
      const path = join(folder, dirent.name);
      try {
        const st = await fs.stat(this.abs(path));
        entries.push({ path, name: dirent.name, size: st.size, modifiedMs: st.mtimeMs });
      } catch (err) {
        // Claimed or removed between readdir and stat: not there any more.
        if (errno(err) !== 'ENOENT') throw err;
      }
    }
    return entries;
  }

  async read(path: string, maxBytes: number): Promise<Uint8Array> {
    const abs = this.abs(path);
    try {
      const st = await fs.stat(abs);
      if (st.size > maxBytes) throw new FileTooLargeError(path, maxBytes);
      // Still limited while reading: the file may grow after the stat.
      return await readLimited(createReadStream(abs), path, maxBytes);
    } catch (err) {
      if (errno(err) === 'ENOENT') throw new SourceGoneError(path, { cause: err });
      throw err;
    }
  }

  async write(path: string, bytes: Uint8Array): Promise<void> {
    const { folder, name } = splitPath(path);
    const dir = this.abs(folder);
    await fs.mkdir(dir, { recursive: true });
    // Same directory, so the rename stays on one file system and is atomic.
    const tmp = nodePath.join(dir, temporaryName(name));
    try {
      const handle = await fs.open(tmp, 'wx');
      try {
        await handle.writeFile(bytes);
        // Without it a crash right after the rename can leave an empty file under the final name.
        await handle.datasync();
      } finally {
        await handle.close();
      }
      await fs.rename(tmp, this.abs(path));
    } catch (err) {
      await fs.rm(tmp, { force: true });
      throw err;
    }
  }

  /**
   * rename(2) silently replaces an existing target and Node has no
   * renameat2(RENAME_NOREPLACE), so the claim is link(2) + unlink(2): link
   * refuses an existing target atomically, and of two replicas that linked the
   * same file under different names only one can unlink the source; the other
   * removes its link again and reports the source gone. (OpenSSH's sftp-server
   * renames regular files the same way.) Needs a file system with hard links,
   * and `from` and `to` on the same one.
   */
  async move(from: string, to: string): Promise<void> {
    const src = this.abs(from);
    const dst = this.abs(to);
    await fs.mkdir(nodePath.dirname(dst), { recursive: true });
    try {
      await fs.link(src, dst);
    } catch (err) {
      if (errno(err) === 'EEXIST') throw new TargetExistsError(to);
      if (errno(err) === 'ENOENT') throw new SourceGoneError(from, { cause: err });
      throw err;
    }
    try {
      await fs.unlink(src);
    } catch (err) {
      await fs.unlink(dst);
      if (errno(err) === 'ENOENT') throw new SourceGoneError(from, { cause: err });
      throw err;
    }
  }

  async check(): Promise<void> {
    try {
      const st = await fs.stat(this.root);
      if (!st.isDirectory()) throw new Error('not a directory');
    } catch (err) {
      throw new SourceUnavailableError(`local folder ${this.root}`, err);
    }
  }

  async close(): Promise<void> {}
}
