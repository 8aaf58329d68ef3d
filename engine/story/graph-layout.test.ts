import { describe, expect, it } from 'vitest';
import { layoutGraph } from './graph-layout.js';
import type { GraphModel } from './graph.js';

describe('layoutGraph', () => {
  it('puts each moment in the row of its shortest distance from the start, unreachable ones last, without overlaps', () => {
    const g: GraphModel = {
      start: 'a',
      nodes: [
        { key: 'a', label: 'A', type: 'Monologue' }, { key: 'b', label: 'B', type: 'Crossroad' }, { key: 'c', label: 'C', type: 'Learn' },
        { key: 'd', label: 'D', type: 'Epilogue' }, { key: 'x', label: 'X', type: 'Dead End' },
      ],
      edges: [{ from: 'a', to: 'b', label: '', kind: 'transition' }, { from: 'b', to: 'c', label: 'left', kind: 'transition' }, { from: 'b', to: 'd', label: 'right', kind: 'transition' }, { from: 'c', to: 'd', label: '', kind: 'skip' }],
    };
    const l = layoutGraph(g);
    const by = new Map(l.nodes.map((n) => [n.key, n]));
    expect([...'abcdx'].map((k) => by.get(k)?.depth)).toEqual([0, 1, 2, 2, 3]);
    expect(by.get('x')?.reachable).toBe(false);
    expect(by.get('c')?.y).toBe(by.get('d')?.y);
    expect(Math.abs((by.get('c')?.x ?? 0) - (by.get('d')?.x ?? 0))).toBeGreaterThanOrEqual(l.nodeWidth);
    for (const n of l.nodes) {
      expect(n.x).toBeGreaterThanOrEqual(0);
      expect(n.x + l.nodeWidth).toBeLessThanOrEqual(l.width);
      expect(n.y + l.nodeHeight).toBeLessThanOrEqual(l.height);
    }
  });
});
