// The flow graph's model (web/src/studio/flow/): what it draws from a draft and the changes each graph edit makes,
// applied to a real story with the authoring engine, so each edit is checked to leave a story that loads.
import { describe, expect, it } from 'vitest';
import ElkBundled from 'elkjs/lib/elk.bundled.js';
import { applyChanges, type Json } from '../engine/authoring/apply.js';
import { checkDraft } from '../engine/authoring/draft-check.js';
import { MOMENTS } from '../engine/moments/registry.js';
import { validateStory } from '../engine/story/validate.js';
import { branchingStory } from '../scripts/bench/lib/studio-story.js';
import { autoLayout, NODE_SIZE } from '../web/src/studio/flow/auto-layout.js';
import {
  connectChanges, deleteImpact, edgeInfos, momentsOf, moveChanges, newMoment, nodeInfos, problemsByMoment, reconnectChanges, removeEdgeChanges,
} from '../web/src/studio/flow/flow-model.js';
import { searchMoments } from '../web/src/studio/flow/flow-search.js';

const story = (): Json => branchingStory(40, 80);

function applied(doc: Json, changes: Parameters<typeof applyChanges>[1]): Json {
  const r = applyChanges(doc, changes);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  expect(checkDraft(r.doc).refused).toEqual([]);
  return r.doc;
}

