// The Upgrade moment: the player bets interactions on a riddle to upgrade a team member's card.
import type { RuleResult, TurnCtx } from './play-hooks.js';
import { applyUpgrade } from '../run/apply-cards.js';
import type { BotCtx, RandomMoveCtx } from './bot-hooks.js';
import type { Utterance } from '../sim/bots.js';
import { say, strongestOne, words } from '../sim/bot-helpers.js';
import type { Action, ActionCtx, SpeechCtx } from './speech-hooks.js';
import { named, numberWord, pattern, phrases, type SpeechPattern } from '../brain/speech-parts.js';
import { base, bestAnswer, type BrainCtx, decoyAt, fallback, fallbackOr, line, mentionedCharacters } from '../brain/scripted-ctx.js';
import type { DecisionInput } from '../brain/decision.js';
import { amountIn } from '../brain/text/match.js';
import { brainSay } from '../brain/texts.js';
import { currentMoment } from '../run/state.js';
import { localize, Text } from '../story/text.js';
import { PLAY } from './common.js';
import type { LlmStateCtx, MomentModule } from './types.js';
import { z } from 'zod';
import { momentMember, Phrases } from '../story/moment-parts.js';
import { CardRarity } from '../schema/enums.js';
import { UuidV4 } from '../schema/ids.js';
import { upgradeOf } from './fields.js';

function decideUpgrade(c: BrainCtx): DecisionInput {
  const s = c.input.state;
  const pm = currentMoment(s);
  const rules = upgradeOf(c.m);
  if (!rules || !pm) return fallback(c);
  const bet = pm.upgrade_bet;
  if (bet?.placed) {
    const right = bet.level ? c.cm.riddles.get(bet.level)?.match(c.heard) : null;
    const answer = bestAnswer(c);
    if (right) return base(c, answer ? line(c, answer.rule.id, answer.rule.reply) : brainSay('right', c.lang), { upgrade: { stage: 'answer', correct: true }, emotion: 'happiness', intensity: 4, score: 100, matched: 'riddle' });
    return base(c, brainSay('wrong', c.lang), { upgrade: { stage: 'answer', correct: false }, emotion: 'sadness', intensity: 2 });
  }
  const team = s.characters.filter((x) => x.is_selected_in_assemble && x.current_health > 0);
  const who = mentionedCharacters(c, team)[0];
  const heardLevel = c.cm.difficulties.match(c.heard);
  const level = heardLevel && !decoyAt(c, heardLevel) ? heardLevel : null;
  const amount = amountIn(c.heard, c.cs.lang);
  if (!who && !level && amount === undefined) return fallbackOr(c, brainSay('bet_ask', c.lang));
  const character_id = who?.id ?? bet?.character_id ?? undefined;
  const lvl = level?.id ?? bet?.level ?? undefined;
  const size = amount ?? bet?.bet ?? undefined;
  const completeBet = character_id && lvl && size !== undefined;
  const riddle = rules.difficulties.find((d) => d.level === lvl)?.riddle;
  const reply = completeBet && riddle ? localize(riddle, c.lang) : brainSay('bet_ask', c.lang);
  return base(c, reply, {
    upgrade: { stage: 'bet', ...(who ? { character_id: who.id } : {}), ...(level ? { level: level.id } : {}), ...(amount !== undefined ? { bet: amount } : {}) },
    matched: 'bet',
  });
}

