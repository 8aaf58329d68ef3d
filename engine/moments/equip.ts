// The Equip moment: the player gives one of their items to one of their characters.
import type { RuleResult, TurnCtx } from './play-hooks.js';
import { applyEquip } from '../run/apply-cards.js';
import { currentRun } from '../run/state.js';
import type { BotCtx, RandomMoveCtx } from './bot-hooks.js';
import type { Utterance } from '../sim/bots.js';
import { strongestOne, words } from '../sim/bot-helpers.js';
import type { Action, ActionCtx, SpeechCtx } from './speech-hooks.js';
import { callNames, named, pattern, type SpeechPattern } from '../brain/speech-parts.js';
import { base, bestAnswer, type BrainCtx, fallbackOr, line, mentionedCharacters, mentionedItems } from '../brain/scripted-ctx.js';
import type { DecisionInput } from '../brain/decision.js';
import { brainSay } from '../brain/texts.js';
import { PLAY } from './common.js';
import type { MomentModule } from './types.js';
import type { z } from 'zod';
import { momentMember } from '../story/moment-parts.js';

function decideEquip(c: BrainCtx): DecisionInput {
  const team = c.input.state.characters.filter((x) => x.is_selected_in_assemble);
  if (c.input.state.items.length === 0) return base(c, brainSay('nothing_to_equip', c.lang), { outcome: 'complete', matched: 'nothing_to_equip' });
  const ch = mentionedCharacters(c, team)[0];
  const it = mentionedItems(c)[0];
  if (!ch || !it) return fallbackOr(c, brainSay('equip_ask', c.lang));
  const answer = bestAnswer(c);
  const reply = answer ? line(c, answer.rule.id, answer.rule.reply) : brainSay('equip', c.lang, { item: it.name, character: ch.name });
  return base(c, reply, { outcome: 'complete', equip: { character_id: ch.id, item_id: it.id }, emotion: 'happiness', intensity: 2, matched: answer?.rule.id ?? 'equip' });
}

/** Sentences for this type's decisions. */
function sentences(c: SpeechCtx): SpeechPattern[] {
  const { story, state, lang, t, charNames } = c;
  const out: SpeechPattern[] = [];
    const items = state.items.map((i) => ({ i, names: callNames(story, i.name, story.items.find((x) => x.id === i.blueprint_item_id)?.aliases ?? [], lang) }));
    const members = state.characters.filter((c) => c.is_selected_in_assemble);
    if (items.length && members.length) {
      const itemNames = named(items.map((x) => x.names));
      const who = named(members.map((c) => charNames(c.blueprint_character_id, c.name)));
      out.push(pattern('equip', [{ options: t.give }, itemNames, { options: [t.to] }, who]));
      // The character first: an item named after someone ("Essence of Ferrule") would otherwise name its holder.
      out.push(pattern('equip', [who, { options: t.take_item }, itemNames]));
    }
  return out;
}

/** Decisions of this type the engine accepts now. */
function actions(c: ActionCtx): Action[] {
  const { state } = c;
  const out: Action[] = [];
    for (const it of state.items) {
      for (const c of state.characters.filter((x) => x.is_selected_in_assemble)) {
        out.push({ label: `equip ${it.name} on ${c.name}`, is: (d) => d.equip?.item_id === it.id && d.equip.character_id === c.id });
      }
    }
  return out;
}

/** The optimal or greedy bot's move. */
function move(c: BotCtx): Utterance {
  const { s, team } = c;
    // The best item, preferably one nobody wears yet (moving an item is allowed too).
    const byValue = [...s.items].sort((a, b) => b.attack_bonus + b.defense_bonus - (a.attack_bonus + a.defense_bonus));
    const item = byValue.find((i) => !s.character_items.some((l) => l.player_item_id === i.id && l.is_equipped)) ?? byValue[0];
    const who = strongestOne(s, team);
    return { text: item && who ? words(item.name, who.name) : c.talk() };
}

/** A player's turn: the rules of this type. */
function turn(c: TurnCtx, res: RuleResult): void {
  const { d, m, info } = c;
  if (applyEquip(d, m, info) && info.equip) {
    res.complete = true;
    d.emit({
      type: 'send_equipment_forging',
      payload: {
        is_awarded: true, equipped_character_id: info.equip.character_id, equipped_item_id: info.equip.item_id,
        awarded_property: info.equip.property, equipment_image_url: info.equip.image, blueprint_story_id: d.story.id,
        player_story_id: currentRun(d.state)?.id ?? '',
      },
    });
  } else {
    res.complete = false;
  }
}

/** The random player: mostly gives one of the run's items to one of the team. */
function random({ r, s, team, d }: RandomMoveCtx): void {
  if (team.length > 0 && s.items.length > 0 && r.next() < 0.7) d.equip = { character_id: r.pick(team).id, item_id: r.pick(s.items).id };
}

/** An Equip moment in a story file: the fields every moment has (this type has none of its own). */
export const EquipMoment = momentMember('Equip');
export type EquipMoment = z.infer<typeof EquipMoment>;

export const equip: MomentModule<typeof EquipMoment> = {
  schema: EquipMoment,
  type: 'Equip',
  description: 'The player gives one of their items to one of their characters.',
  traits: PLAY,
  graph: {
    label: 'Equip',
    mermaid: ['[/', '/]'],
    dot: 'shape=parallelogram',
  },
  fields: [],
  brain: { decide: decideEquip },
  speech: { sentences, actions },
  bot: { move, random },
  play: { turn },
  llmRules: {
    english: 'The player gives one of their items to one of their characters. When they name both, set "equip" to {character_id, item_id} from the lists and outcome "complete"; otherwise ask which item and for whom: "continue".',
    french: 'Le joueur donne l\'un de ses objets à l\'un de ses personnages. Quand il nomme les deux, mettez dans "equip" {character_id, item_id} pris dans les listes et outcome "complete" ; sinon demandez quel objet et pour qui : "continue".',
  },
};