describe('the flow graph model', () => {
  it('draws a node per moment from the registry, with the first moment, the endings and the problems marked', () => {
    const doc = story();
    const ms = momentsOf(doc);
    // A moment with no opening line: the validator's error, drawn on its node.
    const broken = { ...doc, moments: ms.map((m, i) => (i === 2 ? { ...m, opening: [] } : m)) };
    const nodes = nodeInfos(broken, validateStory(broken).problems);
    expect(nodes).toHaveLength(ms.length);
    expect(nodes.filter((n) => n.first).map((n) => n.id)).toEqual([doc.first_moment_id]);
    const epilogue = nodes.find((n) => n.type === 'Epilogue');
    expect(epilogue?.ending).toBe('won');
    expect(epilogue?.label).toBe(MOMENTS.Epilogue.graph.label);
    expect(epilogue?.fill).toBe(MOMENTS.Epilogue.graph.fill);
    expect(nodes.find((n) => n.type === 'Dead End')?.ending).toBe('lost');
    expect(nodes[2]?.errors).toBeGreaterThan(0);
    expect(nodes[2]?.problem).toMatch(/opening|at least/i);
    expect(nodes[0]?.errors).toBe(0);
  });

  it('maps a problem path to the moment at that index', () => {
    const doc = story();
    const id = String(momentsOf(doc)[3]?.id);
    const m = problemsByMoment(doc, [{ severity: 'warning', path: '$.moments[3].goal', code: 'x', message: 'm' }, { severity: 'error', path: '$.name', code: 'y', message: 'n' }]);
    expect([...m.keys()]).toEqual([id]);
  });

  it('has an edge per transition and a dashed skip edge', () => {
    const doc = story();
    const [a, b] = momentsOf(doc);
    const withSkip = applied(doc, [{ op: 'set', path: ['moments', String(a?.id), 'skip_to_moment_id'], value: String(b?.id) }]);
    const edges = edgeInfos(withSkip);
    const total = momentsOf(withSkip).reduce((n, m) => n + (Array.isArray(m.transitions) ? m.transitions.length : 0), 0);
    expect(edges.filter((e) => e.kind === 'transition')).toHaveLength(total);
    expect(edges.filter((e) => e.kind === 'skip' && e.source === a?.id)).toEqual([expect.objectContaining({ target: b?.id })]);
    expect(edges.filter((e) => e.kind === 'skip')).toHaveLength(momentsOf(withSkip).filter((m) => typeof m.skip_to_moment_id === 'string').length);
  });

  it('draws an answer that leads on as an edge, moves its target and removes it', () => {
    let doc = story();
    const ms = momentsOf(doc);
    const m = ms.find((x) => Array.isArray(x.answers) && x.answers.length > 0) as Json;
    const [t1, t2] = [String(ms[0]?.id), String(ms[1]?.id)];
    const answers = (m.answers as Json[]).map((a, i) => (i === 0 ? { ...a, next_moment_id: t1 } : a));
    doc = applied(doc, [{ op: 'set', path: ['moments', String(m.id), 'answers'], value: answers }]);
    const edge = edgeInfos(doc).find((e) => e.kind === 'answer' && e.source === m.id);
    expect(edge).toMatchObject({ target: t1, index: 0 });
    doc = applied(doc, reconnectChanges(doc, edge!, String(m.id), t2));
    expect(edgeInfos(doc).find((e) => e.kind === 'answer' && e.source === m.id)?.target).toBe(t2);
    doc = applied(doc, removeEdgeChanges(doc, edgeInfos(doc).find((e) => e.kind === 'answer' && e.source === m.id)!));
    expect(edgeInfos(doc).some((e) => e.kind === 'answer' && e.source === m.id)).toBe(false);
    expect((momentsOf(doc).find((x) => x.id === m.id)?.answers as Json[]).length).toBe(answers.length);
  });

  it('connects, reconnects and moves with changes that apply', () => {
    let doc = story();
    const [a, , c, d] = momentsOf(doc).map((m) => String(m.id));
    doc = applied(doc, connectChanges(doc, a as string, d as string));
    let edge = edgeInfos(doc).find((e) => e.source === a && e.target === d);
    expect(edge).toBeDefined();
    doc = applied(doc, reconnectChanges(doc, edge!, a as string, c as string));
    expect(edgeInfos(doc).some((e) => e.source === a && e.target === d)).toBe(false);
    edge = edgeInfos(doc).find((e) => e.source === a && e.target === c);
    doc = applied(doc, reconnectChanges(doc, edge!, d as string, c as string));
    expect(edgeInfos(doc).some((e) => e.source === d && e.target === c)).toBe(true);
    doc = applied(doc, moveChanges([{ id: a as string, position: { x: 10.4, y: -20.6 } }]));
    expect(nodeInfos(doc, []).find((n) => n.id === a)?.position).toEqual({ x: 10, y: -21 });
  });

  it('deletes a moment with every transition, skip, answer and first_moment_id that named it, saying so first', () => {
    let doc = story();
    const ms = momentsOf(doc);
    const first = String(doc.first_moment_id);
    const other = String(ms[5]?.id);
    doc = applied(doc, [
      { op: 'set', path: ['moments', other, 'skip_to_moment_id'], value: first },
      { op: 'set', path: ['moments', other, 'transitions'], value: [{ next_moment_id: first }] },
    ]);
    const impact = deleteImpact(doc, first);
    expect(impact.refused).toBeNull();
    expect(impact.breaks).toContain('The transition from "Fog, part 6" to it will be removed.');
    expect(impact.breaks.join('\n')).toContain('"Fog, part 6" will no longer skip to it.');
    expect(impact.breaks.join('\n')).toContain('The story starts here: it will start at "Fog, part 2" instead.');
    const after = applied(doc, impact.changes);
    expect(momentsOf(after).some((m) => m.id === first)).toBe(false);
    expect(JSON.stringify(after)).not.toContain(first);
    // One moment left: the story needs it.
    const one = { ...doc, moments: [ms[0]], first_moment_id: ms[0]?.id };
    expect(deleteImpact(one, String(ms[0]?.id)).refused).toMatch(/at least one moment/);
  });

  it('makes a valid new moment of every type', () => {
    for (const mod of Object.values(MOMENTS)) {
      const doc = story();
      const id = crypto.randomUUID();
      const after = applied(doc, [{ op: 'add', collection: 'moments', value: newMoment(doc, mod, id, { x: 1, y: 2 }) }]);
      expect(nodeInfos(after, []).find((n) => n.id === id)).toMatchObject({ type: mod.type, position: { x: 1, y: 2 } });
    }
  });

  it('finds moments by name, text in either language, sentences players say and answer phrases, not by ids', () => {
    const doc = story();
    const ms = momentsOf(doc);
    expect(searchMoments(doc, 'part 27')).toEqual([ms[26]?.id]);
    expect(searchMoments(doc, 'brume, PARTIE 27')).toEqual([ms[26]?.id]);
    const withSay = applied(doc, [{ op: 'set', path: ['moments', String(ms[4]?.id), 'say'], value: { en: ['Where is the café'], fr: ['Où est le phare'] } }]);
    expect(searchMoments(withSay, 'cafe')).toEqual([ms[4]?.id]);
    expect(searchMoments(withSay, 'où est le phare')).toEqual([ms[4]?.id]);
    const answerer = ms.find((m) => Array.isArray(m.answers) && m.answers.length > 0);
    const phrase = String(((answerer?.answers as Json[])[0]?.match as { en: string[] }).en[0]);
    expect(searchMoments(doc, phrase)).toContain(answerer?.id);
    expect(searchMoments(doc, String(ms[0]?.id))).toEqual([]);
    expect(searchMoments(doc, '   ')).toEqual([]);
  });

  it('lays out a branching story in layers from the first moment, boxes apart', async () => {
    const doc = branchingStory(60, 150);
    const ms = momentsOf(doc);
    const input = { nodes: ms.map((m) => ({ id: String(m.id) })), edges: edgeInfos(doc) };
    const at = await autoLayout(new ElkBundled.default(), input, String(doc.first_moment_id));
    expect(at.size).toBe(ms.length);
    const first = at.get(String(doc.first_moment_id));
    const second = at.get(String(ms[1]?.id));
    expect(second!.y).toBeGreaterThan(first!.y);
    const boxes = [...at.values()];
    const overlaps = boxes.filter((p, i) => boxes.some((q, j) => j > i && Math.abs(p.x - q.x) < NODE_SIZE.width && Math.abs(p.y - q.y) < NODE_SIZE.height));
    expect(overlaps).toEqual([]);
  });
});
