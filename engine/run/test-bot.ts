// A random but legal-shaped decision maker for property tests of the engine (the story bots of engine/sim use the
// scripted brain instead). Every choice comes from the given seeded source, so a failing case replays.
import type { DecisionInput } from '../brain/decision.js';
import type { SeededRandom } from '../random.js';
import type { Story } from '../story/format.js';
import { indexStory } from '../story/story-index.js';
import { MOMENTS } from '../moments/registry.js';
import type { GameEventInput } from './events.js';
import { currentMoment, currentRun, type GameState } from './state.js';

const base = (r: SeededRandom): DecisionInput => ({
  reply: r.pick(['Hello.', 'Indeed.', 'Go on.']),
  emotion: r.pick(['normal', 'happiness', 'fear'] as const),
  intensity: r.pick([1, 2, 3, 4, 5] as const),
  outcome: 'continue',
  perfect: r.next() < 0.15,
  cache_hit: r.next() < 0.1,
  score: r.int(101),
});

const inputId = (r: SeededRandom): string => r.uuid();

/** The next event a random player would cause, or null when nothing is left to do in this run. */
export function randomEvent(s: GameState, story: Story, r: SeededRandom): GameEventInput {
  const run = currentRun(s);
  if (!run || run.loop_status !== 'loopStatusOnGoing' || r.next() < 0.01) {
    if (run && run.loop_status === 'loopStatusOnGoing' && r.next() < 0.5) return { type: 'run.end' };
    const ticket = s.tickets.find((t) => !t.is_redeemed);
    if (ticket && s.characters.length > 0 && r.next() < 0.5) {
      const c = r.pick(s.characters);
      return { type: 'ticket.redeem', ticket_id: ticket.id, card: r.next() < 0.8 || s.items.length === 0 ? { kind: 'character', id: c.id } : { kind: 'item', id: r.pick(s.items).id } };
    }
    return { type: 'run.create', language: r.next() < 0.5 ? 'english' : 'french', reset_progress: r.next() < 0.05 };
  }
  const pm = currentMoment(s);
  const m = pm ? indexStory(story).moments.get(pm.blueprint_moment_id) : undefined;
  if (!pm || !m) return { type: 'run.end' };
  if (!pm.is_started) return { type: 'turn', input_id: inputId(r), is_starting_dialogue: true, transcription: '', decision: { ...base(r), perfect: false, cache_hit: false } };
  const d = base(r);
  const team = s.characters.filter((c) => c.is_selected_in_assemble && c.current_health > 0);
  const random = MOMENTS[m.type].bot?.random;
  if (random) random({ r, s, m, pm, team, d });
  else {
    const x = r.next();
    d.outcome = x < 0.4 ? 'complete' : x < 0.42 ? 'end_of_game' : 'continue';
    if (m.transitions.length > 0) d.next_moment_id = r.pick(m.transitions).next_moment_id;
    if (r.next() < 0.3) d.facts = [r.pick(['a', 'b', 'c'])];
  }
  return { type: 'turn', input_id: inputId(r), is_starting_dialogue: false, transcription: r.pick(['yes', 'the door', 'attack', '']), decision: d };
}
