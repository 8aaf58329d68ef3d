// A layered layout of a story's moment graph for drawing (the admin area's flow view): each moment sits in the row
// of its shortest distance from the first moment (unreachable ones in a last row), ordered within a row as the story
// lists them. Pure and deterministic; the web app draws the result as SVG.
import type { GraphModel } from './graph.js';

export type PlacedNode = GraphModel['nodes'][number] & { x: number; y: number; depth: number; reachable: boolean };
export type GraphLayout = { nodes: PlacedNode[]; edges: GraphModel['edges']; width: number; height: number; nodeWidth: number; nodeHeight: number };

export const LAYOUT = { nodeWidth: 200, nodeHeight: 52, gapX: 36, gapY: 64, margin: 24 } as const;

export function layoutGraph(g: GraphModel): GraphLayout {
  const depth = new Map<string, number>([[g.start, 0]]);
  const out = new Map<string, string[]>();
  for (const e of g.edges) out.set(e.from, [...(out.get(e.from) ?? []), e.to]);
  const queue = [g.start];
  while (queue.length) {
    const k = queue.shift() as string;
    const d = depth.get(k) ?? 0;
    for (const next of out.get(k) ?? []) {
      if (!depth.has(next)) {
        depth.set(next, d + 1);
        queue.push(next);
      }
    }
  }
  const maxDepth = Math.max(0, ...depth.values());
  const rows = new Map<number, string[]>();
  for (const n of g.nodes) {
    const d = depth.get(n.key) ?? maxDepth + 1;
    rows.set(d, [...(rows.get(d) ?? []), n.key]);
  }
  const { nodeWidth, nodeHeight, gapX, gapY, margin } = LAYOUT;
  const widest = Math.max(1, ...[...rows.values()].map((r) => r.length));
  const width = margin * 2 + widest * nodeWidth + (widest - 1) * gapX;
  const rowCount = rows.size === 0 ? 0 : Math.max(...rows.keys()) + 1;
  const height = margin * 2 + rowCount * nodeHeight + Math.max(0, rowCount - 1) * gapY;
  const placed: PlacedNode[] = g.nodes.map((n) => {
    const d = depth.get(n.key) ?? maxDepth + 1;
    const row = rows.get(d) ?? [];
    const i = row.indexOf(n.key);
    const rowWidth = row.length * nodeWidth + (row.length - 1) * gapX;
    return { ...n, depth: d, reachable: depth.has(n.key), x: (width - rowWidth) / 2 + i * (nodeWidth + gapX), y: margin + d * (nodeHeight + gapY) };
  });
  return { nodes: placed, edges: g.edges, width, height, nodeWidth, nodeHeight };
}
