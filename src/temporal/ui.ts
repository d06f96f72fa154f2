/**
 * Where the Temporal Web UI is, and whether it answers: the page links a job to its workflow only
 * then. TEMPORAL_UI_URL names it for a cluster; the embedded dev server serves it on its UI port.
 */
export interface TemporalUi {
  /** The workflow's page, or undefined while the UI cannot be reached. */
  workflowUrl(workflowId: string): Promise<string | undefined>;
}

const PROBE_TIMEOUT_MS = 1_500;
const PROBE_MAX_AGE_MS = 30_000;

export function temporalUi(baseUrl: string | undefined, namespace: string): TemporalUi {
  let probe: { at: number; reachable: Promise<boolean> } | undefined;
  const reachable = () => {
    if (!baseUrl) return Promise.resolve(false);
    if (!probe || Date.now() - probe.at > PROBE_MAX_AGE_MS) {
      probe = {
        at: Date.now(),
        reachable: fetch(baseUrl, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS), redirect: 'manual' }).then(
          (r) => r.status < 500,
          () => false,
        ),
      };
    }
    return probe.reachable;
  };
  return {
    async workflowUrl(workflowId) {
      if (!(await reachable())) return undefined;
      return `${baseUrl}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`;
    },
  };
}
