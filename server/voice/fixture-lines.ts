// The player's lines of the fixture stories' test plans, and the game state each one is said in: what the audio
// fixtures are made from, and what recognition tests and benchmarks check them against.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PlayLanguage } from '../../engine/schema/enums.js';
import { initialState, type GameState } from '../../engine/run/state.js';
import { step } from '../../engine/run/step.js';
import { Story } from '../../engine/story/format.js';
import { parsePlan, runPlan } from '../../engine/story/testplan.js';
import type { Decision } from '../../engine/brain/decision.js';
import { decideScripted } from '../../engine/brain/scripted.js';

/** A player line of a plan; a `defend` step gives one line per character it names (`defender`, lower case). */
export type PlayerLine = { story: string; plan: string; line: number; language: PlayLanguage; text: string; defender?: string };

export function loadFixtureStory(storiesDir: string, slug: string): Story {
  return Story.parse(JSON.parse(readFileSync(join(storiesDir, slug, 'story.json'), 'utf8')));
}

/**
 * Every `say` line of every plan and every alternative of its `defend` steps (which one a battle needs depends on whom
 * the opponent strikes), in a stable order; a text said again in the same story and language is kept once.
 */
export function playerLines(storiesDir: string): PlayerLine[] {
  const out: PlayerLine[] = [];
  const seen = new Set<string>();
  for (const story of readdirSync(storiesDir).sort()) {
    let plans: string[];
    try {
      plans = readdirSync(join(storiesDir, story)).filter((f) => f.endsWith('.testplan')).sort();
    } catch {
      continue;
    }
    for (const plan of plans) {
      const parsed = parsePlan(readFileSync(join(storiesDir, story, plan), 'utf8'));
      if (!parsed.ok) throw new Error(`${story}/${plan}: ${parsed.error}`);
      let language: PlayLanguage = 'english';
      for (const s of parsed.steps) {
        if (s.verb === 'language' && (s.arg === 'english' || s.arg === 'french')) language = s.arg;
        if (s.verb !== 'say' && s.verb !== 'defend') continue;
        const said = s.verb === 'say' ? [{ text: s.arg }] : s.arg.split('|').map((x) => {
          const [name = '', ...words] = x.split(':');
          return { text: words.join(':').trim(), defender: name.trim().toLowerCase() };
        });
        for (const one of said) {
          const key = `${story}\0${language}\0${one.text}`;
          if (!one.text || seen.has(key)) continue;
          seen.add(key);
          out.push({ story, plan: plan.replace(/\.testplan$/, ''), line: s.line, language, ...one });
        }
      }
    }
  }
  return out;
}

/** The game state just before the player says the plan's line `line` (moments waiting to start are started). */
export function stateBeforeLine(storiesDir: string, story: Story, slug: string, plan: string, line: number): GameState {
  const parsed = parsePlan(readFileSync(join(storiesDir, slug, `${plan}.testplan`), 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error);
  if (parsed.steps.some((s) => s.verb === 'seed')) throw new Error(`${plan}: plans with a seed step are not supported here`);
  const target = parsed.steps.filter((s) => s.verb === 'say' || s.verb === 'defend').findIndex((s) => s.line === line);
  if (target < 0) throw new Error(`${plan}: no say line ${line}`);
  const result = runPlan(story, parsed.steps);
  // runPlan keeps the events, not the states: fold them again from the same start (see runPlan's defaults).
  let state = initialState('story-tester', story.id, 1);
  let said = 0;
  for (const e of result.events) {
    const isSay = e.event.type === 'turn' && !e.event.is_starting_dialogue;
    if (isSay && said++ === target) return state;
    const r = step(state, e.event, { now: e.now, story });
    if (!r.ok) throw new Error(`${plan}: replay failed: ${r.error.message}`);
    state = r.state;
  }
  throw new Error(`${plan}: line ${line} was not reached (the plan stops earlier)`);
}

const FIXED_INPUT_ID = '00000000-0000-4000-8000-000000000000';

/** The scripted brain's decision on a player line at this state. */
export function decideLine(story: Story, state: GameState, text: string): Decision {
  return decideScripted({ story, state, transcription: text, is_starting_dialogue: false, input_id: FIXED_INPUT_ID });
}

/** What the scripted brain makes of a text at this state, without the parts that only echo the words. */
export function decisionKey(story: Story, state: GameState, text: string): string {
  const d = decideLine(story, state, text);
  const battle = d.battle ? { ...d.battle, action: undefined } : null;
  return JSON.stringify([d.matched, d.outcome, d.perfect, d.next_moment_id ?? null, battle, d.selection ?? null, d.upgrade ?? null, d.equip ?? null, d.award ?? null]);
}
