import { drive, type drive_v3 } from '@googleapis/drive';
import type { Readable } from 'node:stream';
import { FileTooLargeError, SourceError, SourceGoneError, SourceUnavailableError, TargetExistsError, isConnectionError } from './errors.js';
import { join, segments, splitPath } from './paths.js';
import { readLimited } from './read-limited.js';
import type { ChangeLog, FolderSource, SourceEntry } from './source.js';
import { temporaryName } from './temporary-names.js';

export interface GdriveSourceOptions {
  /** The Drive folder that source paths are relative to. */
  rootFolderId: string;
  /** A service account (GoogleAuth, JWT) or an OAuth2 client holding a refresh token, made by the caller from a file or the environment. */
  auth: drive_v3.Options['auth'];
  /** The API's root; only tests set it (to the emulator). */
  rootUrl?: string;
}

export interface DriveChanges {
  /** Those of the asked folders in which a file was added or changed. */
  folders: string[];
  /** The token to ask with next time; save it to resume after a restart. */
  token: string;
}

const FOLDER = 'application/vnd.google-apps.folder';
// Docs, Sheets and the like have no bytes to download; only their exports do.
const isGoogleNative = (mimeType: string | null | undefined) => !!mimeType?.startsWith('application/vnd.google-apps.');
const FILE_FIELDS = 'id,name,size,modifiedTime,version,mimeType,parents';

/** A string literal in a Drive query. */
const quoted = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const statusOf = (err: unknown) => (err as { status?: number } | undefined)?.status;

/**
 * A folder tree in Google Drive, by paths of folder names below a root folder.
 * Drive names are not unique and it has no conditional metadata update, so:
 * a path names the first file of that name; `move` checks that the target
 * name is free and then re-parents and renames the file, which another
 * replica doing the same at the same moment is not stopped from doing too
 * (exclusiveMove is false: the engine's content-hash workflow id keeps such a
 * file from being processed twice).
 */
export class GdriveSource implements FolderSource, ChangeLog {
  readonly kind = 'gdrive';
  readonly exclusiveMove = false;
  private readonly api: drive_v3.Drive;
  private readonly where: string;
  /** Per-call options: googleapis builds each URL, media uploads included, from the call's rootUrl, not the client's. */
  private readonly call: { rootUrl?: string };
  /** Folder ids by source path ('' is the root), so a poll costs one request per folder. A folder deleted and made anew in Drive is found again by a new adapter. */
  private readonly folders = new Map<string, { lookup: Promise<string | undefined>; create: boolean }>();

  constructor(private readonly options: GdriveSourceOptions) {
    this.api = drive({ version: 'v3', auth: options.auth });
    this.call = options.rootUrl ? { rootUrl: options.rootUrl } : {};
    this.where = `google drive folder ${options.rootFolderId}${options.rootUrl ? ` at ${options.rootUrl}` : ''}`;
    this.folders.set('', { lookup: Promise.resolve(options.rootFolderId), create: true });
  }

  private async request<T>(send: () => Promise<{ data: T }>): Promise<T> {
    try {
      return (await send()).data;
    } catch (err) {
      if (isConnectionError(err)) throw new SourceUnavailableError(this.where, err);
      throw err;
    }
  }

  /** Children of a folder, optionally only those with one name; every page. */
  private async children(parentId: string, filter: string): Promise<drive_v3.Schema$File[]> {
    const files: drive_v3.Schema$File[] = [];
    let pageToken: string | undefined;
    do {
      const page = await this.request(() =>
        this.api.files.list(
          {
            q: `${quoted(parentId)} in parents and trashed = false and ${filter}`,
            fields: `nextPageToken,files(${FILE_FIELDS},createdTime)`,
            orderBy: 'createdTime',
            pageSize: 1000,
            pageToken,
          },
          this.call,
        ),
      );
      files.push(...(page.files ?? []));
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);
    return files;
  }

  private folderId(path: string, create: boolean): Promise<string | undefined> {
    const parts = segments(path);
    const key = parts.join('/');
    const cached = this.folders.get(key);
    // A creating lookup answers every caller; a plain one only those that would not create either.
    if (cached && (cached.create || !create)) return cached.lookup;
    const lookup = cached ? cached.lookup.then((id) => id ?? this.findFolder(parts, true)) : this.findFolder(parts, create);
    const entry = { lookup, create };
    this.folders.set(key, entry);
    // Only a found folder is remembered; a missing one may be made by someone else later.
    const forget = () => this.folders.get(key) === entry && this.folders.delete(key);
    lookup.then((id) => id ?? forget(), forget);
    return lookup;
  }

  private async findFolder(parts: string[], create: boolean): Promise<string | undefined> {
    const parentId = await this.folderId(parts.slice(0, -1).join('/'), create);
    if (!parentId) return undefined;
    const sameName = `mimeType = ${quoted(FOLDER)} and name = ${quoted(parts.at(-1)!)}`;
    const existing = await this.children(parentId, sameName);
    if (existing[0]) return existing[0].id!;
    if (!create) return undefined;
    const made = await this.request(() =>
      this.api.files.create({ requestBody: { name: parts.at(-1), mimeType: FOLDER, parents: [parentId] }, fields: 'id' }, this.call),
    );
    // Replicas creating the same folder at once each make one (Drive allows equal names): all settle on the oldest, the others remove theirs.
    const oldest = (await this.children(parentId, sameName))[0]?.id ?? made.id!;
    if (oldest !== made.id) await this.request(() => this.api.files.delete({ fileId: made.id! }, this.call));
    return oldest;
  }

