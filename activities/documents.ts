import { Context } from '@temporalio/activity';
import { labelsOf } from '../src/conversion/labels.js';
import type { FieldReport } from '../src/operations/analysis.js';
import type { Invoice } from '../src/invoice/model.js';
import type { UsageEntry } from '../src/storage/index.js';
import type { RequestContext } from '../src/operations/context.js';
import type { ActivityDeps } from './deps.js';
import { stepBlobs } from './step.js';

export interface StoreDocumentInput {
  ctx: RequestContext;
  /** Chosen by the workflow (deterministic), so a retried activity stores the same row once. */
  documentId: string;
  blobKey: string;
  kind: string;
  fileName: string;
  contentType: string;
  meta: Record<string, unknown>;
  usage: UsageEntry | UsageEntry[];
}

export function documentActivities({ blobs, storage }: ActivityDeps) {
  return {
    /** A creation nothing is kept of: its usage, and document numbers for the answer. */
    async recordUnkeptCreation(input: {
      ctx: RequestContext;
      usageId: string;
      usage?: UsageEntry;
      reserve: number;
    }): Promise<{ numbers: number[] }> {
      const numbers = await storage.recordUnkept({
        accountId: input.ctx.accountId,
        usageId: input.usageId,
        ...(input.usage ? { usage: input.usage } : {}),
        reserve: input.reserve,
        source: input.ctx.source,
      });
      return { numbers };
    },

    /**
     * Keeps a reviewed e-invoice as a labelled example (src/storage/labelled-examples.ts), where
     * the account keeps them: a copy of its file, so that the document's own expiry leaves it,
     * and each value the person confirmed, with what was read and where.
     */
    async keepLabelledExample(input: {
      ctx: RequestContext;
      reviewId: string;
      pdfBlobKey: string;
      fileName: string;
      read: Invoice;
      confirmed: Invoice;
      /** Where each value read stood on the page. */
      fields?: Record<string, FieldReport>;
    }): Promise<{ kept: boolean }> {
      if (!(await storage.examples.keeps(input.ctx.accountId))) return { kept: false };
      const { key } = await stepBlobs(blobs).put(await blobs.get(input.pdfBlobKey));
      await storage.examples.add({
        id: input.reviewId,
        accountId: input.ctx.accountId,
        blobKey: key,
        fileName: input.fileName,
        labels: labelsOf(input.read, input.confirmed, input.fields),
        createdAt: Date.now(),
      });
      return { kept: true };
    },

    /** Records a created document and its usage in one transaction. */
    async storeDocument(input: StoreDocumentInput): Promise<{ documentId: string }> {
      const { size, sha256 } = await blobs.stat(input.blobKey);
      await storage.recordDocument({
        document: {
          id: input.documentId,
          accountId: input.ctx.accountId,
          kind: input.kind,
          blobKey: input.blobKey,
          fileName: input.fileName,
          contentType: input.contentType,
          size,
          sha256,
          workflowId: Context.current().info.workflowExecution?.workflowId ?? null,
          meta: input.meta,
        },
        usage: input.usage,
        source: input.ctx.source,
      });
      return { documentId: input.documentId };
    },
  };
}
