import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Logger } from 'pino';
import { lookAndClaim, unfinished, type ClaimedFile, type LookResult, type RefusedFile } from '../connectors/claim.js';
import type { ConnectorConfig, RouteConfig } from '../connectors/config.js';
import { donePath, numbered, reportNames, resultName } from '../connectors/names.js';
import { lookOf, nameFilter } from '../connectors/readiness.js';
import { reportJson, reportText, type FileOutcome, type FileReport } from '../connectors/report.js';
import { FileTooLargeError, SourceGoneError, TargetExistsError } from '../connectors/sources/errors.js';
import { join, splitPath } from '../connectors/sources/paths.js';
import { changeLogOf, type FolderSource } from '../connectors/sources/source.js';
import { isTemporaryName } from '../connectors/sources/temporary-names.js';
import { toV2Invoice } from '../src/invoice/output.js';
import { connectorFiles, conversions, type ConnectorStage } from '../src/metrics/metrics.js';
import {
  connectorFileOperation,
  type ConnectorFileRef,
  type FileConnectorResultInput,
  type FiledConnectorFile,
  type StagedConnectorFile,
} from '../connectors/file-operation.js';
import { EXTRACT_JSON, VALIDATE, type ConnectorOperation } from '../connectors/operations.js';
import type { FileToStart, LookAtRouteInput, RouteLook } from '../connectors/watch-operation.js';
import { analyseOperation } from '../src/operations/analysis.js';
import { convertOperation } from '../src/operations/convert.js';
import { createXInvoiceOperation } from '../src/operations/xrechnung.js';
import type { IntakeLimits } from '../src/files/declared-size.js';
import type { LedgerEntry } from '../src/storage/connector-ledger.js';
import { checkFile, MAX_CONVERT_FILE_BYTES, PDF_ONLY, type FileRules } from '../src/jobs/intake/file.js';
import { parseInvoice } from '../src/jobs/intake/field-problems.js';
import { jobContext, jobId, type IntakeDeps } from '../src/jobs/intake/job.js';
import { prepareMail } from '../src/jobs/intake/mail.js';
import { JobRefusal } from '../src/jobs/intake/refusal.js';
import { LIMITS } from '../src/mail/schema.js';
import type { MailRequest } from '../src/mail/types.js';
import type { RequestContext } from '../src/operations/context.js';
import { stepBlobs } from './step.js';

/** What the connector activities reach: the routes and their open sources, and the job layer's stores and file checks. */
export interface ConnectorDeps {
  config: ConnectorConfig;
  sources: ReadonlyMap<string, FolderSource>;
  jobs: IntakeDeps;
  log: Logger;
}

const MEGABYTE = 1024 * 1024;
const DOCUMENT: FileRules = { maxBytes: MAX_CONVERT_FILE_BYTES, accept: ['pdf', 'png', 'jpeg', 'tiff'] };

export function connectorActivities(deps: ConnectorDeps) {
  return {
    /**
     * One look at a route's folder: claims what is complete, enters every file in processing/
     * (the claimed ones and those a crash left there) in the ledger and answers those for the
     * watcher to start, files away duplicates and oversized files with a report, and says when to
     * look next. What it knows for the next look travels in the watcher's state, not in this
     * process: any connector process may make the next.
     */
    lookAtRoute: (input: LookAtRouteInput): Promise<RouteLook> => lookAtRoute(deps, input),
    /** Reads the claimed file and checks it for the route's operation; a file that does not fit is refused for good. */
    stageConnectorFile: (input: StageConnectorFileInput): Promise<StagedConnectorFile> => stageConnectorFile(deps, input),
    /** Writes result and reports, files the input into done/ or error/ and records the end in the ledger. Safe to repeat. */
    fileConnectorResult: (input: FileConnectorResultInput): Promise<FiledConnectorFile> => fileConnectorResult(deps, input),
  };
}

interface StageConnectorFileInput {
  ctx: RequestContext;
  route: string;
  operation: ConnectorOperation;
  file: ConnectorFileRef;
}

function routeOf(deps: ConnectorDeps, name: string): RouteConfig {
  const route = deps.config.routes.find((r) => r.name === name);
  if (!route) throw ApplicationFailure.nonRetryable(`No route named ${name} is configured (any more).`, 'ROUTE_UNKNOWN');
  return route;
}

