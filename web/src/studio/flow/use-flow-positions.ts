// Where each moment is drawn: its own position (the author placed it), else the automatic layout's (ELK, in a Web
// Worker), else, until that arrives, a quick layered placement by distance from the first moment so the graph shows
// at once. The automatic layout runs when a moment has neither position; moments it placed keep their place when
// others move, so dragging one never rearranges the rest.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { autoLayout, depths, NODE_SIZE, type Point } from './auto-layout.js';
import type { EdgeInfo, NodeInfo } from './flow-model.js';
import { pageElk } from './elk-worker.js';

/** Rows by distance from the first moment, in list order: instant, for the first frames. */
function quickLayout(nodes: readonly NodeInfo[], edges: readonly EdgeInfo[], first: string | null): Map<string, Point> {
  const depth = depths({ nodes, edges }, first);
  const used = new Map<number, number>();
  const out = new Map<string, Point>();
  for (const n of nodes) {
    const d = depth.get(n.id) ?? 0;
    const col = used.get(d) ?? 0;
    used.set(d, col + 1);
    out.set(n.id, { x: col * (NODE_SIZE.width + 36), y: d * (NODE_SIZE.height + 72) });
  }
  return out;
}

export function useFlowPositions(nodes: readonly NodeInfo[], edges: readonly EdgeInfo[], first: string | null): { at: (n: NodeInfo) => Point; laying: boolean } {
  const [auto, setAuto] = useState<ReadonlyMap<string, Point>>(new Map());
  const missing = useMemo(() => nodes.filter((n) => !n.position && !auto.has(n.id)).map((n) => n.id).join(','), [nodes, auto]);
  const quick = useMemo(() => (missing === '' ? null : quickLayout(nodes, edges, first)), [missing, nodes, edges, first]);
  useEffect(() => {
    if (missing === '') return;
    let live = true;
    autoLayout(pageElk(), { nodes, edges }, first).then((laid) => {
      if (live) setAuto((prev) => new Map([...laid, ...prev]));
    }).catch((e: unknown) => {
      // The quick placement stays; the graph is still usable.
      console.error('flow: automatic layout failed', e);
    });
    return () => {
      live = false;
    };
    // Only a moment with no place starts a layout; nodes and edges are read as they are then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [missing]);
  const at = useCallback((n: NodeInfo): Point => n.position ?? auto.get(n.id) ?? quick?.get(n.id) ?? { x: 0, y: 0 }, [auto, quick]);
  return { at, laying: missing !== '' };
}
