import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it, vi } from 'vitest';
import { HEARTBEAT_MS, withHeartbeats } from '../../activities/heartbeat.js';

describe('withHeartbeats', () => {
  it('beats while a step runs and stops when it ends, passing arguments and result through', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const env = new MockActivityEnvironment();
      const beats: number[] = [];
      env.on('heartbeat', () => beats.push(Date.now()));
      let finish!: (v: string) => void;
      const { slow } = withHeartbeats({
        slow: (name: string) => new Promise<string>((resolve) => (finish = (v) => resolve(`${v} ${name}`))),
      });
      const running = env.run(slow, 'invoice');
      await vi.advanceTimersByTimeAsync(3 * HEARTBEAT_MS);
      expect(beats).toHaveLength(3);
      finish('done');
      await expect(running).resolves.toBe('done invoice');
      await vi.advanceTimersByTimeAsync(3 * HEARTBEAT_MS);
      expect(beats).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not beat in a local activity, which its workflow task watches', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const env = new MockActivityEnvironment({ isLocal: true });
      let beats = 0;
      env.on('heartbeat', () => beats++);
      let finish!: () => void;
      const { slow } = withHeartbeats({ slow: () => new Promise<string>((resolve) => (finish = () => resolve('done'))) });
      const running = env.run(slow);
      await vi.advanceTimersByTimeAsync(3 * HEARTBEAT_MS);
      finish();
      await expect(running).resolves.toBe('done');
      expect(beats).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