const sourceOf = (deps: ConnectorDeps, name: string): FolderSource => deps.sources.get(name)!;

async function lookAtRoute(deps: ConnectorDeps, input: LookAtRouteInput): Promise<RouteLook> {
  const route = routeOf(deps, input.route);
  const source = sourceOf(deps, route.source);
  const nextLookMs = lookIntervals(route, deps.config);
  const changes = await changeLogToken(route, source, input.previous);
  if (changes?.unchanged) return { ...input.previous, changes: changes.token, toStart: [], nextLookMs };
  const before = lookOf(input.previous.look);
  const result = await lookAndClaim(route, source, before, Date.now());
  const accepts = nameFilter(route.files);
  count(route, 'seen', [...result.look.values()].filter((e) => !before.has(e.path) && !isTemporaryName(e.name) && accepts(e.name)).length);
  count(route, 'claimed', result.claimed.length + result.refused.length);
  const { inHand, toStart } = await filesInProcessing(deps, route, source, result, input.previous.inHand ?? []);
  const taken = new Set([...result.claimed, ...result.refused].map((f) => f.name));
  const arriving = [...result.look.values()].filter((e) => !taken.has(e.name) && !isTemporaryName(e.name) && accepts(e.name)).length;
  return {
    look: [...result.look.values()],
    pending: arriving > 0,
    ...(changes?.token ? { changes: changes.token } : {}),
    inHand,
    waiting: arriving,
    toStart,
    nextLookMs,
  };
}

/**
 * A change-log source is listed only when its log names the route's folder or its processing folder (where
 * a claim that a crash cut short shows), or when the last look left files pending.
 */
async function changeLogToken(
  route: RouteConfig,
  source: FolderSource,
  previous: LookAtRouteInput['previous'],
): Promise<{ token: string; unchanged: boolean } | undefined> {
  const log = changeLogOf(source);
  if (!log) return undefined;
  if (previous.changes && !previous.pending) {
    const changed = await log.changes(previous.changes, [route.folder, route.processing]);
    return { token: changed.token, unchanged: changed.folders.length === 0 };
  }
  // Taken before the listing, so what arrives during it is in the log next time.
  return { token: await log.startPageToken(), unchanged: false };
}

/**
 * Every file in processing/ that no earlier look has in hand: refused ones and duplicates filed
 * away, the others handed to the watcher to start their workflows. Answers the files in hand
 * (whose workflows run) and those to start.
 */
async function filesInProcessing(
  deps: ConnectorDeps,
  route: RouteConfig,
  source: FolderSource,
  result: LookResult,
  previousInHand: string[],
): Promise<{ inHand: string[]; toStart: FileToStart[] }> {
  const inProcessing = await source.list(route.processing);
  const claimedNow = new Set([...result.claimed, ...result.refused].map((f) => f.path));
  const known = new Set(previousInHand);
  const inHand = inProcessing.filter((e) => known.has(handKey(e)) && !claimedNow.has(e.path)).map(handKey);
  const fresh = inProcessing.filter((e) => !known.has(handKey(e)) && !claimedNow.has(e.path));
  const claimed = [...result.claimed, ...(await unfinished(route, source, fresh))];
  for (const file of [...result.refused, ...claimed.filter((c): c is RefusedFile => 'reason' in c)])
    await refuseOversized(route, source, file);
  const toStart: FileToStart[] = [];
  for (const file of claimed.filter((c): c is ClaimedFile => !('reason' in c))) {
    const start = await enterOrFileDuplicate(deps, route, source, file);
    if (start) toStart.push(start);
  }
  return { inHand, toStart };
}

async function stageConnectorFile(deps: ConnectorDeps, input: StageConnectorFileInput): Promise<StagedConnectorFile> {
  const route = routeOf(deps, input.route);
  try {
    const bytes = Buffer.from(await sourceOf(deps, route.source).read(input.file.path, route.maxFileMegabytes * MEGABYTE));
    const { bytes: stored, kind } = checked(input.operation, bytes, deps.jobs.limits);
    return { blobKey: (await stepBlobs(deps.jobs.blobs).put(stored)).key, kind };
  } catch (err) {
    throw asFailure(err);
  }
}

