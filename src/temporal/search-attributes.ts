import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * What operators filter on in the Temporal UI. Values are opaque ids and enum
 * words only: search attributes are stored unencrypted, so no personal data.
 */
export const OPERATION = defineSearchAttributeKey('EinvoiceOperation', SearchAttributeType.KEYWORD);
export const ACCOUNT = defineSearchAttributeKey('EinvoiceAccount', SearchAttributeType.KEYWORD);
export const OUTCOME = defineSearchAttributeKey('EinvoiceOutcome', SearchAttributeType.KEYWORD);

export const SEARCH_ATTRIBUTES = [OPERATION, ACCOUNT, OUTCOME] as const;

/** `sent` and `queued` are the outcomes of the e-mail workflows (queued: still retrying). */
export type Outcome = 'running' | 'valid' | 'invalid' | 'failed' | 'sent' | 'queued';
