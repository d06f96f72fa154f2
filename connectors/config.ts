import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { z } from 'zod';
import { CONNECTOR_OPERATIONS, type ConnectorOperation } from './operations.js';
import { segments } from './sources/paths.js';

/**
 * The connectors' configuration file: where files come from (sources) and what happens to them
 * (routes). YAML or JSON (JSON is YAML), validated with zod; every error names its line, so an
 * operator fixes the file without guessing. Secrets never sit in this text: a source names the
 * file or environment variable that holds each one, and a literal `password:` is refused.
 */

/** A secret: read from a file (Docker/Kubernetes secrets) or an environment variable, never written here. */
const secret = z.union([
  z.strictObject({ file: z.string().min(1) }),
  z.strictObject({ env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/) }),
]);
export type SecretRef = z.infer<typeof secret>;

/** The folder as the sources name it, or undefined where it would climb out of the source. */
function folderKey(path: string): string | undefined {
  try {
    return segments(path).join('/');
  } catch {
    return undefined;
  }
}

const folder = z.string().refine((p) => folderKey(p) !== undefined, { message: "a folder inside the source, without '..'" });

const localSource = z.strictObject({
  kind: z.literal('local'),
  root: z.string().min(1),
  /**
   * Seconds between two looks besides the file-system watch, which tells of a new file at once: what
   * another machine writes to a network share (NFS, SMB) raises no event here.
   */
  pollSeconds: z.number().min(1).default(30),
});
const sftpSource = z.strictObject({
  kind: z.literal('sftp'),
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535).default(22),
  username: z.string().min(1),
  root: z.string().default('.'),
  privateKey: secret.optional(),
  passphrase: secret.optional(),
  password: secret.optional(),
  /** The server's host key as `ssh-keygen -l -E sha256 -f <key>` prints it (SHA256:…); any other key is refused. */
  hostKeySha256: z.string().optional(),
  /** Seconds between two looks at the remote folders. */
  pollSeconds: z.number().min(1).default(30),
});
const s3Source = z.strictObject({
  kind: z.literal('s3'),
  bucket: z.string().min(1),
  prefix: z.string().default(''),
  region: z.string().default('us-east-1'),
  /** MinIO, Hetzner, Wasabi, Ceph: their URL; AWS itself needs none. */
  endpoint: z.url().optional(),
  forcePathStyle: z.boolean().default(true),
  accessKeyId: secret,
  secretAccessKey: secret,
  pollSeconds: z.number().min(1).default(30),
});
const driveSource = z.strictObject({
  kind: z.literal('gdrive'),
  /** The id of the Drive folder that is this source's root. */
  rootFolderId: z.string().min(1),
  /** A service account key (JSON), or an OAuth client with a refresh token (JSON with client_id, client_secret, refresh_token). */
  credentials: secret,
  /** Another Drive API root, for a Drive v3 emulator in tests; Google's when left out. */
  apiRoot: z.url().optional(),
  pollSeconds: z.number().min(1).default(60),
});
const source = z.discriminatedUnion('kind', [localSource, sftpSource, s3Source, driveSource]);
export type SourceConfig = z.infer<typeof source>;

export type Operation = ConnectorOperation;

const mailTo = z.strictObject({
  to: z.array(z.email()).min(1),
  /** A sender the account is allowed to use (accounts.js allow-sender). */
  from: z.email(),
});

const route = z
  .strictObject({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'lower-case letters, digits and dashes'),
    /** The account the route's documents are processed for and billed to. */
    account: z.string().min(1),
    source: z.string().min(1),
    folder,
    /** Which file names (a glob, case-insensitive): `*.pdf`, `*.{pdf,png,jpg,tif,tiff}`. */
    files: z.string().min(1).default('*'),
    operation: z.enum(CONNECTOR_OPERATIONS),
    options: z
      .strictObject({
        syntax: z.enum(['CII', 'UBL']).optional(),
        withLineItems: z.boolean().optional(),
      })
      .default({}),
    /** Where results go: another folder, even on another source; next to the input when left out. */
    output: z.strictObject({ source: z.string().min(1).optional(), folder }).optional(),
    /** Where the route's claimed files wait while their workflow runs; `processing/<route name>` when left out. Never shared: it is what a route resumes after a crash. */
    processing: folder.optional(),
    done: folder.default('done'),
    error: folder.default('error'),
    /** A file must have been left alone this long (and look the same twice) before it is taken. */
    minAgeSeconds: z.number().min(0).default(10),
    /** Largest file taken; bigger ones go to `error/` with a report. */
    maxFileMegabytes: z.number().positive().max(100).default(11),
    mail: z.strictObject({ onSuccess: mailTo.optional(), onFailure: mailTo.optional() }).optional(),
    /**
     * A conversion refused for values a person can settle waits this many days in the review queue
     * (/app/review), its file in error/; 0: none waits, the file is only filed there.
     */
    reviewDays: z.number().int().min(0).max(365).default(30),
  })
  .transform((r) => ({ ...r, processing: r.processing ?? `processing/${r.name}` }));
