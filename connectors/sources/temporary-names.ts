import { randomBytes } from 'node:crypto';

/**
 * Names that mark a file still being written: hidden files, `.part` and `.tmp`
 * (what browsers, rsync, rclone and most uploaders use). The engine never takes
 * them, and our own atomic writes use such a name until the final rename, so a
 * replica never takes another one's half-written result either.
 */
export function isTemporaryName(name: string): boolean {
  return name.startsWith('.') || name.endsWith('.part') || name.endsWith('.tmp');
}

export function temporaryName(name: string): string {
  return `.${name}.${randomBytes(6).toString('hex')}.tmp`;
}
