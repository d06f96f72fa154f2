import { readdirSync, readFileSync } from 'node:fs';

/** Resident memory of a process in MiB (Linux /proc), 0 when it is gone. */
export function rssMiB(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}

/**
 * CPU time (user + system, ms) of a process and every descendant alive now, summed per command
 * name (`node`, `temporal`, `java` …), from /proc. Read before and after a run: the difference
 * per request says which process spends the time, independent of what else loads the machine.
 */
export function treeCpuMs(rootPid: number | undefined): Map<string, number> {
  const out = new Map<string, number>();
  if (rootPid === undefined) return out;
  const procs = new Map<number, { ppid: number; comm: string; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command is in parentheses and may itself contain spaces or parentheses.
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      procs.set(Number(entry), {
        comm: stat.slice(stat.indexOf('(') + 1, close),
        ppid: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]),
      });
    } catch {
      // gone between the listing and the read
    }
  }
  const inTree = (pid: number): boolean => pid === rootPid || (procs.has(pid) && pid > 1 && inTree(procs.get(pid)!.ppid));
  for (const [pid, p] of procs) if (inTree(pid)) out.set(p.comm, (out.get(p.comm) ?? 0) + p.ticks * TICK_MS);
  return out;
}

/** Linux reports CPU time in clock ticks of 1/100 s (USER_HZ) on every common architecture. */
const TICK_MS = 10;
