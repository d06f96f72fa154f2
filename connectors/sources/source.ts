/**
 * The one interface every folder connector source implements. Paths are
 * relative to the source's root (a local directory, an SFTP directory, a bucket
 * prefix, a Drive folder), '/'-separated, never absolute and never with '..'.
 * The connector engine builds its semantics on these few operations:
 * completeness is judged from two `list` looks (size, mtime, version), a file is
 * claimed with `move`, and results are written with `write`.
 */

export type SourceKind = 'local' | 'sftp' | 's3' | 'gdrive';

/** A file as a source lists it; plain JSON, as looks travel through the route watcher's workflow. */
export interface SourceEntry {
  /** Path relative to the source root. */
  path: string;
  name: string;
  size: number;
  modifiedMs: number;
  /** The backend's own version tag where it has one (S3 ETag, Drive version), so a rewrite with equal size and mtime still shows. */
  version?: string;
}

export interface FolderSource {
  readonly kind: SourceKind;
  /**
   * Whether `move` refuses a concurrent claim of the same file by another
   * replica (exactly one of two racing moves succeeds). Where it is false the
   * engine must deduplicate by content (the workflow id) instead.
   */
  readonly exclusiveMove: boolean;
  /** Regular files directly in `folder` (not recursive, no folders); a missing folder lists as empty. */
  list(folder: string): Promise<SourceEntry[]>;
  /** The whole file; FileTooLargeError past maxBytes, SourceGoneError if it does not exist. */
  read(path: string, maxBytes: number): Promise<Uint8Array>;
  /** Creates or replaces `path` so that no reader ever sees it partly written; creates missing folders. */
  write(path: string, bytes: Uint8Array): Promise<void>;
  /**
   * Claims or files away `from` as `to`, creating `to`'s folder. Throws
   * TargetExistsError if `to` exists (nothing changed) and SourceGoneError if
   * `from` is gone, typically because another replica claimed it first.
   */
  move(from: string, to: string): Promise<void>;
  /** Connects and looks at the root; SourceUnavailableError naming the host or bucket and the cause. */
  check(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A source that keeps a log of its changes (Google Drive): a poll asks what changed since a
 * saved token instead of listing every watched folder.
 */
export interface ChangeLog {
  /** Where the log stands now: changes after this token are new. */
  startPageToken(): Promise<string>;
  /** Which of `folders` had files added or changed since `token`, and the token to ask with next. */
  changes(token: string, folders: string[]): Promise<{ folders: string[]; token: string }>;
}

export function changeLogOf(source: FolderSource): (FolderSource & ChangeLog) | undefined {
  return 'changes' in source && 'startPageToken' in source ? (source as FolderSource & ChangeLog) : undefined;
}
