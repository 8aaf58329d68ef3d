// The scripted brain: a deterministic dialogue brain that needs nothing installed. Given the moment, the run state,
// the player's words and a seeded random source, it decides the reply and what the words achieve; the engine then
// checks the decision against the rules. Same seed + same inputs => the same decision, byte for byte. What the words
// achieve depends on the moment's type (engine/moments/: each type's `brain.decide`; an authored answer by default).
import type { PlayLanguage } from '../schema/enums.js';
import { LANG_CODE } from '../schema/enums.js';
import type { Random } from '../random.js';
import type { BlueprintMoment, Story } from '../story/format.js';
import { currentMoment, currentRun } from '../run/state.js';
import { MOMENTS } from '../moments/registry.js';
import { compileStory } from './compile.js';
import type { Decision, DecisionInput } from './decision.js';
import { base, brainRandom, line, talkDecision, type BrainCtx, type BrainInput } from './scripted-ctx.js';

export { brainRandom, rewardName, type BrainInput } from './scripted-ctx.js';

const firstMoments = new WeakMap<Story, Map<string, BlueprintMoment>>();

/** The story's first moment with this id (as story.moments.find would), from an index built once per story. */
function momentById(story: Story, id: string): BlueprintMoment | undefined {
  let ix = firstMoments.get(story);
  if (!ix) {
    ix = new Map();
    for (const m of story.moments) if (!ix.has(m.id)) ix.set(m.id, m);
    firstMoments.set(story, ix);
  }
  return ix.get(id);
}

export function scriptedDecision(input: BrainInput, random?: Random): DecisionInput {
  const run = currentRun(input.state);
  const pm = currentMoment(input.state);
  const m = pm ? momentById(input.story, pm.blueprint_moment_id) : undefined;
  const lang: PlayLanguage = run?.language === 'french' ? 'french' : 'english';
  const cs = compileStory(input.story, LANG_CODE[lang]);
  const cm = m ? cs.moments.get(m.id) : undefined;
  if (!m || !cm) return { reply: '', emotion: 'normal', intensity: 1, outcome: 'continue' };
  const c: BrainCtx = { input, lang, cs, cm, m, r: random ?? brainRandom(input), lines: {}, heard: input.transcription };
  const type = MOMENTS[m.type];
  if (input.is_starting_dialogue) {
    const opening = line(c, 'opening', m.opening);
    // A self-completing moment completes on its opening, or ends the run there when the run is lost there.
    const t = type.traits;
    const outcome = !t.selfCompleting ? 'continue' : t.ends === 'lost' ? 'end_of_game' : 'complete';
    return base(c, opening, { outcome });
  }
  return (type.brain?.decide ?? talkDecision)(c);
}

/** The scripted brain's decision, validated. */
export function decideScripted(input: BrainInput, random?: Random): Decision {
  return withDefaults(scriptedDecision(input, random));
}

/**
 * Fills a trusted decision's defaults without a schema pass: the scripted brain is engine code and runs millions of
 * times in simulations. Decisions from outside (an LLM) go through `Decision.parse` at the edge instead.
 */
export function withDefaults(d: DecisionInput): Decision {
  // Assigned one by one in the schema's order (conditional spreads build a temporary object each).
  const o: Decision = { reply: d.reply, emotion: d.emotion, intensity: d.intensity, outcome: d.outcome } as Decision;
  if (d.next_moment_id !== undefined) o.next_moment_id = d.next_moment_id;
  o.perfect = d.perfect ?? false;
  o.cache_hit = d.cache_hit ?? false;
  o.score = d.score ?? 0;
  o.facts = d.facts ?? [];
  if (d.battle) o.battle = d.battle;
  if (d.award) o.award = d.award;
  if (d.equip) o.equip = d.equip;
  if (d.upgrade) o.upgrade = d.upgrade;
  if (d.selection) o.selection = d.selection;
  o.matched = d.matched ?? '';
  o.lines_used = d.lines_used ?? {};
  return o;
}
