// The story graph (game spec §2): the moments of the run so far as nodes in the order played, each labelled with its
// moment type and name; a node shows only its first opponent (Battle) or gained card, the rest as '+N more', and a
// card's id as its first 4 characters. Loaded lazily from the menu, so /game's first bundle stays small.
import { MOMENTS } from '../../../engine/moments/registry.js';
import { useQuery } from '@tanstack/react-query';
import type { StoryGraphNode } from '../../../engine/schema/views.js';
import { api } from '../api/client.js';
import { GAME_TEXT } from './game-text.js';
import './story-graph.css';

/** The label of a moment type on a node (the spec: "labels per moment type"), from the type's module. */
export const momentTypeLabel = (type: StoryGraphNode['moment_type']): string => MOMENTS[type].graph.label;

export const shortId = (id: string): string => id.slice(0, 4);

export function moreText(n: number): string {
  return `+${n} more`;
}

function Node({ n, index }: { n: StoryGraphNode; index: number }) {
  const [first, ...rest] = n.cards;
  return (
    <li className={`story-node story-node--${n.status}`} data-testid="story-node" data-moment-type={n.moment_type} aria-current={n.status === 'current' ? 'step' : undefined}>
      <span className="story-node__index" aria-hidden="true">{index + 1}</span>
      <span className={`story-node__type story-node__type--${n.moment_type.replace(' ', '-').toLowerCase()}`}>{momentTypeLabel(n.moment_type)}</span>
      <span className="story-node__name">{n.moment_name}</span>
      {first ? (
        <span className="story-node__cards" data-testid="story-node-cards">
          <span className={`story-node__card story-node__card--${first.kind}`}>{first.name} <code title={first.id}>#{shortId(first.id)}</code></span>
          {rest.length ? <span className="story-node__more">{moreText(rest.length)}</span> : null}
        </span>
      ) : null}
    </li>
  );
}

export default function StoryGraph({ runId, version }: { runId: string; version: string }) {
  // `version` (the interaction count and moment) re-reads the graph when the run moves on.
  const graph = useQuery({ queryKey: ['game', 'story-graph', runId, version], queryFn: () => api.runGraph(runId), retry: false, staleTime: 60_000 });
  return (
    <section className="story-graph" aria-labelledby="story-graph-title" data-testid="story-graph">
      <h3 id="story-graph-title">{GAME_TEXT.storyGraph}</h3>
      {graph.data ? (
        <ol className="story-graph__nodes">
          {graph.data.nodes.map((n, i) => <Node key={n.player_moment_id} n={n} index={i} />)}
        </ol>
      ) : <p className="story-graph__empty">{graph.isError ? '–' : '…'}</p>}
    </section>
  );
}
