// Simulation bots: players that speak to the scripted brain. `optimal` knows the story and plays for the rank,
// `greedy` takes what looks best right now (first acceptable answers, hardest upgrade, biggest bet), `random` is a
// player who does not know the story: authored words picked at random, or off-topic speech.
import type { Random } from '../random.js';
import { LANG_CODE, type PlayLanguage } from '../schema/enums.js';
import type { PlayerCharacter } from '../schema/player.js';
import { currentMoment, currentRun, equippedItemsOf, type GameState } from '../run/state.js';
import type { BlueprintMoment, Phrases, Story } from '../story/format.js';
import { indexStory } from '../story/story-index.js';

export const BOT_NAMES = ['optimal', 'greedy', 'random'] as const;
export type BotName = (typeof BOT_NAMES)[number];

export type Utterance = { text: string; selected_character_ids?: string[] };

/**
 * Words joined by spaces into one flat string. Joined with + or a template, a string is a rope, and V8 compares and
 * hashes ropes by walking their pieces each time: the brain looks the words up in several caches every turn.
 */
function words(...parts: string[]): string {
  return parts.join(' ');
}

const OFF_TOPIC = ['what is this', 'hello there', 'I like turtles', 'where am I', 'um', 'can you repeat'];

function say(p: Phrases | undefined, lang: PlayLanguage, r: Random | null = null): string {
  if (!p) return '';
  const list = LANG_CODE[lang] === 'fr' ? (p.fr ?? p.en) : p.en;
  return r ? r.pick(list) : (list[0] ?? '');
}

const distCache = new WeakMap<Story, Map<string, number>>();

