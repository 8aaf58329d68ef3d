// The Battle moment: the team fights opponents, attack and defence in turns, until one side is burned out.
import type { Draft } from '../run/draft.js';
import type { BlueprintMoment } from '../story/format.js';
import type { PlayerMoment } from '../schema/player.js';
import { indexStory } from '../story/story-index.js';
import type { RuleResult, TurnCtx } from './play-hooks.js';
import { aiSelectStrike, applyBattle, strikeAnnouncement } from '../run/apply-battle.js';
import { buildOutput } from '../run/output.js';
import type { BotCtx, RandomMoveCtx } from './bot-hooks.js';
import type { Utterance } from '../sim/bots.js';
import { say, strongestOne, styleWord, words } from '../sim/bot-helpers.js';
import type { Action, ActionCtx, SpeechCtx } from './speech-hooks.js';
import { named, pattern, type PatternPart, phrases, type SpeechPattern } from '../brain/speech-parts.js';
import { base, bestAnswer, type BrainCtx, fallback, fallbackOr, line, mentionedCharacters, thematic } from '../brain/scripted-ctx.js';
import type { DecisionInput } from '../brain/decision.js';
import { brainSay } from '../brain/texts.js';
import { currentMoment, currentRun, momentById } from '../run/state.js';
import { PLAY } from './common.js';
import type { LlmStateCtx, MomentModule } from './types.js';
import { z } from 'zod';
import { momentMember } from '../story/moment-parts.js';
import { UuidV4 } from '../schema/ids.js';
import { opponentsOf } from './fields.js';

function decideBattle(c: BrainCtx): DecisionInput {
  const s = c.input.state;
  const pm = currentMoment(s);
  const team = s.characters.filter((x) => x.is_selected_in_assemble && x.current_health > 0);
  const answer = bestAnswer(c);
  if (pm?.battle_phase === 'player_defense_input') {
    const struck = s.characters.find((x) => x.id === pm.pending_strike?.target_id);
    if (!c.cs.defend?.match(c.heard)) return base(c, brainSay('defend_miss', c.lang), { emotion: 'fear', intensity: 3 });
    const th = thematic(c, struck);
    return base(c, answer ? line(c, answer.rule.id, answer.rule.reply) : brainSay('defend', c.lang, { actor: struck?.name ?? '' }), {
      battle: { kind: 'defend', ...(struck ? { actor_id: struck.id } : {}), action: c.heard.slice(0, 200), thematic: th },
      perfect: th && answer?.rule.perfect === true,
    });
  }
  const attackWord = c.cs.attack?.match(c.heard);
  const actorMention = mentionedCharacters(c, team)[0];
  const foes = s.opponents.filter((o) => o.player_moment_id === pm?.id && o.current_health > 0);
  const named = c.cs.characters.mentions(c.heard).map((m) => m.id);
  const target = foes.find((o) => named.includes(o.blueprint_character_id));
  if (!attackWord && !target) return fallbackOr(c, brainSay('attack_ask', c.lang));
  const actor = actorMention ?? team[0];
  const foe = target ?? foes[0];
  if (!actor || !foe) return fallback(c);
  const th = thematic(c, actor);
  return base(c, answer ? line(c, answer.rule.id, answer.rule.reply) : brainSay('attack', c.lang, { actor: actor.name, target: foe.name }), {
    emotion: 'anger', intensity: th ? 4 : 3,
    battle: { kind: 'attack', actor_id: actor.id, target_id: foe.id, action: c.heard.slice(0, 200), thematic: th },
  });
}