  private async file(path: string): Promise<drive_v3.Schema$File | undefined> {
    const { folder, name } = splitPath(path);
    const parentId = await this.folderId(folder, false);
    if (!parentId) return undefined;
    return (await this.children(parentId, `mimeType != ${quoted(FOLDER)} and name = ${quoted(name)}`))[0];
  }

  async list(folder: string): Promise<SourceEntry[]> {
    const folderId = await this.folderId(folder, false);
    if (!folderId) return [];
    return (await this.children(folderId, `mimeType != ${quoted(FOLDER)}`))
      .filter((f) => !isGoogleNative(f.mimeType))
      .map((f) => ({
        path: join(folder, f.name!),
        name: f.name!,
        size: Number(f.size ?? 0),
        modifiedMs: Date.parse(f.modifiedTime!),
        version: f.version == null ? undefined : String(f.version),
      }));
  }

  async read(path: string, maxBytes: number): Promise<Uint8Array> {
    const file = await this.file(path);
    if (!file) throw new SourceGoneError(path);
    if (Number(file.size ?? 0) > maxBytes) throw new FileTooLargeError(path, maxBytes);
    const stream = await this.request(() =>
      this.api.files.get({ fileId: file.id!, alt: 'media' }, { ...this.call, responseType: 'stream' }),
    );
    return readLimited(stream as unknown as Readable, path, maxBytes);
  }

  /**
   * An existing file gets the bytes as a new revision, which Drive swaps in
   * whole. A new one is created under a temporary name, filled, then renamed,
   * as on the other sources.
   */
  async write(path: string, bytes: Uint8Array): Promise<void> {
    const { folder, name } = splitPath(path);
    const parentId = (await this.folderId(folder, true))!;
    const media = { mimeType: 'application/octet-stream', body: Buffer.from(bytes) };
    const existing = await this.file(path);
    if (existing) {
      await this.request(() => this.api.files.update({ fileId: existing.id!, media }, this.call));
      return;
    }
    const created = await this.request(() =>
      this.api.files.create({ requestBody: { name: temporaryName(name), parents: [parentId] }, fields: 'id' }, this.call),
    );
    try {
      await this.request(() => this.api.files.update({ fileId: created.id!, media }, this.call));
      await this.request(() => this.api.files.update({ fileId: created.id!, requestBody: { name } }, this.call));
    } catch (err) {
      await this.request(() => this.api.files.delete({ fileId: created.id! }, this.call)).catch(() => undefined);
      throw err;
    }
  }

  async move(from: string, to: string): Promise<void> {
    const file = await this.file(from);
    if (!file) throw new SourceGoneError(from);
    const target = splitPath(to);
    const targetId = (await this.folderId(target.folder, true))!;
    if (await this.file(to)) throw new TargetExistsError(to);
    const sourceId = (await this.folderId(splitPath(from).folder, false))!;
    const reparent = targetId === sourceId ? {} : { addParents: targetId, removeParents: sourceId };
    try {
      await this.request(() => this.api.files.update({ fileId: file.id!, ...reparent, requestBody: { name: target.name } }, this.call));
    } catch (err) {
      if (statusOf(err) === 404) throw new SourceGoneError(from, { cause: err });
      throw err;
    }
  }

  async check(): Promise<void> {
    let root: drive_v3.Schema$File;
    try {
      root = await this.request(() => this.api.files.get({ fileId: this.options.rootFolderId, fields: 'id,mimeType' }, this.call));
    } catch (err) {
      if (err instanceof SourceUnavailableError) throw err;
      throw new SourceError(`${this.where}: ${(err as Error).message}`, { cause: err });
    }
    if (root.mimeType !== FOLDER) throw new SourceError(`${this.where}: not a folder`);
  }

  /** Where the change log stands now: changes after this token are new. */
  async startPageToken(): Promise<string> {
    const data = await this.request(() => this.api.changes.getStartPageToken({}, this.call));
    return data.startPageToken!;
  }

  /** Which of `folders` had files added, changed or moved in since `token`; a folder not made yet had none. */
  async changes(token: string, folders: string[]): Promise<DriveChanges> {
    const watched = new Map<string, string>();
    for (const folder of folders) {
      const id = await this.folderId(folder, false);
      if (id) watched.set(id, folder);
    }
    const changed = new Set<string>();
    let pageToken = token;
    for (;;) {
      const page = await this.request(() =>
        this.api.changes.list(
          { pageToken, fields: 'nextPageToken,newStartPageToken,changes(removed,file(parents))', pageSize: 1000 },
          this.call,
        ),
      );
      for (const change of page.changes ?? []) {
        if (change.removed) continue;
        for (const parent of change.file?.parents ?? []) if (watched.has(parent)) changed.add(watched.get(parent)!);
      }
      if (!page.nextPageToken) return { folders: [...changed], token: page.newStartPageToken! };
      pageToken = page.nextPageToken;
    }
  }

  async close(): Promise<void> {}
}
