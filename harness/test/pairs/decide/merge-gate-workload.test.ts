// "Workload changed" is no exemption a pull request can claim: a fit point (a cost per operation)
// of another workload is judged as usual, and the `workload` rule fails any changed workload.
import { describe, expect, it } from 'vitest';
import { gateResult, parseGateRule } from '../../../src/pairs/decide/merge-gate.js';
import { pairsPoint } from '../../helpers/pairs.js';

const slower = (over: Parameters<typeof pairsPoint>[0] = {}) => {
  const p = pairsPoint(over);
  return { ...p, lead: { ...p.lead, verdict: 'slower' as const, ratio: 1.3 } };
};

describe('the merge rule and changed workloads', () => {
  it('a fit point slower per operation fails `slower` whatever its workload', () => {
    const p = slower({ kind: 'fit', workloadChanged: 'input_bytes 40000 → 80000' });
    expect(gateResult(parseGateRule('broken,slower'), 0, [p]).fail).toBe(true);
  });

  it('a whole-process point of another workload measures other work: only `workload` fails it', () => {
    const p = slower({ kind: 'process', workloadChanged: "the generated input's bytes" });
    expect(gateResult(parseGateRule('broken,slower,work>2%'), 0, [p]).fail).toBe(false);
    expect(gateResult(parseGateRule('workload'), 0, [p])).toMatchObject({
      fail: true,
      because: '1 point with a changed workload',
    });
    expect(parseGateRule('broken,workload')).toEqual({ text: 'broken,workload', broken: true, workload: true });
  });
});