/** Moves from each moment to the nearest Epilogue, never through a Dead End. */
export function distanceToEpilogue(story: Story): Map<string, number> {
  let dist = distCache.get(story);
  if (dist) return dist;
  dist = new Map();
  const preds = new Map<string, string[]>();
  for (const m of story.moments) {
    if (m.type === 'Dead End') continue;
    for (const t of m.transitions) preds.set(t.next_moment_id, [...(preds.get(t.next_moment_id) ?? []), m.id]);
  }
  const queue = story.moments.filter((m) => m.type === 'Epilogue').map((m) => m.id);
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

const power = (s: GameState, c: PlayerCharacter): number =>
  c.current_attack + equippedItemsOf(s, c.id).reduce((n, i) => n + i.attack_bonus, 0) + c.current_health / 10;

/** Strongest first (a stable sort: equals keep their order); each power is computed once. */
function strongest(s: GameState, list: PlayerCharacter[]): PlayerCharacter[] {
  if (list.length < 2) return [...list];
  const powers = new Map<PlayerCharacter, number>();
  for (const c of list) if (!powers.has(c)) powers.set(c, power(s, c));
  return [...list].sort((a, b) => (powers.get(b) as number) - (powers.get(a) as number));
}

/** strongest(s, list)[0] without sorting: the first of the strongest, in list order. */
function strongestOne(s: GameState, list: PlayerCharacter[]): PlayerCharacter | undefined {
  let best: PlayerCharacter | undefined;
  let bestPower = 0;
  for (const c of list) {
    const p = power(s, c);
    if (best === undefined || p > bestPower) {
      best = c;
      bestPower = p;
    }
  }
  return best;
}

function styleWord(story: Story, c: PlayerCharacter | undefined, lang: PlayLanguage): string {
  const tags = story.characters.find((x) => x.id === c?.blueprint_character_id)?.style_tags ?? [];
  const style = story.battle_verbs?.styles.find((s) => tags.includes(s.tag));
  return style ? say(style.match, lang) : '';
}

function talk(m: BlueprintMoment, s: GameState, lang: PlayLanguage, bot: BotName, story: Story): string {
  if (m.type === 'Crossroad') {
    const dist = distanceToEpilogue(story);
    const branches = m.transitions.filter((t) => t.match);
    const best = bot === 'greedy' ? branches[0] : [...branches].sort((a, b) => (dist.get(a.next_moment_id) ?? 1e9) - (dist.get(b.next_moment_id) ?? 1e9))[0];
    if (best) return say(best.match, lang);
  }
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
  switch (m.type) {
    case 'Battle': {
      const v = story.battle_verbs;
      if (pm.battle_phase === 'player_defense_input') {
        const struck = s.characters.find((c) => c.id === pm.pending_strike?.target_id);
        return { text: words(say(v?.defend, lang), styleWord(story, struck, lang)).trim() };
      }
      const actor = strongestOne(s, team);
      const foes = s.opponents.filter((o) => o.player_moment_id === pm.id && o.current_health > 0).sort((a, b) => a.current_health - b.current_health);
      const foe = bot === 'greedy' ? foes[foes.length - 1] : foes[0];
      return { text: words(actor?.name ?? '', say(v?.attack, lang), foe?.name ?? '', styleWord(story, actor, lang)).trim() };
    }
    case 'Reward': {
      const idx = indexStory(story);
      for (const rw of m.rewards) {
        if (rw.reward_type === 'item') {
          const it = rw.item_ids.map((id) => idx.items.get(id)).find((x) => x && !s.items.some((i) => i.blueprint_item_id === x.id));
          if (it) return { text: LANG_CODE[lang] === 'fr' ? (it.name.fr ?? it.name.en) : it.name.en };
        } else if (rw.reward_type === 'character') {
          const c = rw.character_ids.map((id) => idx.characters.get(id)).find((x) => x && !s.characters.some((pc) => pc.blueprint_character_id === x.id));
          if (c) return { text: c.name };
        } else {
          const dr = rw.dynamic_rewards[0];
          if (dr && !s.items.some((i) => i.acquired_in_blueprint_moment_id === m.id && i.blueprint_item_id === null)) return { text: dr.match ? say(dr.match, lang) : dr.name.en };
        }
      }
      return { text: talk(m, s, lang, bot, story) };
    }
    case 'Equip': {
      // The best item, preferably one nobody wears yet (moving an item is allowed too).
      const byValue = [...s.items].sort((a, b) => b.attack_bonus + b.defense_bonus - (a.attack_bonus + a.defense_bonus));
      const item = byValue.find((i) => !s.character_items.some((l) => l.player_item_id === i.id && l.is_equipped)) ?? byValue[0];
      const who = strongestOne(s, team);
      return { text: item && who ? words(item.name, who.name) : talk(m, s, lang, bot, story) };
    }
    case 'Assemble': {
      const need = m.max_number_of_characters ?? 0;
      const alive = s.characters.filter((c) => c.current_health > 0);
      const chosen = strongest(s, alive).slice(0, need);
      return { text: chosen.map((c) => c.name).join(' and ') };
    }
    case 'Upgrade': {
      const u = m.upgrade;
      if (!u) return { text: '' };
      const bet = pm.upgrade_bet;
      const levels = [...u.difficulties];
      const level = bot === 'greedy' ? levels[levels.length - 1] : levels[0];
      const chosen = levels.find((l) => l.level === bet?.level) ?? level;
      if (bet?.placed) return { text: say(chosen?.answers, lang) };
      const who = strongestOne(s, team);
      const amount = bot === 'greedy' ? u.max_bet : u.min_bet;
      return { text: words(who?.name ?? '', say(chosen?.match, lang), String(amount)) };
    }
    case 'Monologue': case 'Learn': case 'Test': case 'Crossroad': case 'Teamwork': case 'Epilogue': case 'Dead End':
      return { text: talk(m, s, lang, bot, story) };
  }
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
  for (const d of m.upgrade?.difficulties ?? []) {
    const bet = say(d.match, lang, r);
    pool.push([bet, String(1 + r.int(3))], say(d.answers, lang, r));
  }
  for (const rw of m.rewards) for (const id of rw.item_ids) pool.push(indexStory(story).items.get(id)?.name.en ?? '');
  let text: string;
  if (pool.length === 0) text = r.pick(OFF_TOPIC);
  else {
    const first = entry(r.pick(pool));
    text = r.next() < 0.3 ? words(first, entry(r.pick(pool))) : first;
  }
  return { text };
}
