import { CreateBucketCommand, HeadBucketCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';

/** Where an S3-compatible bucket is and how to sign for it; shared by the blob store and the connectors' S3 source. */
export interface S3Endpoint {
  region?: string;
  /** For S3-compatible servers (MinIO, Hetzner, Wasabi, Ceph); unset for AWS. */
  endpoint?: string;
  forcePathStyle?: boolean;
  /** Unset: the SDK's default chain (AWS_* variables, profiles, web identity in Kubernetes, instance roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** The SDK's attempts per request, connection failures included (its default is 3). */
  maxAttempts?: number;
}

export function createS3Client(options: S3Endpoint): S3Client {
  return new S3Client({
    region: options.region ?? 'us-east-1',
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: options.credentials,
    maxAttempts: options.maxAttempts,
    // The SDK's default CRC checksums (aws-chunked uploads) are not understood by every S3-compatible server;
    // send and check them only where the operation requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Creates the bucket when it is missing; true when it was created. For set-ups that provision their own store (deploy/compose.yaml). */
export async function ensureBucket(client: S3Client, bucket: string): Promise<boolean> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
    return false;
  } catch (err) {
    if (!(err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404)) throw err;
  }
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    return true;
  } catch (err) {
    // Another process created it meanwhile.
    if (err instanceof S3ServiceException && err.name === 'BucketAlreadyOwnedByYou') return false;
    throw err;
  }
}