/** Sentences for this type's decisions. */
function sentences(c: SpeechCtx): SpeechPattern[] {
  const { lang, t, m, stage, team, charNames } = c;
  const out: SpeechPattern[] = [];
    const rules = upgradeOf(m);
    if (!rules) return out;
    if (stage === 'riddle') {
      // Every level's answers: the right one, and the others as the wrong guesses a player may make.
      for (const a of new Set(rules.difficulties.flatMap((d) => phrases(d.answers, lang)))) out.push({ ...pattern('riddle', [{ options: t.it_is, optional: true, prefer: true }, { options: [a] }]) });
    } else {
      const who = named(team.map((c) => charNames(c.blueprint_character_id, c.name)));
      const levels = [...new Set(rules.difficulties.flatMap((d) => phrases(d.match, lang)))];
      const bets: string[] = [];
      for (let b = rules.min_bet; b <= rules.max_bet; b++) bets.push(numberWord(b, lang));
      if (who.options.length && levels.length && bets.length) {
        out.push(pattern('bet', [who, { options: levels }, { options: [t.bet] }, { options: bets }]));
        out.push(pattern('bet', [who]), pattern('bet', [{ options: levels }]), pattern('bet', [{ options: [t.bet] }, { options: bets }]));
      }
    }
  return out;
}

/** Decisions of this type the engine accepts now. */
function actions(c: ActionCtx): Action[] {
  const { m, stage, team } = c;
  const out: Action[] = [];
    const rules = upgradeOf(m);
    if (!rules) return out;
    if (stage === 'riddle') {
      out.push({ label: 'riddle answered right', is: (d) => d.upgrade?.stage === 'answer' && d.upgrade.correct });
      out.push({ label: 'riddle answered wrong', is: (d) => d.upgrade?.stage === 'answer' && !d.upgrade.correct });
    } else {
      for (const c of team) {
        for (const lvl of rules.difficulties) {
          for (let b = rules.min_bet; b <= rules.max_bet; b++) {
            out.push({ label: `bet ${b} on ${c.name}, ${lvl.level}`, is: (d) => d.upgrade?.stage === 'bet' && d.upgrade.character_id === c.id && d.upgrade.level === lvl.level && d.upgrade.bet === b });
          }
        }
      }
    }
  return out;
}

