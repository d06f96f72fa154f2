import type { RouteConfig } from './config.js';
import { contentHash } from './identity.js';
import { completeFiles, lookOf, nameFilter, type Look } from './readiness.js';
import { FileTooLargeError, SourceGoneError, TargetExistsError } from './sources/errors.js';
import { join } from './sources/paths.js';
import type { FolderSource, SourceEntry } from './sources/source.js';

/**
 * Taking files off a route's watched folder. A file is claimed by moving it into the route's
 * processing folder: the move refuses an existing target, so of two replicas looking at the
 * same folder exactly one gets each file, and whatever sits in processing/ after a crash is
 * known to be unfinished. The content is read once claimed; its hash names the file's workflow.
 */

export interface ClaimedFile {
  /** The name it was dropped under. */
  name: string;
  /** Where it is now: in the route's processing folder. */
  path: string;
  bytes: Uint8Array;
  hash: string;
}

/** A claimed file that cannot be processed at all; the engine files it into error/ with a report. */
export interface RefusedFile {
  name: string;
  path: string;
  reason: string;
}

export interface LookResult {
  /** What this look saw, for the next one to compare with. */
  look: Look;
  claimed: ClaimedFile[];
  refused: RefusedFile[];
}

const MEGABYTE = 1024 * 1024;

/** One look at the route's folder: claims and reads every file that is complete since `previous`. */
export async function lookAndClaim(route: RouteConfig, source: FolderSource, previous: Look, nowMs: number): Promise<LookResult> {
  const entries = await source.list(route.folder);
  const ready = completeFiles(previous, entries, nowMs, route.minAgeSeconds * 1000, nameFilter(route.files));
  const result: LookResult = { look: lookOf(entries), claimed: [], refused: [] };
  for (const entry of ready) {
    const path = join(route.processing, entry.name);
    try {
      await source.move(entry.path, path);
    } catch (err) {
      // Another replica was faster, or a file of the same name is still in processing: the next look sees it again.
      if (err instanceof SourceGoneError || err instanceof TargetExistsError) continue;
      throw err;
    }
    const read = await readClaimed(route, source, { name: entry.name, path });
    if ('reason' in read) result.refused.push(read);
    else result.claimed.push(read);
  }
  return result;
}

/**
 * Files in processing/ (`entries`, as listed there) read again: a crash may have left them claimed
 * without a workflow. One that is gone meanwhile was filed away by its workflow.
 */
export async function unfinished(
  route: RouteConfig,
  source: FolderSource,
  entries: readonly SourceEntry[],
): Promise<Array<ClaimedFile | RefusedFile>> {
  const read = await Promise.all(
    entries.map((e) =>
      readClaimed(route, source, { name: e.name, path: e.path }).catch((err: unknown) => {
        if (err instanceof SourceGoneError) return undefined;
        throw err;
      }),
    ),
  );
  return read.filter((f) => f !== undefined);
}

async function readClaimed(
  route: RouteConfig,
  source: FolderSource,
  file: { name: string; path: string },
): Promise<ClaimedFile | RefusedFile> {
  try {
    const bytes = await source.read(file.path, route.maxFileMegabytes * MEGABYTE);
    return { ...file, bytes, hash: contentHash(bytes) };
  } catch (err) {
    if (err instanceof FileTooLargeError)
      return { ...file, reason: `The file is larger than the route's limit of ${route.maxFileMegabytes} MB.` };
    throw err;
  }
}
