// The paired diff's countings that run side by side (a family waiting for its re-check beside the
// points that wait for none) share the cores through one gate: never more runs at once than its
// slots, first come first served, and a slot freed by a failed run is freed all the same.
import { describe, expect, it } from 'vitest';
import { slots } from '../../../src/pairs/engine/count-sides.js';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('slots', () => {
  it('runs at most n at once, in the order they asked', async () => {
    const gate = slots(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const run = (i: number) =>
      gate(async () => {
        started.push(i);
        running++;
        most = Math.max(most, running);
        await tick();
        running--;
        return i;
      });
    expect(await Promise.all([0, 1, 2, 3, 4].map(run))).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it('frees the slot of a run that throws', async () => {
    const gate = slots(1);
    await expect(
      gate(async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await gate(async () => 'next')).toBe('next');
  });
});