async function fileConnectorResult(deps: ConnectorDeps, input: FileConnectorResultInput): Promise<FiledConnectorFile> {
  const route = routeOf(deps, input.route);
  const source = sourceOf(deps, route.source);
  const { outcome, file } = input;
  // A created document that fails validation is no e-invoice to pass on: the input goes to error/ with the findings, and nothing to the output.
  const status = outcome.kind === 'done' && !(outcome.valid === false && input.operation !== VALIDATE) ? 'done' : 'refused';
  const inputTarget = status === 'done' ? donePath(route.done, new Date(input.finishedAt), file.name) : join(route.error, file.name);
  const inputPath = await fileAway(source, file.path, inputTarget);
  if (input.reviewedAfter) await fileRefusalReports(source, route.error, splitPath(inputPath).folder, file.name);
  // Results go to the route's output folder; without one, beside the filed input. Reports of refusals stay with the input.
  const out =
    status === 'done' && route.output
      ? { source: sourceOf(deps, route.output.source ?? route.source), folder: route.output.folder }
      : { source, folder: splitPath(inputPath).folder };
  const result = status === 'done' ? await resultBytes(deps, input) : undefined;
  const resultPath = result ? await writeOnce(out.source, join(out.folder, result.name), result.bytes) : undefined;
  const report: FileReport = {
    route: route.name,
    file: file.name,
    operation: input.operation,
    workflowId: Context.current().info.workflowExecution?.workflowId ?? input.ctx.requestId,
    at: input.finishedAt,
    outcome: reportOutcome(input, resultPath),
  };
  const reportPath = await writeReports(out, report);
  await recordFinish(deps, route, input, { status, inputPath, resultPath });
  const mail = await routeMail(
    deps,
    route,
    report,
    result && resultPath ? { name: splitPath(resultPath).name, bytes: result.bytes } : undefined,
  );
  return { status, inputPath, reportPath, ...(resultPath ? { resultPath } : {}), ...(mail ? { mail } : {}) };
}

/**
 * A refusal's reports go with its input once a person has settled it (`invoice.report.txt` as
 * `invoice.refusal.txt`, beside the result's own reports where there is no output folder), so
 * that error/ holds only what still waits.
 */
async function fileRefusalReports(source: FolderSource, errorFolder: string, to: string, input: string): Promise<void> {
  for (const name of Object.values(reportNames(input)))
    await fileAway(source, join(errorFolder, name), join(to, name.replace(/\.report\.(json|txt)$/, '.refusal.$1')), { gone: 'skip' });
}

/** The report for programs and the one for people, side by side; answers where the first went. */
async function writeReports(out: { source: FolderSource; folder: string }, report: FileReport): Promise<string> {
  const names = reportNames(report.file);
  const reportPath = await writeOnce(out.source, join(out.folder, names.json), Buffer.from(reportJson(report)));
  await writeOnce(out.source, join(out.folder, names.text), Buffer.from(reportText(report)));
  return reportPath;
}

/** The end of a file in the ledger, the log and the metrics. */
async function recordFinish(
  deps: ConnectorDeps,
  route: RouteConfig,
  input: FileConnectorResultInput,
  { status, inputPath, resultPath }: { status: 'done' | 'refused'; inputPath: string; resultPath: string | undefined },
): Promise<void> {
  const { outcome, file } = input;
  await deps.jobs.storage.connectorFiles.finish({ route: route.name, contentHash: file.hash, status, resultPath: resultPath ?? null });
  deps.log.info({ route: route.name, file: file.name, status, inputPath, resultPath }, 'connector file finished');
  count(route, status === 'done' ? 'done' : 'failed');
  if (input.operation === convertOperation.name)
    conversions.inc({ outcome: outcome.kind === 'done' ? 'converted' : outcome.code, via: 'connector' });
}

export type ConnectorActivities = ReturnType<typeof connectorActivities>;

