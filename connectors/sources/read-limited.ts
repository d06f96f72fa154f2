import { FileTooLargeError } from './errors.js';

/** Collects a download, stopping (and destroying the stream) as soon as it passes maxBytes, so an oversized file is never held whole. */
export async function readLimited(
  stream: AsyncIterable<Uint8Array> & { destroy?: () => void },
  path: string,
  maxBytes: number,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      stream.destroy?.();
      throw new FileTooLargeError(path, maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