export type RouteConfig = z.infer<typeof route>;

const config = z
  .strictObject({ sources: z.record(z.string().regex(/^[A-Za-z0-9_-]+$/), source), routes: z.array(route).min(1) })
  .superRefine((c, ctx) => {
    const names = new Set<string>();
    c.routes.forEach((r, i) => {
      if (names.has(r.name)) ctx.addIssue({ code: 'custom', path: ['routes', i, 'name'], message: `a second route named ${r.name}` });
      const sharing = c.routes.findIndex((o) => o !== r && o.source === r.source && folderKey(o.processing) === folderKey(r.processing));
      if (sharing >= 0 && sharing < i)
        ctx.addIssue({
          code: 'custom',
          path: ['routes', i, 'processing'],
          message: `route ${c.routes[sharing]!.name} has this processing folder already`,
        });
      names.add(r.name);
      if (!(r.source in c.sources)) ctx.addIssue({ code: 'custom', path: ['routes', i, 'source'], message: `no source named ${r.source}` });
      if (r.output?.source && !(r.output.source in c.sources)) {
        ctx.addIssue({ code: 'custom', path: ['routes', i, 'output', 'source'], message: `no source named ${r.output.source}` });
      }
      // A route that writes into the folder it watches would take its own results as new input.
      const out = r.output && (r.output.source ?? r.source) === r.source ? r.output.folder : undefined;
      for (const [key, f] of [
        ['output', out],
        ['processing', r.processing],
        ['done', r.done],
        ['error', r.error],
      ] as const) {
        if (f !== undefined && folderKey(f) === folderKey(r.folder)) {
          ctx.addIssue({ code: 'custom', path: ['routes', i, key], message: `must differ from the watched folder ${r.folder}` });
        }
      }
    });
  });
export type ConnectorConfig = z.infer<typeof config>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly file: string,
    readonly problems: ReadonlyArray<{ line: number; path: string; message: string }>,
  ) {
    super(`${file}: ${problems.map((p) => `line ${p.line}: ${p.path ? `${p.path}: ` : ''}${p.message}`).join('; ')}`);
  }
}

/** Parses and validates a configuration text; ConfigError lists every problem with its line. */
export function parseConfig(text: string, file: string): ConnectorConfig {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      file,
      doc.errors.map((e) => ({ line: lines.linePos(e.pos[0]).line, path: '', message: e.message.split('\n')[0]! })),
    );
  }
  const parsed = config.safeParse(doc.toJS());
  if (parsed.success) return parsed.data;
  throw new ConfigError(
    file,
    parsed.error.issues.map((issue) => ({
      line: lineOf(doc.contents, issue.path, lines),
      path: issue.path.join('.'),
      message: issue.message,
    })),
  );
}

/** The line of the deepest key on `path` that exists: a missing key is reported where its object starts. */
function lineOf(root: Node | null, path: readonly PropertyKey[], lines: LineCounter): number {
  let node: unknown = root;
  let at = startOf(root) ?? 0;
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => (p.key as { value?: unknown } | null)?.value === key);
      if (!pair) break;
      at = startOf(pair.key) ?? at;
      node = pair.value;
    } else if (isSeq(node) && typeof key === 'number' && node.items[key]) {
      node = node.items[key];
      at = startOf(node) ?? at;
    } else break;
  }
  return lines.linePos(at).line;
}

function startOf(node: unknown): number | undefined {
  return node && typeof node === 'object' && 'range' in node && Array.isArray(node.range) ? (node.range[0] as number) : undefined;
}