/** The file's bytes as the operation's workflow takes them; a file that cannot be one is refused. */
function checked(
  operation: ConnectorOperation,
  bytes: Buffer,
  limits: IntakeLimits | undefined,
): { bytes: Buffer; kind: StagedConnectorFile['kind'] } {
  switch (operation) {
    case convertOperation.name:
    case analyseOperation.name:
      return { bytes, kind: checkFile(bytes, DOCUMENT, limits) };
    case EXTRACT_JSON:
      return { bytes, kind: checkFile(bytes, PDF_ONLY, limits) };
    case VALIDATE:
      // Invoice XML starts with its declaration or root element (after a byte order mark or blanks).
      return /^(?:\uFEFF)?\s*</.test(bytes.subarray(0, 256).toString('utf8'))
        ? { bytes, kind: 'xml' }
        : { bytes, kind: checkFile(bytes, PDF_ONLY, limits) };
    case createXInvoiceOperation.name: {
      let value: unknown;
      try {
        value = JSON.parse(bytes.toString('utf8'));
      } catch (err) {
        throw new JobRefusal('VALIDATION_ERROR', { userMessage: `The file is not valid JSON: ${(err as Error).message}` });
      }
      // The body of an XRechnung creation request ({ "invoice": … }) or the invoice alone.
      const invoice = parseInvoice(value && typeof value === 'object' && 'invoice' in value ? value.invoice : value);
      return { bytes: Buffer.from(JSON.stringify(invoice), 'utf8'), kind: 'json' };
    }
  }
}

function asFailure(err: unknown): unknown {
  if (err instanceof JobRefusal) {
    const { fields } = err.options;
    const userMessage =
      err.options.userMessage ?? (fields ? 'The invoice does not fit the EN 16931 invoice model; the fields below say where.' : undefined);
    return ApplicationFailure.create({
      nonRetryable: true,
      type: err.code,
      message: userMessage ?? err.message,
      details: [{ ...(fields ? { fields } : {}), ...(userMessage ? { userMessage } : {}) }],
    });
  }
  if (err instanceof FileTooLargeError) return ApplicationFailure.nonRetryable(err.message, 'FILE_TOO_LARGE');
  // Someone took the file out of processing/ by hand: nothing is left to do.
  if (err instanceof SourceGoneError) return ApplicationFailure.nonRetryable(err.message, 'FILE_MISSING');
  return err;
}

/**
 * Moves the input to `target`, or to `target (2)` … where that name is taken. A repeated call
 * finds the input gone and answers where it went; with `gone: 'skip'`, a caller that did not
 * move it before is told that it is gone (undefined).
 */
async function fileAway(source: FolderSource, from: string, target: string): Promise<string>;
async function fileAway(source: FolderSource, from: string, target: string, opts: { gone: 'skip' }): Promise<string | undefined>;
async function fileAway(source: FolderSource, from: string, target: string, opts?: { gone: 'skip' }): Promise<string | undefined> {
  for (let n = 1; ; n++) {
    const to = n === 1 ? target : numbered(target, n);
    try {
      await source.move(from, to);
      return to;
    } catch (err) {
      if (err instanceof TargetExistsError) continue;
      if (err instanceof SourceGoneError) return opts ? undefined : ((await landedAt(source, target)) ?? target);
      throw err;
    }
  }
}

/** Where an earlier attempt of fileAway put a file: the last numbered name of `target` that exists. */
async function landedAt(source: FolderSource, target: string): Promise<string | undefined> {
  const { folder } = splitPath(target);
  const names = new Set((await source.list(folder)).map((e) => e.name));
  let found: string | undefined;
  for (let n = 1; names.has(splitPath(n === 1 ? target : numbered(target, n)).name); n++) found = n === 1 ? target : numbered(target, n);
  return found;
}

/** Writes `bytes` at `path`, or under a numbered name where another file has it; the same bytes there already (a repeated call) count as written. */
async function writeOnce(source: FolderSource, path: string, bytes: Uint8Array): Promise<string> {
  const { folder } = splitPath(path);
  const existing = new Map((await source.list(folder)).map((e) => [e.path, e]));
  for (let n = 1; ; n++) {
    const to = n === 1 ? path : numbered(path, n);
    const there = existing.get(to);
    if (!there) {
      await source.write(to, bytes);
      return to;
    }
    if (there.size === bytes.length && Buffer.from(await source.read(to, bytes.length)).equals(Buffer.from(bytes))) return to;
  }
}

