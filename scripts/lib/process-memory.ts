import { readFileSync } from 'node:fs';

/** Resident memory of a process in MiB (Linux /proc), 0 when it is gone. */
export function rssMiB(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}
