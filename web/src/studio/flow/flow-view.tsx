// The flow graph of the story being edited: xyflow over the draft document. Every edit (add, connect, reconnect,
// delete, move, lay out) goes through draft.apply as one undoable step; the graph is rebuilt from `doc` on every
// change, from this tab or another. Only the moments on screen are rendered, so 2,000 stay smooth.
import {
  applyNodeChanges, Background, type Connection, Controls, type Edge, MarkerType, type NodeChange, ReactFlow, ReactFlowProvider, useReactFlow,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Change } from '../../../../engine/authoring/change.js';
import type { MomentModule } from '../../../../engine/moments/types.js';
import { Alert } from '../../ui/alert.js';
import { Button } from '../../ui/button.js';
import type { StudioDraft } from '../draft/types.js';
import { autoLayout, NODE_SIZE } from './auto-layout.js';
import { DeleteDialog } from './delete-dialog.js';
import { pageElk } from './elk-worker.js';
import {
  connectChanges, deleteImpact, type EdgeInfo, edgeInfos, moveChanges, newMoment, nodeInfos, reconnectChanges, removeEdgeChanges,
} from './flow-model.js';
import { FlowSearch, type Hits } from './flow-search-box.js';
import { type MomentNode, type MomentNodeData, NODE_TYPES } from './moment-node.js';
import { TypePicker } from './type-picker.js';
import { useFlowPositions } from './use-flow-positions.js';
import './flow.css';

/** `side` draws the selected moment beside the graph (its form). */
type Props = { draft: StudioDraft; momentId: string | null; side: (momentId: string) => ReactNode };

export function FlowView(props: Props) {
  return (
    <ReactFlowProvider>
      <FlowInner {...props} />
    </ReactFlowProvider>
  );
}