async function resultBytes(deps: ConnectorDeps, input: FileConnectorResultInput): Promise<{ name: string; bytes: Buffer } | undefined> {
  const name = resultName(input.operation, input.file.name);
  if (!name || input.outcome.kind !== 'done') return undefined;
  const { analysis, resultBlobKey } = input.outcome;
  if (analysis)
    return {
      name,
      bytes: Buffer.from(
        `${JSON.stringify({ extractionConfidence: analysis.extractionConfidence, invoice: toV2Invoice(analysis.invoice) }, null, 2)}\n`,
      ),
    };
  return resultBlobKey ? { name, bytes: await deps.jobs.blobs.get(resultBlobKey) } : undefined;
}

function reportOutcome(input: FileConnectorResultInput, resultPath: string | undefined): FileOutcome {
  const o = input.outcome;
  if (o.kind === 'done' && o.valid === false && input.operation !== VALIDATE) {
    return {
      kind: 'refused',
      code: 'RESULT_INVALID',
      userMessage: 'The document was built, but it breaks the rules below, so it was not written. Correct the input and drop it again.',
      ...(o.findings ? { findings: o.findings } : {}),
      ...(o.artefacts ? { artefacts: o.artefacts } : {}),
    };
  }
  if (o.kind === 'refused') {
    return {
      kind: 'refused',
      code: o.code,
      userMessage: o.details?.userMessage ?? o.message,
      ...(o.details?.fields ? { fields: o.details.fields } : {}),
      ...(o.details?.ruleCodes ? { ruleCodes: o.details.ruleCodes } : {}),
    };
  }
  return {
    kind: 'done',
    ...(resultPath ? { result: splitPath(resultPath).name } : {}),
    ...(o.valid !== undefined && input.operation === VALIDATE ? { valid: o.valid } : {}),
    ...(o.findings ? { findings: o.findings } : {}),
    ...(o.artefacts ? { artefacts: o.artefacts } : {}),
    ...(o.filled?.length ? { notes: o.filled.map((f) => `${f.bt} ${f.path}: ${f.source} (${f.rule})`) } : {}),
    ...(input.reviewedAfter ? { reviewedAfter: input.reviewedAfter } : {}),
  };
}

/**
 * The e-mail a route asks for about a handled file (`mail.onSuccess` when it was processed and
 * its result is valid, else `mail.onFailure`), stored as a draft for the file's workflow to send:
 * the report's headline as subject, its text as body, the result attached. The sender is checked
 * against the account's rules like any e-mail of the API; a sender the account may not use is
 * logged and the file stays filed (`connectors check` names such a route in advance).
 */
async function routeMail(
  deps: ConnectorDeps,
  route: RouteConfig,
  report: FileReport,
  result: { name: string; bytes: Buffer } | undefined,
): Promise<MailRequest | 'not-allowed' | undefined> {
  const succeeded = report.outcome.kind === 'done' && report.outcome.valid !== false;
  const order = succeeded ? route.mail?.onSuccess : route.mail?.onFailure;
  if (!order) return undefined;
  const text = reportText(report);
  const attach = result && result.bytes.byteLength <= LIMITS.attachmentBytes;
  const note = result && !attach ? `\nThe result is too large to attach; it is ${result.name} in the route's output folder.\n` : '';
  const address = (a: string) => ({ address: a, name: '' });
  const email = {
    from: address(order.from),
    to: order.to.map(address),
    cc: [],
    bcc: [],
    subject: text.slice(0, text.indexOf('\n')),
    message: `${text}${note}`,
    content: {},
    attachments: attach ? [{ fileName: result.name, content: result.bytes }] : [],
  };
  try {
    return await (
      await prepareMail({ ...deps.jobs, blobs: stepBlobs(deps.jobs.blobs) }, { accountId: route.account }, { useTransport: true, email })
    ).stage();
  } catch (err) {
    if (!(err instanceof JobRefusal) || err.code !== 'SENDER_NOT_ALLOWED') throw err;
    deps.log.warn(
      { route: route.name, file: report.file, sender: order.from },
      'the route may not send e-mail as this sender; no e-mail about the file',
    );
    return 'not-allowed';
  }
}

