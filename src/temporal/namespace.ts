import type { Connection } from '@temporalio/client';

/** What both connection kinds (the client's, a worker's) offer. */
type TemporalServices = Pick<Connection, 'workflowService' | 'operatorService'>;
import { msToTs, tsToMs } from '@temporalio/common/lib/time.js';
import proto from '@temporalio/proto';
import { SEARCH_ATTRIBUTES } from './search-attributes.js';

const RETENTION = '24 hours';
const { IndexedValueType } = proto.temporal.api.enums.v1;

/**
 * Makes the namespace fit for us on any cluster: 24-hour retention (SPEC keeps
 * async jobs 24 hours) and our search attributes. Idempotent; on a cluster where
 * we lack the rights, the caller gets the server's error and decides.
 */
export async function ensureNamespace(connection: TemporalServices, namespace: string): Promise<void> {
  const described = await describe(connection, namespace);
  if (!described) {
    await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs(RETENTION) });
  } else if (tsToMs(described.config?.workflowExecutionRetentionTtl) !== tsToMs(msToTs(RETENTION))) {
    await connection.workflowService.updateNamespace({ namespace, config: { workflowExecutionRetentionTtl: msToTs(RETENTION) } });
  }
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = SEARCH_ATTRIBUTES.filter((k) => !(k.name in (existing.customAttributes ?? {})));
  if (missing.length > 0) {
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((k) => [k.name, IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD])),
    });
  }
}

async function describe(connection: TemporalServices, namespace: string) {
  try {
    return await connection.workflowService.describeNamespace({ namespace });
  } catch (err) {
    if ((err as { code?: number }).code === 5 /* gRPC NOT_FOUND */) return undefined;
    throw err;
  }
}
