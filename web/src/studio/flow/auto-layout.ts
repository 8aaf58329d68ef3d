// The flow graph's automatic layout: where to draw each moment, top to bottom in layers. A moment's layer is its
// shortest distance from the first moment; ELK's layered algorithm orders each layer to cross few edges, given only
// the edges from one layer to the next, so a long branch is not cut into hundreds of dummy nodes (docs/studio-design.md
// has the figures, and why ELK and not dagre). The ELK instance is passed in: a Web Worker's on the page
// (elk-worker.ts), the bundled one in Node (bench, tests).
import type { ELK, ElkNode } from 'elkjs/lib/elk-api.js';

/** A moment box's size in the graph (the node component draws exactly this). */
export const NODE_SIZE = { width: 220, height: 64 } as const;

export type LayoutInput = { nodes: readonly { id: string }[]; edges: readonly { source: string; target: string }[] };
export type Point = { x: number; y: number };

/** Each node's distance from the roots: the first moment, then each node still unplaced, in list order. */
export function depths(input: LayoutInput, first: string | null): Map<string, number> {
  const out = new Map<string, string[]>();
  for (const e of input.edges) {
    const l = out.get(e.source);
    if (l) l.push(e.target);
    else out.set(e.source, [e.target]);
  }
  const depth = new Map<string, number>();
  for (const root of [...(first ? [first] : []), ...input.nodes.map((n) => n.id)]) {
    if (depth.has(root)) continue;
    depth.set(root, 0);
    const queue = [root];
    for (let q = 0; q < queue.length; q++) {
      const k = queue[q] as string;
      for (const next of out.get(k) ?? []) {
        if (depth.has(next)) continue;
        depth.set(next, (depth.get(k) ?? 0) + 1);
        queue.push(next);
      }
    }
  }
  return depth;
}

const OPTIONS = {
  'elk.algorithm': 'layered',
  'elk.direction': 'DOWN',
  'elk.spacing.nodeNode': '36',
  'elk.layered.spacing.nodeNodeBetweenLayers': '72',
  // One pass of crossing reduction and the simple node placement: the other settings took several times longer on a
  // 500-moment story for a layout no easier to read.
  'elk.layered.thoroughness': '1',
  'elk.layered.nodePlacement.strategy': 'SIMPLE',
};

/** Top-left corners of every node (xyflow places nodes by their top-left corner), in whole pixels. */
export async function autoLayout(elk: Pick<ELK, 'layout'>, input: LayoutInput, first: string | null): Promise<Map<string, Point>> {
  const depth = depths(input, first);
  const known = new Set(input.nodes.map((n) => n.id));
  const edges = input.edges.filter((e) => known.has(e.source) && known.has(e.target) && (depth.get(e.target) ?? 0) === (depth.get(e.source) ?? 0) + 1);
  const graph: ElkNode = {
    id: 'root',
    layoutOptions: OPTIONS,
    children: input.nodes.map((n) => ({ id: n.id, width: NODE_SIZE.width, height: NODE_SIZE.height })),
    edges: edges.map((e, k) => ({ id: `e${k}`, sources: [e.source], targets: [e.target] })),
  };
  const laid = await elk.layout(graph);
  return new Map((laid.children ?? []).map((c) => [c.id, { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) }]));
}

/** How many pairs of edges cross, drawn as straight lines from the bottom of one box to the top of the next: a
 *  measure of how readable a layout is (the bench's). */
export function countCrossings(input: LayoutInput, at: ReadonlyMap<string, Point>): number {
  const segs: [number, number, number, number, string, string][] = [];
  for (const e of input.edges) {
    const a = at.get(e.source);
    const b = at.get(e.target);
    if (!a || !b || e.source === e.target) continue;
    segs.push([a.x + NODE_SIZE.width / 2, a.y + NODE_SIZE.height, b.x + NODE_SIZE.width / 2, b.y, e.source, e.target]);
  }
  const side = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number => Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
  let n = 0;
  for (let i = 0; i < segs.length; i++) {
    const [x1, y1, x2, y2, s1, t1] = segs[i] as (typeof segs)[number];
    for (let j = i + 1; j < segs.length; j++) {
      const [x3, y3, x4, y4, s2, t2] = segs[j] as (typeof segs)[number];
      if (s1 === s2 || s1 === t2 || t1 === s2 || t1 === t2) continue;
      if (side(x1, y1, x2, y2, x3, y3) * side(x1, y1, x2, y2, x4, y4) < 0 && side(x3, y3, x4, y4, x1, y1) * side(x3, y3, x4, y4, x2, y2) < 0) n++;
    }
  }
  return n;
}
