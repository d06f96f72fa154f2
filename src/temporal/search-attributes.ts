import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributePair } from '@temporalio/common';

/**
 * What operators filter on in the Temporal UI. Values are opaque ids and enum
 * words only: search attributes are stored unencrypted, so no personal data.
 */
export const OPERATION = defineSearchAttributeKey('EinvoiceOperation', SearchAttributeType.KEYWORD);
export const ACCOUNT = defineSearchAttributeKey('EinvoiceAccount', SearchAttributeType.KEYWORD);
export const OUTCOME = defineSearchAttributeKey('EinvoiceOutcome', SearchAttributeType.KEYWORD);
/** A connector's route, and the name the file was dropped under: what an operator looks for when a file went missing. */
export const ROUTE = defineSearchAttributeKey('EinvoiceRoute', SearchAttributeType.KEYWORD);
export const FILE = defineSearchAttributeKey('EinvoiceFile', SearchAttributeType.KEYWORD);

export const SEARCH_ATTRIBUTES = [OPERATION, ACCOUNT, OUTCOME, ROUTE, FILE] as const;

/**
 * `sent` and `queued` are the outcomes of the e-mail workflows (queued: still retrying);
 * `refused` and `duplicate` those of a connector's file (refused: filed into error/ with its report);
 * `awaiting-review` and `expired` those of a refused conversion waiting for a person (workflows/review.ts).
 */
export type Outcome =
  'running' | 'valid' | 'invalid' | 'failed' | 'sent' | 'queued' | 'refused' | 'duplicate' | 'awaiting-review' | 'expired';

/** What a workflow is started with: its operation and account, running, and a connector's route and file name. */
export function startAttributes(operation: string, accountId: string, file?: { route: string; name: string }): SearchAttributePair[] {
  return [
    { key: OPERATION, value: operation },
    { key: ACCOUNT, value: accountId },
    { key: OUTCOME, value: 'running' },
    ...(file
      ? [
          { key: ROUTE, value: file.route },
          { key: FILE, value: file.name },
        ]
      : []),
  ];
}
