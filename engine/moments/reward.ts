// The Reward moment: the player takes one reward: an item, a character or an item made on the spot.
import type { RuleResult, TurnCtx } from './play-hooks.js';
import { applyReward } from '../run/apply-cards.js';
import type { BotCtx, RandomMoveCtx } from './bot-hooks.js';
import { AwardSource, ItemRarity, LANG_CODE, RewardType } from '../schema/enums.js';
import type { Utterance } from '../sim/bots.js';
import { indexStory } from '../story/story-index.js';
import { say } from '../sim/bot-helpers.js';
import type { Action, ActionCtx, SpeechCtx } from './speech-hooks.js';
import { callNames, named, pattern, phrases, type SpeechPattern } from '../brain/speech-parts.js';
import { localize, Text } from '../story/text.js';
import { answerDecision, base, bestAnswer, type BrainCtx, decoyAt, fallback, line, rewardName } from '../brain/scripted-ctx.js';
import type { DecisionInput } from '../brain/decision.js';
import { brainSay } from '../brain/texts.js';
import { TALK } from './common.js';
import type { MomentModule } from './types.js';
import { z } from 'zod';
import { momentMember, Phrases } from '../story/moment-parts.js';
import { UuidV4 } from '../schema/ids.js';
import { rewardsOf } from './fields.js';

function decideReward(c: BrainCtx): DecisionInput {
  const s = c.input.state;
  const owned = (kind: string, id: string): boolean =>
    kind === 'item' ? s.items.some((i) => i.blueprint_item_id === id)
      : kind === 'character' ? s.characters.some((x) => x.blueprint_character_id === id)
        : s.items.some((i) => i.acquired_in_blueprint_moment_id === c.m.id && i.blueprint_item_id === null);
  const named = c.cm.rewards.matchAll(c.heard).filter((x) => !decoyAt(c, x)).map((x) => x.id).find((x) => {
    const [kind = '', id = ''] = x.split(':');
    return !owned(kind, id);
  });
  const answer = bestAnswer(c);
  const lacking = rewardsOf(c.m).some((r) => (r.reward_type === 'item' ? r.item_ids : r.reward_type === 'character' ? r.character_ids : r.dynamic_rewards.map((d) => d.id))
    .some((id) => !owned(r.reward_type, id)));
  // Nothing left to give: the moment ends whatever the player says, rather than trapping them.
  if (!lacking) return base(c, brainSay('nothing_left', c.lang), { outcome: 'complete', matched: 'nothing_left' });
  let pick = named;
  if (!pick && answer?.rule.outcome === 'complete') {
    outer: for (const r of rewardsOf(c.m)) {
      const ids = r.reward_type === 'item' ? r.item_ids : r.reward_type === 'character' ? r.character_ids : r.dynamic_rewards.map((d) => d.id);
      for (const id of ids) if (!owned(r.reward_type, id)) { pick = `${r.reward_type}:${id}`; break outer; }
    }
    if (!pick) return base(c, brainSay('nothing_left', c.lang), { outcome: 'complete', matched: answer.rule.id });
  }
  if (!pick) return answer ? answerDecision(c, answer.rule) : fallback(c);
  const [kind = '', id = ''] = pick.split(':');
  const reward_type = kind === 'character' ? 'character' : kind === 'item' ? 'item' : 'dynamic_item';
  const name = rewardName(c.input.story, reward_type, id, c.lang);
  const reply = answer ? line(c, answer.rule.id, answer.rule.reply) : brainSay('reward', c.lang, { name });
  return base(c, reply, { outcome: 'complete', award: { reward_type, id }, emotion: 'happiness', intensity: 3, matched: answer?.rule.id ?? pick, score: answer?.rule.score ?? 60, perfect: answer?.rule.perfect ?? false });
}

/** Sentences for this type's decisions. */
function sentences(c: SpeechCtx): SpeechPattern[] {
  const { story, language, lang, t, m } = c;
  const out: SpeechPattern[] = [];
    for (const r of rewardsOf(m)) {
      const names: string[][] = [];
      for (const id of r.item_ids) {
        const it = story.items.find((x) => x.id === id);
        if (it) names.push(callNames(story, localize(it.name, language), it.aliases, lang));
      }
      for (const id of r.character_ids) {
        const c = story.characters.find((x) => x.id === id);
        if (c) names.push(callNames(story, c.name, c.aliases, lang));
      }
      for (const d of r.dynamic_rewards) names.push([localize(d.name, language), ...phrases(d.match, lang)]);
      if (names.length) out.push(pattern('reward', [{ options: t.take, optional: true }, named(names)]));
    }
  return out;
}