/** The optimal or greedy bot's move. */
function move(c: BotCtx): Utterance {
  const { bot, s, m, pm, lang, team } = c;
    const u = upgradeOf(m);
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

/** A player's turn: the rules of this type. */
function turn(c: TurnCtx, res: RuleResult): void {
  const { d, m, pm, info } = c;
  const u = applyUpgrade(d, m, pm, info);
  res.complete = u.done;
}

/** The random player: a bet before one is placed, then a right or wrong answer to the riddle. */
function random({ r, m, pm, team, d }: RandomMoveCtx): void {
  const rules = upgradeOf(m);
  const level = rules?.difficulties.length ? r.pick(rules.difficulties).level : 'easy';
  if (!pm.upgrade_bet?.placed) d.upgrade = { stage: 'bet', character_id: team.length ? r.pick(team).id : undefined, bet: 1 + r.int(6), level };
  else d.upgrade = { stage: 'answer', correct: r.next() < 0.6 };
}

/** The LLM brain is told the difficulties and bets, then, once the bet is placed, the riddle and its answers. */
function llmState({ m, pm, fr, L, phrases }: LlmStateCtx): string[] {
  const u = upgradeOf(m);
  if (!u) return [];
  const bet = pm.upgrade_bet;
  const lines = [fr
    ? `Difficultés : ${u.difficulties.map((d) => `${d.level} (rareté ${d.rarity})`).join(', ')}. Mise entre ${u.min_bet} et ${u.max_bet} interactions.`
    : `Difficulties: ${u.difficulties.map((d) => `${d.level} (rarity ${d.rarity})`).join(', ')}. Bet between ${u.min_bet} and ${u.max_bet} interactions.`];
  if (bet?.placed) {
    const d = u.difficulties.find((x) => x.level === bet.level);
    lines.push(fr
      ? `Mise placée. Énigme posée : "${L(d?.riddle)}" ; bonnes réponses : ${phrases(d?.answers).map((p) => `"${p}"`).join(', ')}. Jugez la réponse du joueur (upgrade.stage "answer").`
      : `Bet placed. Riddle asked: "${L(d?.riddle)}"; right answers: ${phrases(d?.answers).map((p) => `"${p}"`).join(', ')}. Judge the player's answer (upgrade.stage "answer").`);
  } else if (bet) {
    lines.push(`${fr ? 'Mise en cours' : 'Bet so far'}: character_id ${bet.character_id ?? '?'}, bet ${bet.bet ?? '?'}, level ${bet.level ?? '?'}.`);
  }
  return lines;
}

/** The difficulties, riddles and bets of an Upgrade moment. */
export const UpgradeRules = z.object({
  /** The rarity given for each difficulty the player may choose (e.g. easy -> Prismatic, hard -> Golden). */
  difficulties: z.array(z.object({ level: z.enum(['easy', 'medium', 'hard']), rarity: CardRarity, match: Phrases, riddle: Text, answers: Phrases }).strict()).min(1),
  min_bet: z.number().int().min(1).default(1),
  max_bet: z.number().int().min(1).default(5),
  /** Properties taken from the upgraded card; they come back as an item of source 'sacrificed_properties'. */
  sacrifice_properties: z.boolean().default(false),
  /** An item given on success (source 'upgrade'). */
  reward_item_id: UuidV4.optional(),
}).strict();
export type UpgradeRules = z.infer<typeof UpgradeRules>;

/** An Upgrade moment in a story file: the fields every moment has, and its own. */
export const UpgradeMoment = momentMember('Upgrade', { upgrade: UpgradeRules.optional() });
export type UpgradeMoment = z.infer<typeof UpgradeMoment>;

export const upgrade: MomentModule<typeof UpgradeMoment> = {
  schema: UpgradeMoment,
  type: 'Upgrade',
  description: 'The player bets interactions on a riddle to upgrade a team member\'s card.',
  traits: { ...PLAY, stages: ['bet', 'riddle'] },
  graph: {
    label: 'Upgrade',
    mermaid: ['[\\', '\\]'],
    dot: 'shape=trapezium',
  },
  fields: [
    { key: 'upgrade', label: 'Upgrade rules', kind: 'upgrade', required: true, help: 'Difficulties (level, rarity given, words choosing it, riddle and its answers per language), the smallest and largest bet, whether properties are sacrificed, an item given on success.' },
  ],
  stageOf: (pm) => (pm.upgrade_bet?.placed ? 'riddle' : 'bet'),
  check: (m, c) => {
    const u = upgradeOf(m);
    if (!u) c.r.error(`${c.at}.upgrade`, 'upgrade/no_rules', `Upgrade ${c.name} has no upgrade rules (upgrade.difficulties), so it can never complete.`);
    else if (u.min_bet > u.max_bet) c.r.error(`${c.at}.upgrade.min_bet`, 'upgrade/bad_bets', `Upgrade ${c.name} has min_bet ${u.min_bet} above max_bet ${u.max_bet}, so no bet is valid.`);
  },
  brain: { decide: decideUpgrade },
  speech: { sentences, actions },
  bot: { move, random },
  play: { turn },
  llmState,
  llmRules: {
    english: 'The player may upgrade a team member by betting interactions on a riddle. Before the bet is placed, set "upgrade" to {stage "bet", character_id (from the team), bet (a number), level (one of the difficulties)} with whatever the player said so far, and ask for what is missing. Once the bet is placed, judge their answer to the riddle: "upgrade" {stage "answer", correct: true or false}. Outcome "continue": the game completes the moment.',
    french: 'Le joueur peut améliorer un membre de l\'équipe en misant des interactions sur une énigme. Avant que la mise soit placée, mettez dans "upgrade" {stage "bet", character_id (de l\'équipe), bet (un nombre), level (l\'une des difficultés)} avec ce que le joueur a déjà dit, et demandez ce qui manque. Une fois la mise placée, jugez sa réponse à l\'énigme : "upgrade" {stage "answer", correct : true ou false}. Outcome "continue" : le jeu termine le moment.',
  },
};
