import type { Migration } from './migrate.js';

/**
 * The schema, as numbered migrations. Append new migrations; never edit one that has shipped.
 *
 * The DDL is shared by SQLite and PostgreSQL, so it sticks to TEXT, INTEGER and BIGINT.
 * Timestamps are epoch milliseconds (BIGINT). JSON is stored as TEXT. Ids are TEXT: opaque
 * random ids for accounts and tokens, UUIDs for documents and usage records. Documents also
 * carry a per-installation integer `number` (migration 3), the id the API shows where the
 * SPEC wants an integer.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts, api tokens, documents, usage, idempotency keys',
    statements: [
      `CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_at BIGINT NOT NULL
      )`,
      `CREATE TABLE api_tokens (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id),
        label TEXT NOT NULL,
        secret_hash TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        last_used_at BIGINT,
        revoked_at BIGINT
      )`,
      `CREATE INDEX api_tokens_account_idx ON api_tokens (account_id, created_at)`,
      `CREATE TABLE documents (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id),
        kind TEXT NOT NULL,
        blob_key TEXT NOT NULL,
        file_name TEXT NOT NULL,
        content_type TEXT NOT NULL,
        size BIGINT NOT NULL,
        sha256 TEXT NOT NULL,
        workflow_id TEXT,
        created_at BIGINT NOT NULL,
        expires_at BIGINT,
        meta TEXT NOT NULL
      )`,
      `CREATE INDEX documents_account_created_idx ON documents (account_id, created_at DESC, id DESC)`,
      `CREATE INDEX documents_expires_idx ON documents (expires_at) WHERE expires_at IS NOT NULL`,
      // Usage outlives the documents it refers to (documents expire; billing history does not).
      `CREATE TABLE usage_records (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id),
        operation TEXT NOT NULL,
        units INTEGER NOT NULL,
        document_id TEXT REFERENCES documents (id) ON DELETE SET NULL,
        created_at BIGINT NOT NULL
      )`,
      `CREATE INDEX usage_records_account_created_idx ON usage_records (account_id, created_at)`,
      `CREATE TABLE idempotency_keys (
        account_id TEXT NOT NULL REFERENCES accounts (id),
        key TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'done')),
        response TEXT,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        PRIMARY KEY (account_id, key)
      )`,
      `CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at)`,
    ],
  },
  {
    version: 2,
    name: 'e-mail sends and sender rules',
    statements: [
      // recipients, accepted and rejected are JSON arrays; the message itself is a blob (draft_key).
      `CREATE TABLE mail_sends (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id),
        document_id TEXT REFERENCES documents (id) ON DELETE SET NULL,
        resend_of TEXT REFERENCES mail_sends (id),
        request_id TEXT NOT NULL,
        draft_key TEXT NOT NULL,
        via TEXT NOT NULL CHECK (via IN ('smtp', 'outbox')),
        message_id TEXT NOT NULL,
        sender TEXT NOT NULL,
        recipients TEXT NOT NULL,
        subject TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
        attempts INTEGER NOT NULL,
        response TEXT,
        accepted TEXT NOT NULL,
        rejected TEXT NOT NULL,
        error_code TEXT,
        error_message TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        sent_at BIGINT
      )`,
      `CREATE INDEX mail_sends_account_created_idx ON mail_sends (account_id, created_at DESC, id DESC)`,
      `CREATE INDEX mail_sends_document_idx ON mail_sends (document_id, created_at)`,
      // No row for an account: it may use no sender address (src/mail/sender-policy.ts).
      `CREATE TABLE mail_sender_rules (
        account_id TEXT NOT NULL REFERENCES accounts (id),
        rule TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (account_id, rule)
      )`,
    ],
  },
  {
    version: 3,
    name: 'document numbers: per-installation integer ids; index for listing one kind',
    statements: [
      // Named counters, incremented in the transaction that uses the value (counters.ts): the row
      // lock serialises concurrent inserts on PostgreSQL, BEGIN IMMEDIATE does on SQLite. A number
      // is never handed out twice, even after its document is deleted.
      `CREATE TABLE counters (
        name TEXT PRIMARY KEY,
        value BIGINT NOT NULL
      )`,
      // Nullable only because SQLite cannot add a NOT NULL column to existing rows; every insert
      // sets it (documents.ts) and the backfill below numbers the existing rows.
      `ALTER TABLE documents ADD COLUMN number BIGINT`,
      `UPDATE documents SET number = numbered.n
       FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM documents) AS numbered
       WHERE documents.id = numbered.id`,
      `INSERT INTO counters (name, value) SELECT 'documents', COALESCE(MAX(number), 0) FROM documents`,
      `CREATE UNIQUE INDEX documents_number_idx ON documents (number)`,
      `CREATE INDEX documents_account_kind_created_idx ON documents (account_id, kind, created_at DESC, id DESC)`,
    ],
  },
  {
    version: 4,
    name: 'usage records name their source',
    statements: [
      // The JobSource as JSON (an API request, or a connector route and file); NULL for records written before.
      `ALTER TABLE usage_records ADD COLUMN source TEXT`,
    ],
  },
  {
    version: 5,
    name: 'connector ledger',
    statements: [
      // One row per content per route (connector-ledger.ts): outlives Temporal's retention, so a copy dropped much later is still a duplicate.
      `CREATE TABLE connector_files (
        route TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        workflow_id TEXT NOT NULL,
        file_name TEXT NOT NULL,
        status TEXT NOT NULL,
        result_path TEXT,
        first_seen_at BIGINT NOT NULL,
        finished_at BIGINT,
        PRIMARY KEY (route, content_hash)
      )`,
    ],
  },
  {
    version: 6,
    name: 'retention: drafts removed once no longer needed',
    statements: [
      // Set by the retention job (retention.ts) when it removed the send's stored message; the record stays.
      `ALTER TABLE mail_sends ADD COLUMN draft_removed_at BIGINT`,
    ],
  },
  {
    version: 7,
    name: 'the review queue: kept uploads, labelled examples, account settings',
    statements: [
      // Whether the account's own createZugferdFromPdf calls enter the review queue when refused (src/jobs/submit/review-api.ts); 0: they do not.
      `ALTER TABLE accounts ADD COLUMN review_api_refusals INTEGER NOT NULL DEFAULT 0`,
      // The upload of a refused API conversion while it waits in the review queue (review-files.ts); retention removes it after expires_at.
      `CREATE TABLE review_files (
        review_id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        blob_key TEXT NOT NULL,
        expires_at BIGINT NOT NULL
      )`,
      // Whether a person's corrections in the review queue are kept as labelled examples (labelled-examples.ts); 1: kept.
      `ALTER TABLE accounts ADD COLUMN keep_examples INTEGER NOT NULL DEFAULT 1`,
      // One per review that created its e-invoice: the pages with the confirmed invoice XML, and each value confirmed (JSON: field, value, read, place, changed).
      `CREATE TABLE labelled_examples (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        blob_key TEXT NOT NULL,
        file_name TEXT NOT NULL,
        labels TEXT NOT NULL,
        created_at BIGINT NOT NULL
      )`,
      `CREATE INDEX labelled_examples_account ON labelled_examples (account_id, created_at)`,
    ],
  },
];
