import type { Config } from '../config.js';
import type { JobSource } from '../operations/context.js';
import { createAccount, getAccount, listAccounts } from './accounts.js';
import { connectorCounts, enterConnectorFile, finishConnectorFile, getConnectorFile } from './connector-ledger.js';
import type { Database, Queryable } from './database.js';
import { openDatabase } from './open-database.js';
import {
  createDocument,
  documentNumbers,
  getDocument,
  getDocumentByNumber,
  listDocuments,
  reserveDocumentNumber,
  type DocumentRecord,
  type NewDocument,
} from './documents.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  deleteExpiredIdempotencyKeys,
  lookupIdempotencyKey,
  releaseIdempotencyKey,
} from './idempotency.js';
import {
  addSenderRule,
  createSendRecord,
  getSendRecord,
  listSendRecords,
  listSenderRules,
  markAttemptFailed,
  markFailed,
  markSending,
  markSent,
  originalSendOfDocument,
  removeSenderRule,
} from './mail-records.js';
import { keepsExamples, reviewsApiRefusals, setKeepsExamples, setReviewsApiRefusals } from './account-settings.js';
import { addExample, listExamples, removeExamples } from './labelled-examples.js';
import { keepReviewFile } from './review-files.js';
import { listUsage, recordUsage, sumUsage } from './usage.js';

/**
 * The repositories bound to one open database, for the service's components. The functions
 * they wrap (in accounts.ts, documents.ts, …) take the database first, so they also run
 * inside `db.transaction` with the transaction in its place.
 */
export interface Storage {
  db: Database;
  accounts: Bound<typeof accountFunctions>;
  documents: Bound<typeof documentFunctions>;
  usage: Bound<typeof usageFunctions>;
  idempotency: Bound<typeof idempotencyFunctions>;
  mail: Bound<typeof mailFunctions>;
  connectorFiles: Bound<typeof connectorFileFunctions>;
  examples: Bound<typeof exampleFunctions>;
  reviews: Bound<typeof reviewFunctions>;
  /**
   * Stores a created document and the usage it costs, in one transaction. Idempotent on
   * `document.id`: when that document exists already (a retried activity), nothing is written
   * and the stored document is returned, so usage is never counted twice.
   */
  recordDocument(input: DocumentWithUsage): Promise<DocumentRecord>;
  /**
   * For a creation nothing is kept of: records its usage (once, under `usageId`, however often a
   * retry calls) and reserves `reserve` document numbers, in one transaction.
   */
  recordUnkept(input: UnkeptCreation): Promise<number[]>;
  close(): Promise<void>;
}

export interface UsageEntry {
  operation: string;
  units: number;
}

export interface DocumentWithUsage {
  document: NewDocument & { id: string };
  /** One usage record, or several (e.g. one per page and step of a conversion). */
  usage: UsageEntry | UsageEntry[];
  /** What the usage is recorded against: the request or connector file. */
  source?: JobSource;
}

export interface UnkeptCreation {
  accountId: string;
  /** Chosen by the workflow, so that a retried activity records the usage once. */
  usageId: string;
  usage?: UsageEntry;
  reserve: number;
  source?: JobSource;
}

const accountFunctions = { create: createAccount, get: getAccount, list: listAccounts };
const documentFunctions = {
  create: createDocument,
  get: getDocument,
  getByNumber: getDocumentByNumber,
  numbers: documentNumbers,
  list: listDocuments,
};
const usageFunctions = { record: recordUsage, list: listUsage, sum: sumUsage };
const idempotencyFunctions = {
  claim: claimIdempotencyKey,
  lookup: lookupIdempotencyKey,
  complete: completeIdempotencyKey,
  release: releaseIdempotencyKey,
  deleteExpired: deleteExpiredIdempotencyKeys,
};
const mailFunctions = {
  createSend: createSendRecord,
  getSend: getSendRecord,
  listSends: listSendRecords,
  originalSendOfDocument,
  markSending,
  markSent,
  markAttemptFailed,
  markFailed,
  senderRules: listSenderRules,
  addSenderRule,
  removeSenderRule,
};

const connectorFileFunctions = { enter: enterConnectorFile, get: getConnectorFile, finish: finishConnectorFile, counts: connectorCounts };
const exampleFunctions = {
  keeps: keepsExamples,
  setKeeps: setKeepsExamples,
  add: addExample,
  list: listExamples,
  remove: removeExamples,
};
const reviewFunctions = { ofApi: reviewsApiRefusals, setOfApi: setReviewsApiRefusals, keepFile: keepReviewFile };

// `any`: the rest parameters differ per function, and a function type's parameters are contravariant.
type RepositoryFunction = (db: Queryable, ...args: any[]) => unknown;
type Bound<T extends Record<string, RepositoryFunction>> = {
  [K in keyof T]: T[K] extends (db: Queryable, ...args: infer A) => infer R ? (...args: A) => R : never;
};

function bind<T extends Record<string, RepositoryFunction>>(db: Queryable, functions: T): Bound<T> {
  return Object.fromEntries(Object.entries(functions).map(([name, fn]) => [name, (...args: unknown[]) => fn(db, ...args)])) as Bound<T>;
}

export async function recordDocument(db: Database, input: DocumentWithUsage, now = Date.now()): Promise<DocumentRecord> {
  return db.transaction(async (tx) => {
    // Concurrent retries of one activity wait here instead of failing on the primary key.
    await tx.lock(`document:${input.document.id}`);
    const existing = await getDocument(tx, input.document.id, input.document.accountId);
    if (existing) return existing;
    const document = await createDocument(tx, input.document, now);
    for (const usage of [input.usage].flat())
      await recordUsage(tx, { ...usage, accountId: document.accountId, documentId: document.id, source: input.source ?? null }, now);
    return document;
  });
}

export async function recordUnkept(db: Database, input: UnkeptCreation, now = Date.now()): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.lock(`usage:${input.usageId}`);
    const { rows } = await tx.query('SELECT id FROM usage_records WHERE id = $1', [input.usageId]);
    if (input.usage && rows.length === 0)
      await recordUsage(tx, { ...input.usage, id: input.usageId, accountId: input.accountId, source: input.source ?? null }, now);
    const numbers: number[] = [];
    for (let i = 0; i < input.reserve; i++) numbers.push(await reserveDocumentNumber(tx));
    return numbers;
  });
}

/** Opens the configured database (migrating it) and binds the repositories to it. */
export async function openStorage(config: Pick<Config, 'dataDir' | 'databaseUrl'>): Promise<Storage> {
  const db = await openDatabase(config);
  return {
    db,
    accounts: bind(db, accountFunctions),
    documents: bind(db, documentFunctions),
    usage: bind(db, usageFunctions),
    idempotency: bind(db, idempotencyFunctions),
    mail: bind(db, mailFunctions),
    connectorFiles: bind(db, connectorFileFunctions),
    examples: bind(db, exampleFunctions),
    reviews: bind(db, reviewFunctions),
    recordDocument: (input) => recordDocument(db, input),
    recordUnkept: (input) => recordUnkept(db, input),
    close: () => db.close(),
  };
}
