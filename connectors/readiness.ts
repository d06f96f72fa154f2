import path from 'node:path';
import type { SourceEntry } from './sources/source.js';
import { isTemporaryName } from './sources/temporary-names.js';

/**
 * When a dropped file may be taken. An uploader writes for a while; taking the file early sends
 * half a PDF through the pipeline. As Apache Camel's `readLock=changed` and rclone's `--min-age`
 * do, a file counts only once it looked the same (size, modification time, version) on two looks
 * and has been left alone for the route's minimum age. Temporary names never count.
 */

/** What the previous look saw, by path. */
export type Look = ReadonlyMap<string, SourceEntry>;

export function lookOf(entries: readonly SourceEntry[]): Look {
  return new Map(entries.map((e) => [e.path, e]));
}

/** The entries of `current` that are complete: unchanged since `previous`, old enough, not temporary, and matching `accepts`. */
export function completeFiles(
  previous: Look,
  current: readonly SourceEntry[],
  nowMs: number,
  minAgeMs: number,
  accepts: (name: string) => boolean,
): SourceEntry[] {
  return current.filter((entry) => {
    if (isTemporaryName(entry.name) || !accepts(entry.name)) return false;
    const before = previous.get(entry.path);
    const unchanged =
      before !== undefined && before.size === entry.size && before.modifiedMs === entry.modifiedMs && before.version === entry.version;
    return unchanged && nowMs - entry.modifiedMs >= minAgeMs;
  });
}

/** A route's `files` glob as a name test; case-insensitive, as scanners write `SCAN_0001.PDF`. */
export function nameFilter(glob: string): (name: string) => boolean {
  const pattern = glob.toLowerCase();
  return (name) => path.matchesGlob(name.toLowerCase(), pattern);
}