/** Sentences for this type's decisions. */
function sentences(c: SpeechCtx): SpeechPattern[] {
  const { state, lang, t, stage, team, charNames, v, styleWords } = c;
  const out: SpeechPattern[] = [];
    if (!v) return out;
    // A style, said after the move: its preposition and word together ("with panache"), or neither.
    // Each style's first word is its plain one.
    const style: PatternPart[] = styleWords.length
      ? [{ options: t.style, optional: true, plain: [t.with], group: 'style' }, { ...named(v.styles.map((x) => phrases(x.match, lang))), optional: true, group: 'style' }]
      : [];
    if (stage === 'defend') {
      const pm = currentMoment(state);
      const struck = state.characters.find((c) => c.id === pm?.pending_strike?.target_id);
      const names = named(struck ? [charNames(struck.blueprint_character_id, struck.name)] : []);
      const defendVerbs = [...phrases(v.defend, lang)];
      out.push(pattern('defend', [...(names.options.length ? [{ ...names, optional: true, prefer: true }] : []), { options: defendVerbs }, ...style]));
    } else {
      const foes = state.opponents.filter((o) => o.player_moment_id === currentMoment(state)?.id && o.current_health > 0);
      const targets = named(foes.map((o) => charNames(o.blueprint_character_id, o.name)));
      const actors = named(team.map((c) => charNames(c.blueprint_character_id, c.name)));
      if (targets.options.length) {
        out.push(pattern('attack', [...(actors.options.length ? [{ ...actors, optional: true, prefer: true }] : []), { options: [...phrases(v.attack, lang)] }, { options: [t.the], optional: true }, targets, ...style]));
      }
    }
  return out;
}

/** Decisions of this type the engine accepts now. */
function actions(c: ActionCtx): Action[] {
  const { state, stage, pm, team, stylish } = c;
  const out: Action[] = [];
    if (stage === 'defend') {
      const struck = state.characters.find((c) => c.id === pm?.pending_strike?.target_id);
      out.push({ label: `defence by ${struck?.name ?? '?'}`, is: (d) => d.battle?.kind === 'defend' && !d.battle.thematic });
      if (struck && stylish(struck.blueprint_character_id)) out.push({ label: `defence by ${struck.name} in style`, is: (d) => d.battle?.kind === 'defend' && d.battle.thematic });
    } else {
      const foes = state.opponents.filter((o) => o.player_moment_id === pm?.id && o.current_health > 0);
      for (const a of team) {
        for (const f of foes) {
          out.push({ label: `attack by ${a.name} on ${f.name}`, is: (d) => d.battle?.kind === 'attack' && d.battle.actor_id === a.id && d.battle.target_id === f.id && !d.battle.thematic });
          if (stylish(a.blueprint_character_id)) out.push({ label: `attack by ${a.name} on ${f.name} in style`, is: (d) => d.battle?.kind === 'attack' && d.battle.actor_id === a.id && d.battle.target_id === f.id && d.battle.thematic });
        }
      }
    }
  return out;
}

