import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync, linkSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';

/**
 * Signed download links: `?expires=<epoch seconds>&signature=<base64url HMAC-SHA256>`, valid for
 * one document until the expiry. Anyone holding the link may download, without a token, which
 * is what lets it be handed to a browser or another system.
 */

function sign(documentId: string, expiresAt: number, secret: string): Buffer {
  // The purpose prefix keeps these MACs from being valid for any other use of the same secret.
  return createHmac('sha256', secret).update(`download\n${documentId}\n${expiresAt}`).digest();
}

/** The query string (without '?') that authorises downloading `documentId` until `expiresAt` (epoch seconds). */
export function signDownload(documentId: string, expiresAt: number, secret: string): string {
  if (!Number.isSafeInteger(expiresAt) || expiresAt < 0) throw new RangeError(`expiresAt must be whole epoch seconds, got ${expiresAt}`);
  const query = { expires: String(expiresAt), signature: sign(documentId, expiresAt, secret).toString('base64url') };
  return new URLSearchParams(query).toString();
}

/**
 * True when `signature` is this document's signature for `expiresAt` (epoch seconds, as in the
 * link's `expires` parameter) and that time has not passed.
 */
export function verifyDownload(
  documentId: string,
  expiresAt: number,
  signature: string,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  if (!Number.isSafeInteger(expiresAt) || expiresAt <= nowSeconds) return false;
  // Compared as text, not decoded: base64 decoders skip stray characters, so decoding would
  // accept many spellings of one signature.
  const given = Buffer.from(signature);
  const expected = Buffer.from(sign(documentId, expiresAt, secret).toString('base64url'));
  // Length first: timingSafeEqual throws on different lengths, and the length is public anyway.
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The signing secret: SIGNING_SECRET when set, otherwise a random one created on first use
 * and kept in `<dataDir>/signing.key` (mode 0600), so links stay valid across restarts.
 */
export function loadSigningSecret(config: Pick<Config, 'dataDir' | 'signingSecret'>): string {
  if (config.signingSecret) return config.signingSecret;
  const file = path.join(config.dataDir, 'signing.key');
  return readSecretFile(file) ?? createSecretFile(file);
}

function readSecretFile(file: string): string | undefined {
  try {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length < 32) throw new Error(`${file} holds no usable signing secret; delete it to have a new one created`);
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Written to a temporary file and then hard-linked into place: link() fails if the file exists,
 * so when two processes start at once exactly one secret wins, and nobody reads a partial file.
 */
function createSecretFile(file: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temp, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flush: true });
  try {
    linkSync(temp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(temp, { force: true });
  }
  const secret = readSecretFile(file);
  if (!secret) throw new Error(`${file} vanished while being created`);
  return secret;
}
