import { createHash, randomUUID } from 'node:crypto';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3ServiceException,
  type S3Client,
} from '@aws-sdk/client-s3';
import { BlobNotFoundError, InvalidBlobKeyError, KEY_PATTERN, scopedKey } from './blob-store.js';
import type { BlobStorage, ListedBlob, StoredBlob } from './blob-storage.js';
import { createS3Client, type S3Endpoint } from './s3-client.js';

export interface S3BlobStoreOptions extends S3Endpoint {
  bucket: string;
  /** Key prefix of the blobs in the bucket ('' or ending in '/'), so that one bucket can serve several installations. */
  prefix: string;
}

/** The object's SHA-256, kept as user metadata so that `stat` needs no download. */
const SHA256_META = 'sha256';

/**
 * Blobs as objects `<prefix><uuid>` in an S3-compatible bucket, for installations whose API,
 * workers and connectors run on several machines. An object appears whole when its upload
 * completes, so a reader sees the whole blob or none, as with the local store. Errors of the
 * server (unreachable, throttled) are thrown as they are: the activity that met them retries.
 */
export class S3BlobStore implements BlobStorage {
  private readonly client: S3Client;

  constructor(
    private readonly options: S3BlobStoreOptions,
    private readonly scope?: string,
    client?: S3Client,
  ) {
    this.client = client ?? createS3Client(options);
  }

  scoped(scope: string): S3BlobStore {
    return new S3BlobStore(this.options, scope, this.client);
  }

  async put(bytes: Uint8Array): Promise<StoredBlob> {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const key = this.scope === undefined ? randomUUID() : scopedKey(this.scope, sha256);
    // The same bytes in the same scope were written before (by an earlier run of the step); a racing second upload writes the same bytes.
    if (this.scope !== undefined && (await this.exists(key))) return { key, size: bytes.byteLength, sha256 };
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: this.objectKey(key),
        Body: bytes,
        ContentLength: bytes.byteLength,
        ContentType: 'application/octet-stream',
        Metadata: { [SHA256_META]: sha256 },
      }),
    );
    return { key, size: bytes.byteLength, sha256 };
  }

  async get(key: string): Promise<Buffer> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
      return Buffer.from(await object.Body!.transformToByteArray());
    } catch (err) {
      throw isMissing(err) ? new BlobNotFoundError(key) : err;
    }
  }

  async stat(key: string): Promise<StoredBlob> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
      const sha256 = head.Metadata?.[SHA256_META];
      // An object written by something else has no hash beside it: read it.
      if (!sha256) return { key, ...digest(await this.get(key)) };
      return { key, size: head.ContentLength ?? 0, sha256 };
    } catch (err) {
      throw isMissing(err) ? new BlobNotFoundError(key) : err;
    }
  }

  async delete(key: string): Promise<boolean> {
    // S3 answers a delete of a missing object like any other: ask first.
    const existed = await this.exists(key);
    if (existed) await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
    return existed;
  }

  /** The blobs under this store's prefix; objects there that are not blobs (other prefixes nested in it) are passed over. */
  async *list(): AsyncGenerator<ListedBlob> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: this.options.prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(this.options.prefix.length);
        if (key && KEY_PATTERN.test(key) && object.LastModified) yield { key, writtenAt: object.LastModified.getTime() };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  private async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  private objectKey(key: string): string {
    if (!KEY_PATTERN.test(key)) throw new InvalidBlobKeyError(key);
    return this.options.prefix + key;
  }
}

function digest(bytes: Buffer): { size: number; sha256: string } {
  return { size: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') };
}

function isMissing(err: unknown): boolean {
  return err instanceof S3ServiceException && (err.$metadata.httpStatusCode === 404 || err.name === 'NoSuchKey' || err.name === 'NotFound');
}
