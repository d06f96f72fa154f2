import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { createS3Client, type S3Endpoint } from '../../src/storage/s3-client.js';
import { FileTooLargeError, SourceError, SourceGoneError, SourceUnavailableError, TargetExistsError, isConnectionError } from './errors.js';
import { join, normalise } from './paths.js';
import { readLimited } from './read-limited.js';
import type { FolderSource, SourceEntry } from './source.js';

export interface S3SourceOptions extends S3Endpoint {
  bucket: string;
  /** Key prefix that source paths are relative to ('' for the whole bucket). */
  prefix?: string;
}

const status = (err: unknown) => (err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined);
const isMissing = (err: unknown) => status(err) === 404;
// 409 is AWS's answer when another conditional write to the same key is in flight.
const isConditionFailed = (err: unknown) => status(err) === 412 || status(err) === 409;

/**
 * A "folder" (key prefix) in an S3-compatible bucket. Objects appear whole
 * when their upload completes, so writes need no temporary key; S3 has no
 * rename, so `move` is a conditional copy and a conditional delete.
 */
export class S3Source implements FolderSource {
  readonly kind = 's3';
  readonly exclusiveMove = true;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly where: string;

  constructor(options: S3SourceOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix ? `${normalise(options.prefix)}/` : '';
    this.where = `s3 bucket ${options.bucket}${options.endpoint ? ` at ${options.endpoint}` : ''}`;
    this.client = createS3Client(options);
  }

  private key(path: string): string {
    return this.prefix + normalise(path);
  }

  private async send<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      if (isConnectionError(err) || (err as Error).name === 'TimeoutError') throw new SourceUnavailableError(this.where, err);
      throw err;
    }
  }

  async list(folder: string): Promise<SourceEntry[]> {
    const folderKey = normalise(folder);
    const prefix = this.prefix + (folderKey ? `${folderKey}/` : '');
    const entries: SourceEntry[] = [];
    let token: string | undefined;
    do {
      const page = await this.send(() =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, Delimiter: '/', ContinuationToken: token })),
      );
      for (const object of page.Contents ?? []) {
        const name = object.Key!.slice(prefix.length);
        // The empty name is a "folder marker" object that consoles create.
        if (!name) continue;
        entries.push({
          path: join(folder, name),
          name,
          size: object.Size ?? 0,
          modifiedMs: object.LastModified?.getTime() ?? 0,
          version: object.ETag,
        });
      }
      token = page.NextContinuationToken;
    } while (token);
    return entries;
  }

  private async open(path: string) {
    try {
      return await this.send(() => this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(path) })));
    } catch (err) {
      if (isMissing(err)) throw new SourceGoneError(path, { cause: err });
      throw err;
    }
  }

  async read(path: string, maxBytes: number): Promise<Uint8Array> {
    const object = await this.open(path);
    const body = object.Body as Readable;
    if ((object.ContentLength ?? 0) > maxBytes) {
      body.destroy();
      throw new FileTooLargeError(path, maxBytes);
    }
    return readLimited(body, path, maxBytes);
  }

  async write(path: string, bytes: Uint8Array): Promise<void> {
    await this.send(() => this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.key(path), Body: bytes })));
  }

  /**
   * Copy, then delete the source only if it is still the object copied:
   * - the copy is a streamed GET + PUT with If-None-Match: *, because servers
   *   that do not know If-None-Match on CopyObject ignore it and overwrite
   *   (moto does), while conditional PUT is what AWS, MinIO and Ceph honour;
   * - the delete carries If-Match with the source's ETag, so of two replicas
   *   that copied the same file only the first delete succeeds (404 or 412 for
   *   the other, which then deletes its copy and reports the source gone).
   * On a server that ignores If-None-Match an existing target is overwritten;
   * on one that ignores If-Match on DELETE both replicas succeed and the file
   * is claimed twice. Then only the engine's content-hash deduplication holds.
   */
  async move(from: string, to: string): Promise<void> {
    const source = await this.open(from);
    const body = source.Body as Readable;
    try {
      await this.send(() =>
        this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key: this.key(to),
            Body: body,
            ContentLength: source.ContentLength,
            ContentType: source.ContentType,
            IfNoneMatch: '*',
          }),
        ),
      );
    } catch (err) {
      body.destroy();
      if (isConditionFailed(err)) throw new TargetExistsError(to);
      throw err;
    }
    try {
      await this.send(() => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(from), IfMatch: source.ETag })));
    } catch (err) {
      if (!isMissing(err) && !isConditionFailed(err)) throw err;
      await this.send(() => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(to) })));
      throw new SourceGoneError(from, { cause: err });
    }
  }

  async check(): Promise<void> {
    try {
      await this.send(() => this.client.send(new HeadBucketCommand({ Bucket: this.bucket })));
    } catch (err) {
      if (err instanceof SourceUnavailableError) throw err;
      // HEAD answers carry no error text: the status says it (404 no such bucket, 403 credentials or policy).
      throw new SourceError(`${this.where}: ${(err as Error).name} (HTTP ${status(err) ?? '?'})`, { cause: err });
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
