// The moment graph of a story as Mermaid or Graphviz DOT text: one node per moment ("Harbour Night (Monologue)"),
// shaped by type, transitions as edges labelled with their branch label, answers that pick a next moment, and skip
// targets as dashed edges. Targets that name no moment are drawn as "missing" nodes, so broken stories graph too.
import { MOMENT_MODULES, MOMENTS } from '../moments/registry.js';
import type { MomentType } from '../schema/enums.js';
import type { BlueprintMoment, Story } from './format.js';
import { localize } from './text.js';

export type GraphFormat = 'mermaid' | 'dot';
export type GraphLang = 'en' | 'fr';

export type GraphEdge = { from: string; to: string; label: string; kind: 'transition' | 'answer' | 'skip' };
export type GraphNode = { key: string; label: string; type: MomentType | 'missing' };
type Edge = GraphEdge;
type Node = GraphNode;

/** The drawing of a node of a missing moment. */
const MISSING = { mermaid: ['[', ']'], dot: 'shape=box, style="dashed", color="#b00000"', mermaidClass: { name: 'missing', style: 'stroke:#b00000,stroke-dasharray:4 3' } } as const;

const mermaidShape = (t: Node['type']): readonly [string, string] => (t === 'missing' ? MISSING.mermaid : MOMENTS[t].graph.mermaid);
const dotShape = (t: Node['type']): string => (t === 'missing' ? MISSING.dot : MOMENTS[t].graph.dot);

function nodesAndEdges(story: Story, lang: GraphLang): { nodes: Node[]; edges: Edge[]; start: string } {
  const key = new Map(story.moments.map((m, i) => [m.id, `m${i}`]));
  const nodes: Node[] = story.moments.map((m, i) => ({
    key: `m${i}`, label: `${localize(m.name, lang === 'fr' ? 'french' : 'english')} (${MOMENTS[m.type].graph.label})`, type: m.type,
  }));
  const target = (id: string): string => {
    let k = key.get(id);
    if (k === undefined) {
      k = `missing${key.size}`;
      key.set(id, k);
      nodes.push({ key: k, label: `missing moment ${id}`, type: 'missing' });
    }
    return k;
  };
  const edges: Edge[] = [];
  const start = target(story.first_moment_id);
  story.moments.forEach((m: BlueprintMoment, i) => {
    const from = `m${i}`;
    const said = (to: string): string[] => m.answers.filter((a) => a.next_moment_id === to).map((a) => `answer ${a.id}`);
    const targets = new Set(m.transitions.map((t) => t.next_moment_id));
    for (const t of m.transitions) {
      const label = [...(t.label ? [localize(t.label, lang === 'fr' ? 'french' : 'english')] : []), ...said(t.next_moment_id)].join(' / ');
      edges.push({ from, to: target(t.next_moment_id), label, kind: 'transition' });
    }
    for (const a of m.answers) {
      if (a.next_moment_id && !targets.has(a.next_moment_id)) {
        targets.add(a.next_moment_id);
        edges.push({ from, to: target(a.next_moment_id), label: said(a.next_moment_id).join(' / '), kind: 'answer' });
      }
    }
    if (m.skip_to_moment_id) edges.push({ from, to: target(m.skip_to_moment_id), label: 'skip', kind: 'skip' });
  });
  return { nodes, edges, start };
}

/** Text inside a Mermaid "quoted label": quotes and markup characters become entity codes; one line. */
export function mermaidText(s: string): string {
  return s.replace(/\s+/g, ' ').replace(/[#"<>&|`]/g, (c) => `#${c.charCodeAt(0)};`);
}

/** Text inside a DOT "quoted string": backslashes (DOT escapes such as \n) and quotes are escaped; one line. */
export function dotText(s: string): string {
  return s.replace(/\s+/g, ' ').replace(/[\\"]/g, (c) => `\\${c}`);
}

function mermaid(g: ReturnType<typeof nodesAndEdges>): string {
  const lines = ['flowchart TD', '  start(("start"))'];
  for (const n of g.nodes) {
    const [open, close] = mermaidShape(n.type);
    lines.push(`  ${n.key}${open}"${mermaidText(n.label)}"${close}`);
  }
  lines.push(`  start --> ${g.start}`);
  for (const e of g.edges) {
    const arrow = e.kind === 'skip' ? '-.->' : e.kind === 'answer' ? '==>' : '-->';
    lines.push(`  ${e.from} ${arrow}${e.label ? `|"${mermaidText(e.label)}"|` : ''} ${e.to}`);
  }
  const classes: [Node['type'], { name: string; style: string }][] = [
    ...MOMENT_MODULES.flatMap((m) => (m.graph.mermaidClass ? [[m.type, m.graph.mermaidClass] as [Node['type'], { name: string; style: string }]] : [])),
    ['missing', MISSING.mermaidClass],
  ];
  for (const [, cls] of classes) lines.push(`  classDef ${cls.name} ${cls.style}`);
  for (const [type, cls] of classes) {
    const keys = g.nodes.filter((n) => n.type === type).map((n) => n.key);
    if (keys.length > 0) lines.push(`  class ${keys.join(',')} ${cls.name}`);
  }
  return `${lines.join('\n')}\n`;
}

function dot(g: ReturnType<typeof nodesAndEdges>, name: string): string {
  const lines = [`digraph "${dotText(name)}" {`, '  rankdir=TB;', '  node [fontname="Helvetica"];', '  edge [fontname="Helvetica"];', '  start [shape=point];'];
  for (const n of g.nodes) lines.push(`  ${n.key} [label="${dotText(n.label)}", ${dotShape(n.type)}];`);
  lines.push(`  start -> ${g.start};`);
  for (const e of g.edges) {
    const attrs = [
      ...(e.label ? [`label="${dotText(e.label)}"`] : []),
      ...(e.kind === 'skip' ? ['style=dashed'] : e.kind === 'answer' ? ['style=bold'] : []),
    ];
    lines.push(`  ${e.from} -> ${e.to}${attrs.length > 0 ? ` [${attrs.join(', ')}]` : ''};`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/** The story's moment graph in Mermaid (`flowchart TD`) or Graphviz DOT, with names in the given language. */
export function storyGraph(story: Story, format: GraphFormat, lang: GraphLang = 'en'): string {
  const g = nodesAndEdges(story, lang);
  return format === 'mermaid' ? mermaid(g) : dot(g, story.name);
}

export type GraphModel = { nodes: GraphNode[]; edges: GraphEdge[]; start: string };

/** The graph itself (nodes, edges, the first moment's key), for a client that draws it (the admin area). */
export function storyGraphModel(story: Story, lang: GraphLang = 'en'): GraphModel {
  return nodesAndEdges(story, lang);
}
