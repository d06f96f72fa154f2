import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Limits a running process, all its threads and whatever it starts later, to `cpus` cores: a
 * control group of the cpu controller with a CFS quota, which is what a container's CPU limit
 * (`deploy.resources.limits.cpus` in compose, `resources.limits.cpu` in Kubernetes) sets up.
 * Linux only, and only where this process may write the cgroup tree (root, as on the test
 * machines); cgroup v2 (`cpu.max`) or v1 (`cpu.cfs_quota_us`). Returns the function that removes
 * the group once the process has ended.
 */
export function limitCpus(pid: number, cpus: number, name: string): () => void {
  const period = 100_000;
  const quota = Math.round(cpus * period);
  const v2 = '/sys/fs/cgroup';
  const v1 = '/sys/fs/cgroup/cpu';
  let dir: string;
  if (existsSync(path.join(v2, 'cgroup.controllers')) && readFileSync(path.join(v2, 'cgroup.subtree_control'), 'utf8').includes('cpu')) {
    dir = path.join(v2, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'cpu.max'), `${quota} ${period}`);
  } else if (existsSync(path.join(v1, 'cpu.cfs_quota_us'))) {
    dir = path.join(v1, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(period));
    writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(quota));
  } else {
    throw new Error('No writable cpu controller in /sys/fs/cgroup: a CPU limit needs Linux control groups (and root)');
  }
  // Writing a process id to cgroup.procs moves the whole process, every thread of it.
  writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
  return () => {
    try {
      rmdirSync(dir);
    } catch {
      // still in use (a child outlived its parent) or gone already: the kernel keeps an empty group harmlessly
    }
  };
}