function FlowInner({ draft, momentId, side }: Props) {
  const { doc, problems, storyId } = draft;
  const navigate = useNavigate();
  const flow = useReactFlow<MomentNode>();
  const first = typeof doc.first_moment_id === 'string' ? doc.first_moment_id : null;
  const infos = useMemo(() => nodeInfos(doc, problems), [doc, problems]);
  const edgeList = useMemo(() => edgeInfos(doc), [doc]);
  const edgeById = useMemo(() => new Map(edgeList.map((e) => [e.id, e])), [edgeList]);
  const { at, laying } = useFlowPositions(infos, edgeList, first);
  const [hits, setHits] = useState<Hits>({ ids: [], current: -1 });
  const [refusal, setRefusal] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);

  const edit = useCallback((changes: Change[], label: string): boolean => {
    if (changes.length === 0) return false;
    const problemsOf = draft.apply(changes, label);
    setRefusal(problemsOf ? problemsOf.map((p) => p.message).join(' ') : null);
    return problemsOf === null;
  }, [draft]);

  // Each node's data object is kept while what it draws is the same, so the memoised node does not re-render.
  const [dataCache] = useState(() => new Map<string, { sig: string; data: MomentNodeData }>());
  const hitSet = useMemo(() => new Set(hits.ids), [hits.ids]);
  const currentHit = hits.ids[hits.current] ?? null;
  const derived: MomentNode[] = useMemo(() => infos.map((n) => {
    const { id, position: _own, ...data } = n;
    const sig = JSON.stringify(data);
    let cached = dataCache.get(id);
    if (!cached || cached.sig !== sig) {
      cached = { sig, data };
      dataCache.set(id, cached);
    }
    const cls = hitSet.has(id) ? (id === currentHit ? 'flow-hit flow-hit--current' : 'flow-hit') : '';
    return { id, type: 'moment', position: at(n), data: cached.data, selected: id === momentId, className: cls, width: NODE_SIZE.width, height: NODE_SIZE.height };
  }), [dataCache, infos, at, hitSet, currentHit, momentId]);
  // The nodes as drawn: `derived`, with the drag in progress applied; a new `derived` (the draft changed) replaces them.
  const [nodes, setNodes] = useState<MomentNode[]>(derived);
  const [drawn, setDrawn] = useState(derived);
  if (drawn !== derived) {
    setDrawn(derived);
    setNodes(derived);
  }
  const onNodesChange = useCallback((changes: NodeChange<MomentNode>[]) => {
    // Selection follows the route and deletion asks first: only moves and sizes are applied here.
    const kept = changes.filter((c) => c.type === 'position' || c.type === 'dimensions');
    if (kept.length > 0) setNodes((ns) => applyNodeChanges(kept, ns));
  }, []);

  const edges: Edge[] = useMemo(() => edgeList.map((e) => ({
    id: e.id, source: e.source, target: e.target,
    label: e.kind === 'transition' && e.label ? e.label : undefined,
    // An answer keeps its moment: only its target moves.
    ...(e.kind === 'answer' ? { reconnectable: 'target' as const } : {}),
    className: `flow-edge flow-edge--${e.kind}`,
    markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16 },
    ...(e.kind === 'skip' ? { style: { strokeDasharray: '6 5' } } : {}),
  })), [edgeList]);

  const nameOf = useCallback((id: string) => infos.find((n) => n.id === id)?.name ?? 'moment', [infos]);
  const onConnect = useCallback((c: Connection) => {
    if (c.source && c.target) edit(connectChanges(doc, c.source, c.target), `Connect ${nameOf(c.source)} to ${nameOf(c.target)}`);
  }, [doc, edit, nameOf]);
  const onReconnect = useCallback((old: Edge, c: Connection) => {
    const info = edgeById.get(old.id);
    if (info && c.source && c.target) edit(reconnectChanges(doc, info, c.source, c.target), `Reconnect ${nameOf(info.source)}`);
  }, [doc, edgeById, edit, nameOf]);
  const onNodeDragStop = useCallback((_: unknown, _node: MomentNode, dragged: MomentNode[]) => {
    const moved = dragged.filter((n) => {
      const before = derived.find((d) => d.id === n.id)?.position;
      return !before || Math.round(before.x) !== Math.round(n.position.x) || Math.round(before.y) !== Math.round(n.position.y);
    });
    if (moved.length > 0) edit(moveChanges(moved.map((n) => ({ id: n.id, position: n.position }))), moved.length === 1 ? `Move ${nameOf(moved[0]?.id ?? '')}` : `Move ${moved.length} moments`);
  }, [derived, edit, nameOf]);
  const onBeforeDelete = useCallback(({ nodes: ns, edges: es }: { nodes: MomentNode[]; edges: Edge[] }) => {
    if (ns[0]) setDeleting(ns[0].id);
    else if (es[0]) {
      const info: EdgeInfo | undefined = edgeById.get(es[0].id);
      if (info) edit(removeEdgeChanges(doc, info), `Remove a link from ${nameOf(info.source)}`);
    }
    return Promise.resolve(false);
  }, [doc, edgeById, edit, nameOf]);

  const select = useCallback((id: string | null) => {
    void navigate(id ? `/admin/stories/${storyId}/flow/moment/${id}` : `/admin/stories/${storyId}/flow`);
  }, [navigate, storyId]);

  const centreOn = useCallback((id: string) => {
    const n = nodes.find((x) => x.id === id);
    if (n) void flow.setCenter(n.position.x + NODE_SIZE.width / 2, n.position.y + NODE_SIZE.height / 2, { zoom: Math.max(flow.getZoom(), 0.8), duration: 250 });
  }, [flow, nodes]);

  const addMoment = useCallback((mod: MomentModule) => {
    setPicking(false);
    const pane = document.querySelector('.flow-canvas')?.getBoundingClientRect();
    const centre = pane ? flow.screenToFlowPosition({ x: pane.left + pane.width / 2, y: pane.top + pane.height / 2 }) : { x: 0, y: 0 };
    const id = crypto.randomUUID();
    const value = newMoment(doc, mod, id, { x: centre.x - NODE_SIZE.width / 2, y: centre.y - NODE_SIZE.height / 2 });
    if (edit([{ op: 'add', collection: 'moments', value }], `Add a ${mod.graph.label}`)) select(id);
  }, [doc, edit, flow, select]);

  const [relaying, setRelaying] = useState(false);
  const layOut = useCallback(async () => {
    setRelaying(true);
    try {
      const laid = await autoLayout(pageElk(), { nodes: infos, edges: edgeList }, first);
      edit(moveChanges([...laid].map(([id, position]) => ({ id, position }))), 'Lay out the graph');
      window.requestAnimationFrame(() => void flow.fitView({ maxZoom: 1, duration: 250 }));
    } finally {
      setRelaying(false);
    }
  }, [edgeList, edit, first, flow, infos]);

  // Opens on the selected moment, else the whole graph when small, else the first moment; once more when the
  // automatic layout has moved the moments from their first quick places.
  const opened = useRef<'no' | 'quick' | 'laid'>('no');
  useEffect(() => {
    const phase = laying ? 'quick' : 'laid';
    if (opened.current === 'laid' || opened.current === phase || nodes.length === 0) return;
    opened.current = phase;
    const focus = momentId ?? first;
    if (nodes.length <= 80 && !momentId) void flow.fitView({ maxZoom: 1 });
    else if (focus) centreOn(focus);
  }, [centreOn, first, flow, laying, momentId, nodes.length]);

  const deletingImpact = useMemo(() => (deleting ? deleteImpact(doc, deleting) : null), [deleting, doc]);
  const confirmDelete = () => {
    if (!deleting || !deletingImpact) return;
    const name = nameOf(deleting);
    if (edit(deletingImpact.changes, `Delete ${name}`)) {
      if (momentId === deleting) select(null);
    }
    setDeleting(null);
  };

  return (
    <div className="flow-page" data-testid="flow-page">
      <div className="flow-toolbar" role="toolbar" aria-label="Flow graph">
        <Button variant="primary" size="sm" onClick={() => setPicking(true)}>Add moment</Button>
        <Button size="sm" onClick={() => void layOut()} busy={relaying} busyLabel="Laying out...">Lay out</Button>
        <FlowSearch doc={doc} hits={hits} onHits={setHits} onCentre={centreOn} />
        <span className="flow-toolbar__count">{infos.length} moments · {edgeList.length} links{laying ? ' · laying out...' : ''}</span>
      </div>
      {refusal ? <Alert>{refusal}</Alert> : null}
      <div className={`flow-body${momentId ? ' flow-body--side' : ''}`}>
        <div className="flow-canvas" data-testid="flow-canvas">
          <ReactFlow<MomentNode>
            nodes={nodes}
            edges={edges}
            nodeTypes={NODE_TYPES}
            onNodesChange={onNodesChange}
            onConnect={onConnect}
            onReconnect={onReconnect}
            onNodeDragStop={onNodeDragStop}
            onBeforeDelete={onBeforeDelete}
            onNodeClick={(_, n) => select(n.id)}
            onlyRenderVisibleElements
            minZoom={0.05}
            maxZoom={2}
            colorMode="dark"
            proOptions={{ hideAttribution: true }}
            deleteKeyCode={['Delete', 'Backspace']}
          >
            <Background gap={24} />
            <Controls showInteractive={false} />
          </ReactFlow>
        </div>
        {momentId ? (
          <aside className="flow-side" aria-label="Moment" data-testid="flow-side">
            <div className="flow-side__actions">
              <Button size="sm" variant="danger" onClick={() => setDeleting(momentId)}>Delete moment</Button>
              <Button size="sm" variant="ghost" onClick={() => select(null)}>Close</Button>
            </div>
            {side(momentId)}
          </aside>
        ) : null}
      </div>
      <TypePicker open={picking} onClose={() => setPicking(false)} onPick={addMoment} />
      <DeleteDialog name={deleting ? nameOf(deleting) : ''} impact={deletingImpact} onCancel={() => setDeleting(null)} onConfirm={confirmDelete} />
    </div>
  );
}