/** Decisions of this type the engine accepts now. */
function actions(c: ActionCtx): Action[] {
  const { story, state, m } = c;
  const out: Action[] = [];
    for (const r of rewardsOf(m)) {
      const ids = r.reward_type === 'item' ? r.item_ids : r.reward_type === 'character' ? r.character_ids : r.dynamic_rewards.map((x) => x.id);
      for (const id of ids) {
        const owned = r.reward_type === 'item' ? state.items.some((i) => i.blueprint_item_id === id)
          : r.reward_type === 'character' ? state.characters.some((c) => c.blueprint_character_id === id) : false;
        if (owned) continue;
        const name = r.reward_type === 'item' ? story.items.find((i) => i.id === id)?.name.en : r.reward_type === 'character' ? story.characters.find((c) => c.id === id)?.name : r.dynamic_rewards.find((x) => x.id === id)?.name.en;
        out.push({ label: `reward ${name ?? id}`, is: (d) => d.award?.id === id });
      }
    }
  return out;
}

/** The optimal or greedy bot's move. */
function move(c: BotCtx): Utterance {
  const { s, story, m, lang } = c;
    const idx = indexStory(story);
    for (const rw of rewardsOf(m)) {
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
    return { text: c.talk() };
}

/** A player's turn: the rules of this type. */
function turn(c: TurnCtx, res: RuleResult): void {
  const { d, m, info } = c;
  applyReward(d, m, info);
  if (info.award) res.complete = true;
}

/** The random player: claims one of the moment's rewards, sometimes completes. */
function random({ r, m, d }: RandomMoveCtx): void {
  const reward = rewardsOf(m).length > 0 ? r.pick(rewardsOf(m)) : undefined;
  if (reward) {
    const id = reward.reward_type === 'character' ? reward.character_ids[0] : reward.reward_type === 'item' ? reward.item_ids[0] : reward.dynamic_rewards[0]?.id;
    if (id) d.award = { reward_type: reward.reward_type, id };
  }
  if (r.next() < 0.3) d.outcome = 'complete';
}

/** An item made on the spot (reward_type dynamic_item); the brain picks the one whose phrases the player used. */
export const DynamicReward = z.object({
  id: UuidV4,
  name: Text,
  description: Text.optional(),
  attack_bonus: z.number().int().default(0),
  defense_bonus: z.number().int().default(0),
  properties: z.array(z.string().min(1)).default([]),
  rarity: ItemRarity.default('common'),
  match: Phrases.optional(),
}).strict();
export type DynamicReward = z.infer<typeof DynamicReward>;

/** What a Reward moment can give: items, characters, or items made on the spot. */
export const BlueprintReward = z.object({
  id: UuidV4,
  reward_type: RewardType,
  item_ids: z.array(UuidV4).default([]),
  character_ids: z.array(UuidV4).default([]),
  dynamic_rewards: z.array(DynamicReward).default([]),
  /** Recorded as the item's source; defaults to the reward type ('character', 'item', 'dynamic_item'). */
  source: AwardSource.optional(),
}).strict();
export type BlueprintReward = z.infer<typeof BlueprintReward>;

/** A Reward moment in a story file: the fields every moment has, and its own. */
export const RewardMoment = momentMember('Reward', { rewards: z.array(BlueprintReward).default([]) });
export type RewardMoment = z.infer<typeof RewardMoment>;

export const reward: MomentModule<typeof RewardMoment> = {
  schema: RewardMoment,
  type: 'Reward',
  description: 'The player takes one reward: an item, a character or an item made on the spot.',
  traits: { ...TALK, completesByPlay: true },
  graph: {
    label: 'Reward',
    mermaid: ['{{', '}}'],
    dot: 'shape=hexagon',
  },
  fields: [
    { key: 'rewards', label: 'Rewards', kind: 'rewards', required: true, min: 1, help: 'What the player may take: items, characters, or items made on the spot (dynamic_item) with their names per language.' },
  ],
  check: (m, c) => {
    if (rewardsOf(m).length === 0) c.r.error(`${c.at}.rewards`, 'reward/none', `Reward ${c.name} has no rewards.`);
  },
  brain: { decide: decideReward },
  speech: { sentences, actions },
  bot: { move, random },
  play: { turn },
  llmRules: {
    english: 'You offer the player a reward. When they accept or name one, set "award" to one reward of this moment that they do not already own (its reward_type and id exactly as listed) and outcome "complete". When they refuse, "continue". When they already own everything, "complete" without an award.',
    french: 'Vous offrez une récompense au joueur. Quand il accepte ou en nomme une, mettez dans "award" une récompense de ce moment qu\'il n\'a pas encore (son reward_type et son id exactement comme listés) et outcome "complete". S\'il refuse, "continue". S\'il a déjà tout, "complete" sans award.',
  },
};
