import { describe, expect, it } from 'vitest';
import { SourceError, SourceUnavailableError } from '../../connectors/sources/errors.js';
import { S3Source } from '../../connectors/sources/s3.js';
import { SftpSource } from '../../connectors/sources/sftp.js';
import { startMoto } from '../support/moto.js';
import { startSshd } from '../../scripts/lib/sshd.js';

// What `connectors check` will show for a source that answers but is configured wrong: not retryable, and naming where.
describe('check of a misconfigured source', () => {
  it('refuses an SFTP server whose host key is not the pinned one', async () => {
    const server = await startSshd();
    const source = new SftpSource({
      host: server.host,
      port: server.port,
      username: server.username,
      privateKey: server.privateKey,
      hostKeySha256: 'SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      root: '/tmp',
    });
    try {
      const err = await source.check().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SourceError);
      expect(err).not.toBeInstanceOf(SourceUnavailableError);
      expect((err as Error).message).toContain(`${server.host}:${server.port}`);
    } finally {
      await source.close();
      await server.dispose();
    }
  });

  it('names a bucket that does not exist', async () => {
    const server = await startMoto();
    const source = new S3Source({
      bucket: 'no-such-bucket',
      endpoint: server.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
    try {
      await expect(source.check()).rejects.toThrow(/s3 bucket no-such-bucket at http:\/\/127\.0\.0\.1:\d+: NotFound \(HTTP 404\)/);
    } finally {
      await source.close();
      await server.stop();
    }
  });
});