function count(route: RouteConfig, stage: ConnectorStage, files = 1): void {
  if (files > 0) connectorFiles.inc({ route: route.name, stage }, files);
}

/** A file over the route's size limit: to error/ with a report, no workflow (its content is never read). */
async function refuseOversized(route: RouteConfig, source: FolderSource, file: RefusedFile): Promise<void> {
  count(route, 'failed');
  const inputPath = await fileAway(source, file.path, join(route.error, file.name));
  const report: FileReport = {
    route: route.name,
    file: file.name,
    operation: route.operation,
    workflowId: '-',
    at: new Date().toISOString(),
    outcome: { kind: 'refused', code: 'FILE_TOO_LARGE', userMessage: file.reason },
  };
  const { folder } = splitPath(inputPath);
  const names = reportNames(file.name);
  await writeOnce(source, join(folder, names.json), Buffer.from(reportJson(report)));
  await writeOnce(source, join(folder, names.text), Buffer.from(reportText(report)));
}

/**
 * The ledger decides: new content (or content still under way) is handed to the watcher to start
 * its workflow, which may be running already (then the start finds it); finished content is a
 * duplicate, filed into done/ with a note instead of being processed again.
 */
async function enterOrFileDuplicate(
  deps: ConnectorDeps,
  route: RouteConfig,
  source: FolderSource,
  file: ClaimedFile,
): Promise<FileToStart | undefined> {
  const job = {
    account: { accountId: route.account },
    source: { kind: 'connector' as const, route: route.name, file: file.name, hash: file.hash },
  };
  const workflowId = `${connectorFileOperation.name}-${jobId(job.source)}`;
  const entered = await deps.jobs.storage.connectorFiles.enter({
    route: route.name,
    contentHash: file.hash,
    workflowId,
    fileName: file.name,
  });
  if (entered.outcome === 'finished') {
    await fileDuplicate(route, source, file, entered.entry);
    return undefined;
  }
  return {
    input: {
      ctx: jobContext(job, jobId(job.source)),
      route: route.name,
      operation: route.operation,
      options: route.options,
      file: { name: file.name, path: file.path, hash: file.hash },
      ...(route.operation === convertOperation.name && route.reviewDays > 0 ? { reviewDays: route.reviewDays } : {}),
    },
    workflowId,
    handKey: handKey({ path: file.path, size: file.bytes.length }),
    firstCopy: entered.entry.fileName === file.name,
  };
}

/** A copy of content processed before: into done/ with a note naming the first copy. */
async function fileDuplicate(route: RouteConfig, source: FolderSource, file: ClaimedFile, first: LedgerEntry): Promise<void> {
  const at = new Date();
  // Gone already: this was the first copy itself, filed away by its workflow since this look listed processing/.
  const inputPath = await fileAway(source, file.path, donePath(route.done, at, file.name), { gone: 'skip' });
  if (!inputPath) return;
  const report: FileReport = {
    route: route.name,
    file: file.name,
    operation: route.operation,
    workflowId: first.workflowId,
    at: at.toISOString(),
    outcome: {
      kind: 'duplicate',
      workflowId: first.workflowId,
      firstFile: first.fileName,
      firstSeenAt: new Date(first.firstSeenAt).toISOString(),
    },
  };
  const { folder } = splitPath(inputPath);
  await writeOnce(source, join(folder, reportNames(file.name).text), Buffer.from(reportText(report)));
  await writeOnce(source, join(folder, reportNames(file.name).json), Buffer.from(reportJson(report)));
  count(route, 'duplicate');
}

/** A file in processing/ as the watcher's state remembers it: a later file of the same name differs in size, or is claimed anew. */
function handKey(e: { path: string; size: number }): string {
  return `${e.size}:${e.path}`;
}

/**
 * Idle: the source's poll interval (a local folder's watch asks for looks in between). Pending:
 * soon again while files are still arriving, so a finished upload waits no longer than its minimum age.
 */
function lookIntervals(route: RouteConfig, config: ConnectorConfig): RouteLook['nextLookMs'] {
  const idle = config.sources[route.source]!.pollSeconds * 1000;
  return { idle, pending: Math.min(idle, Math.max(1_000, route.minAgeSeconds * 1000)) };
}