/** The optimal or greedy bot's move. */
function move(c: BotCtx): Utterance {
  const { bot, s, story, pm, lang, team } = c;
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

/** A player's turn: the rules of this type. */
function turn(c: TurnCtx, res: RuleResult): void {
  const { d, pm, info, outputs } = c;
  const b = applyBattle(d, pm, info);
  if (b.won) {
    const run = currentRun(d.state);
    const after = momentById(d.state, pm.id);
    if (run) {
      const won = run.battles_won + 1;
      const clean = run.clean_battles_won + ((after?.burn_outs ?? 0) === 0 ? 1 : 0);
      const w = d.edit('player_stories', run);
      w.battles_won = won;
      w.clean_battles_won = clean;
    }
  }
  if (b.afterAttack) {
    // Two outputs: the attack with next phase ai_attack_selection, then the AI's chosen strike.
    info.phase_override = 'ai_attack_selection';
    if (!d.lean) outputs.push(buildOutput(d.state, info, info.decision.reply));
    info.phase_override = null;
    aiSelectStrike(d, pm.id);
    const after = momentById(d.state, pm.id);
    res.secondLine = after ? strikeAnnouncement(d, after) : '';
  }
  res.complete = b.won;
  res.lost = b.lost;
}

/** Entering: the opponents come in, with the moment's overrides of their health and attack. */
function enter(d: Draft, m: BlueprintMoment, pm: PlayerMoment): void {
  const idx = indexStory(d.story);
  for (const o of opponentsOf(m)) {
    const bc = idx.characters.get(o.character_id);
    if (!bc) continue;
    const health = o.health ?? bc.base_health;
    const attack = o.attack ?? bc.base_attack;
    d.put('player_opponents', {
      id: d.uuid(), player_moment_id: pm.id, blueprint_moment_id: m.id, blueprint_character_id: bc.id,
      name: bc.name, current_health: health, base_health: health, current_attack: attack, base_attack: attack,
      properties: [...bc.properties],
    });
  }
}

/** The random player: a defence in the defence phase, else mostly an attack by one of the team on a foe. */
function random({ r, s, pm, team, d }: RandomMoveCtx): void {
  const foes = s.opponents.filter((o) => o.player_moment_id === pm.id && o.current_health > 0);
  const thematic = r.next() < 0.5;
  if (pm.battle_phase === 'player_defense_input') d.battle = { kind: 'defend', action: 'block', thematic };
  else if (r.next() < 0.9 && team.length > 0 && foes.length > 0) d.battle = { kind: 'attack', actor_id: r.pick(team).id, target_id: r.pick(foes).id, action: 'hit', thematic };
}

/** The LLM brain is told the battle's phase: whom a foe strikes and who must defend, or that the team attacks. */
function llmState({ pm, state, opponents, fr }: LlmStateCtx): string[] {
  const strike = pm.pending_strike;
  if (pm.battle_phase === 'player_defense_input' && strike) {
    const foe = opponents.find((o) => o.id === strike.opponent_id)?.name ?? '';
    const target = state.characters.find((c) => c.id === strike.target_id);
    return [fr
      ? `Phase : défense. ${foe} frappe ${target?.name ?? ''} (id: ${strike.target_id}) : le joueur doit dire comment il se défend (battle.kind "defend", actor_id ${strike.target_id}).`
      : `Phase: defence. ${foe} strikes ${target?.name ?? ''} (id: ${strike.target_id}): the player must say how they defend (battle.kind "defend", actor_id ${strike.target_id}).`];
  }
  return [fr ? 'Phase : attaque. Le joueur dit qui de l\'équipe attaque quel adversaire (battle.kind "attack").' : 'Phase: attack. The player says which team member attacks which opponent (battle.kind "attack").'];
}

/** A character fought in a Battle, with optional overrides of its health and attack. */
export const BattleOpponent = z.object({
  character_id: UuidV4,
  /** Overrides of the blueprint character's base values for this battle. */
  health: z.number().int().min(1).optional(),
  attack: z.number().int().min(0).optional(),
}).strict();
export type BattleOpponent = z.infer<typeof BattleOpponent>;

/** A Battle moment in a story file: the fields every moment has, and its own. */
export const BattleMoment = momentMember('Battle', { opponents: z.array(BattleOpponent).default([]) });
export type BattleMoment = z.infer<typeof BattleMoment>;

export const battle: MomentModule<typeof BattleMoment> = {
  schema: BattleMoment,
  type: 'Battle',
  description: 'The team fights opponents, attack and defence in turns, until one side is burned out.',
  traits: { ...PLAY, stages: ['attack', 'defend'], fights: true },
  graph: {
    label: 'Battle',
    mermaid: ['[/', '\\]'],
    dot: 'shape=octagon',
    fill: '#4a1f2a',
  },
  fields: [
    { key: 'opponents', label: 'Opponents', kind: 'opponents', required: true, min: 1, help: 'The characters fought, with optional health and attack overrides.' },
  ],
  stageOf: (pm) => (pm.battle_phase === 'player_defense_input' && pm.pending_strike ? 'defend' : 'attack'),
  check: (m, c) => {
    if (opponentsOf(m).length === 0) c.r.error(`${c.at}.opponents`, 'battle/no_opponents', `Battle ${c.name} has no opponents.`);
  },
  brain: { decide: decideBattle },
  speech: { sentences, actions },
  bot: { move, random },
  play: { enter, turn },
  llmState,
  llmRules: {
    english: 'A battle. In the attack phase, set "battle" to {kind "attack", actor_id: the team member the player names (else the first of the team), target_id: the opponent they name (else the first opponent), action: their words, thematic: true when the action fits that character\'s style}. In the defence phase, set "battle" to {kind "defend", actor_id: the struck character, action, thematic}. Narrate the blow in one sentence. Outcome "continue": the game decides who wins. Never decide damage yourself.',
    french: 'Un combat. En phase d\'attaque, mettez dans "battle" {kind "attack", actor_id : le membre de l\'équipe que le joueur nomme (sinon le premier de l\'équipe), target_id : l\'adversaire qu\'il nomme (sinon le premier), action : ses mots, thematic : true quand l\'action correspond au style du personnage}. En phase de défense, {kind "defend", actor_id : le personnage frappé, action, thematic}. Racontez le coup en une phrase. Outcome "continue" : le jeu décide du vainqueur. Ne décidez jamais des dégâts.',
  },
};
