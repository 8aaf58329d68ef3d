// A story's moment graph drawn as SVG from the server's layered layout (engine/story/graph-layout.ts): one box per
// moment coloured by type, transitions as arrows (answers bold, skips dashed), the first moment marked. The focused
// moment (/admin/stories/{id}/flow/moment/{momentKey}) is outlined. The graph scrolls inside its frame.
import { MOMENTS } from '../../../engine/moments/registry.js';
import type { MomentModule } from '../../../engine/moments/types.js';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import type { GraphLayout } from '../../../engine/story/graph-layout.js';

/** A box's colour: its moment type's, a missing moment's, or the default. */
const fill = (type: string): string => (type === 'missing' ? '#2a1414' : (MOMENTS as Record<string, MomentModule | undefined>)[type]?.graph.fill ?? '#1e2334');

export function FlowGraph({ layout, storyId, focus, start }: { layout: GraphLayout; storyId: string; focus: string | null; start?: string }) {
  const { nodeWidth: w, nodeHeight: h } = layout;
  const at = new Map(layout.nodes.map((n) => [n.key, n]));
  const frame = useRef<HTMLDivElement>(null);
  // A graph wider than the screen (a phone) opens scrolled to its middle, where the first moment is.
  useEffect(() => {
    const el = frame.current;
    if (el && layout.width > el.clientWidth) el.scrollLeft = (layout.width - el.clientWidth) / 2;
  }, [layout.width]);
  return (
    <div className="flow-graph" data-testid="flow-graph" ref={frame}>
      <svg width={layout.width} height={layout.height} viewBox={`0 0 ${layout.width} ${layout.height}`} aria-labelledby="flow-graph-title">
        <title id="flow-graph-title">{`Moment graph: ${layout.nodes.length} moments, ${layout.edges.length} links`}</title>
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" fill="#8f97ad" />
          </marker>
        </defs>
        {layout.edges.map((e, i) => {
          const a = at.get(e.from);
          const b = at.get(e.to);
          if (!a || !b) return null;
          const x1 = a.x + w / 2;
          const y1 = a.y + h;
          const x2 = b.x + w / 2;
          const up = b.y <= a.y;
          const y2 = up ? b.y + h : b.y;
          const bend = up ? Math.max(80, Math.abs(a.y - b.y) / 2) : (y2 - y1) / 2;
          const d = up ? `M${x1},${y1} C${x1 + bend},${y1 + 40} ${x2 + bend},${y2 + 40} ${x2},${y2}` : `M${x1},${y1} C${x1},${y1 + bend} ${x2},${y2 - bend} ${x2},${y2}`;
          return (
            <g key={`${e.from}-${e.to}-${i}`} className={`flow-graph__edge flow-graph__edge--${e.kind}`}>
              <path d={d} fill="none" markerEnd="url(#arrow)" />
              {e.label ? <text x={(x1 + x2) / 2 + 6} y={(y1 + y2) / 2} className="flow-graph__edge-label">{e.label.length > 28 ? `${e.label.slice(0, 27)}…` : e.label}</text> : null}
            </g>
          );
        })}
        {layout.nodes.map((n) => {
          const name = n.label.length > 30 ? `${n.label.slice(0, 29)}…` : n.label;
          return (
            <Link key={n.key} to={`/admin/stories/${storyId}/flow/moment/${n.key}`}>
              <g className={`flow-graph__node${focus === n.key ? ' flow-graph__node--focus' : ''}${n.reachable ? '' : ' flow-graph__node--unreachable'}`}>
                <rect x={n.x} y={n.y} width={w} height={h} rx={10} fill={fill(n.type)} />
                <text x={n.x + w / 2} y={n.y + h / 2 + 4} textAnchor="middle">{name}</text>
                {n.key === start ? <circle cx={n.x + 10} cy={n.y + 10} r={4} className="flow-graph__start" /> : null}
              </g>
            </Link>
          );
        })}
      </svg>
    </div>
  );
}
