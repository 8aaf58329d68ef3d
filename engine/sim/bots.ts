// Simulation bots: players that speak to the scripted brain. `optimal` knows the story and plays for the rank,
// `greedy` takes what looks best right now (first acceptable answers, hardest upgrade, biggest bet), `random` is a
// player who does not know the story: authored words picked at random, or off-topic speech.
import type { Random } from '../random.js';
import { type PlayLanguage } from '../schema/enums.js';
import { currentMoment, currentRun, type GameState } from '../run/state.js';
import type { BlueprintMoment, Story } from '../story/format.js';
import { indexStory } from '../story/story-index.js';
import { MOMENTS } from '../moments/registry.js';
import { say, words } from './bot-helpers.js';
import { rewardsOf, upgradeOf } from '../moments/fields.js';

export const BOT_NAMES = ['optimal', 'greedy', 'random'] as const;
export type BotName = (typeof BOT_NAMES)[number];

export type Utterance = { text: string; selected_character_ids?: string[] };

const OFF_TOPIC = ['what is this', 'hello there', 'I like turtles', 'where am I', 'um', 'can you repeat'];

const distCache = new WeakMap<Story, Map<string, number>>();

/** Moves from each moment to the nearest Epilogue, never through a Dead End. */
export function distanceToEpilogue(story: Story): Map<string, number> {
  let dist = distCache.get(story);
  if (dist) return dist;
  dist = new Map();
  const preds = new Map<string, string[]>();
  for (const m of story.moments) {
    if (MOMENTS[m.type].traits.ends === 'lost') continue;
    for (const t of m.transitions) preds.set(t.next_moment_id, [...(preds.get(t.next_moment_id) ?? []), m.id]);
  }
  const queue = story.moments.filter((m) => MOMENTS[m.type].traits.ends === 'won').map((m) => m.id);
  for (const id of queue) dist.set(id, 0);
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i] as string;
    for (const p of preds.get(id) ?? []) {
      if (!dist.has(p)) {
        dist.set(p, (dist.get(id) ?? 0) + 1);
        queue.push(p);
      }
    }
  }
  distCache.set(story, dist);
  return dist;
}

function talk(m: BlueprintMoment, s: GameState, lang: PlayLanguage, bot: Exclude<BotName, 'random'>, story: Story): string {
  const first = MOMENTS[m.type].bot?.talk?.({ bot, s, story, m, lang });
  if (first) return first;
  const facts = new Set(currentMoment(s)?.player_facts ?? []);
  const progress = m.answers.find((a) => a.outcome === 'progress' && a.facts.some((f) => !facts.has(f)));
  const complete = m.answers.filter((a) => a.outcome === 'complete');
  const pick = bot === 'greedy' ? complete[0] ?? progress : complete.find((a) => a.perfect) ?? (progress && !complete.some((a) => a.perfect) ? progress : undefined) ?? [...complete].sort((a, b) => b.score - a.score)[0] ?? progress;
  return pick ? say(pick.match, lang) : '';
}

export function botUtterance(bot: BotName, s: GameState, story: Story, r: Random): Utterance {
  const run = currentRun(s);
  const pm = currentMoment(s);
  const m = pm ? indexStory(story).moments.get(pm.blueprint_moment_id) : undefined;
  const lang: PlayLanguage = run?.language === 'french' ? 'french' : 'english';
  if (!m || !pm) return { text: '' };
  if (bot === 'random') return randomUtterance(s, story, m, lang, r);
  const team = s.characters.filter((c) => c.is_selected_in_assemble && c.current_health > 0);
  const move = MOMENTS[m.type].bot?.move;
  return move ? move({ bot, s, story, m, pm, lang, team, talk: () => talk(m, s, lang, bot, story) }) : { text: talk(m, s, lang, bot, story) };
}

const entry = (e: string | [string, string]): string => (typeof e === 'string' ? e : words(e[0], e[1]));

function randomUtterance(s: GameState, story: Story, m: BlueprintMoment, lang: PlayLanguage, r: Random): Utterance {
  if (r.next() < 0.25) return { text: r.pick(OFF_TOPIC) };
  // Two-word entries stay pairs until picked (most never are): words(...pair) when they are.
  const pool: (string | [string, string])[] = [];
  for (const a of m.answers) pool.push(say(a.match, lang, r));
  for (const t of m.transitions) if (t.match) pool.push(say(t.match, lang, r));
  for (const c of s.characters) pool.push(c.name);
  for (const i of s.items) pool.push(i.name);
  for (const o of s.opponents) pool.push(o.name);
  const v = story.battle_verbs;
  if (v) {
    const attack = say(v.attack, lang, r);
    // A standing opponent's name or none: r.pick over the names and '' (the same draw).
    const k = r.int(s.opponents.length + 1);
    pool.push([attack, k < s.opponents.length ? (s.opponents[k] as { name: string }).name : ''], say(v.defend, lang, r));
  }
  for (const d of upgradeOf(m)?.difficulties ?? []) {
    const bet = say(d.match, lang, r);
    pool.push([bet, String(1 + r.int(3))], say(d.answers, lang, r));
  }
  for (const rw of rewardsOf(m)) for (const id of rw.item_ids) pool.push(indexStory(story).items.get(id)?.name.en ?? '');
  let text: string;
  if (pool.length === 0) text = r.pick(OFF_TOPIC);
  else {
    const first = entry(r.pick(pool));
    text = r.next() < 0.3 ? words(first, entry(r.pick(pool))) : first;
  }
  return { text };
}
