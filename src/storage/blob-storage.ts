/**
 * Where file contents live while workflows pass their keys around: a local folder (one machine,
 * or a shared file system) or an S3-compatible bucket (several machines). Keys are UUIDs the
 * store makes, random or, in a scoped view, derived from the scope and the content; any other
 * key is refused before it reaches a path or a request.
 */
export interface BlobStorage {
  put(bytes: Uint8Array): Promise<StoredBlob>;
  /**
   * The same store, but `put` is content-addressed within `scope` (a workflow step, a keyed
   * request): a step that runs twice writes its bytes under the key of the first run, and once.
   */
  scoped(scope: string): BlobStorage;
  get(key: string): Promise<Buffer>;
  /** Size and SHA-256 of a stored blob. */
  stat(key: string): Promise<StoredBlob>;
  /** Returns false if there was no such blob. */
  delete(key: string): Promise<boolean>;
  /** Every blob with the time it was written, for the retention job; a walk, not a snapshot. */
  list(): AsyncIterable<ListedBlob>;
}

export interface StoredBlob {
  key: string;
  size: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
}

export interface ListedBlob {
  key: string;
  /** Milliseconds since 1970. */
  writtenAt: number;
}
