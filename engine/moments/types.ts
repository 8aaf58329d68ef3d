// What a moment type is: one object per type (engine/moments/<type>.ts) holding its traits, its rules in play, how
// the scripted brain and the bots act in it, what a player can say there, how a story is checked and drawn, what the
// LLM brain is told, and the editor fields a studio form is built from. Every part of the product reads moment types
// through the registry (registry.ts), never by naming a type.
import type { z } from 'zod';
import type { MomentType, PlayLanguage } from '../schema/enums.js';
import type { BrainCtx } from '../brain/scripted-ctx.js';
import type { DecisionInput } from '../brain/decision.js';
import type { PlayerMoment, PlayerOpponent } from '../schema/player.js';
import type { GameState } from '../run/state.js';
import type { Text } from '../story/text.js';
import type { BlueprintMoment, Phrases } from '../story/format.js';
import type { BotHooks } from './bot-hooks.js';
import type { PlayHooks } from './play-hooks.js';
import type { SpeechHooks } from './speech-hooks.js';
import type { Report } from '../story/validate-refs.js';

/** The stages a moment goes through: '' for one-stage moments; a battle attacks and defends, an upgrade bets then
 *  answers a riddle. Speech grammars, coverage and caches are kept per stage. */
export type Stage = '' | 'attack' | 'defend' | 'bet' | 'riddle';

export type MomentTraits = {
  /** Plays out entirely from its opening: the opening line completes it (or ends the run). */
  selfCompleting: boolean;
  /** The run ends here: its transitions are never followed. */
  final: boolean;
  /** How the run ends when it gets here: won (an Epilogue), lost (a Dead End), or it goes on. */
  ends: 'won' | 'lost' | null;
  /** Completes only through play (a reward taken, a fight won, a team chosen...), never on its opening. */
  completesByPlay: boolean;
  /** A decision here depends on the run's own cards (team, items, opponents, a bet), not only on the words said:
   *  its authored answers only colour the reply, and a brain cache keys on that state. */
  runSpecific: boolean;
  /** Its stages, the first one first. */
  stages: readonly Stage[];
  /** The player chooses the team here (max_number_of_characters of them): the moment takes assemble.select, is
   *  skipped when the run has too few characters, and its view and LLM context carry the team size. */
  picksTeam: boolean;
  /** The team fights the moment's opponents with the story's battle verbs: the story needs battle_verbs, the verbs
   *  are words a player may say here, and the run's story graph shows the opponents on its node. */
  fights: boolean;
  /** The player picks a transition by saying its words (its match), not only through answers. */
  branchesByWords: boolean;
};

/** How the moment is drawn in story graphs: Mermaid and Graphviz shapes, the admin graph's fill. */
export type MomentGraph = {
  /** The label on a node of the player's story graph and in graph texts. */
  label: string;
  mermaid: readonly [open: string, close: string];
  dot: string;
  /** A Mermaid class (name and style) for moments that end a run. */
  mermaidClass?: { name: string; style: string };
  /** The admin flow graph's box colour (a default colour when absent). */
  fill?: string;
};

/** One field of a moment type in a story file, described for an editor form. */
export type EditorField = {
  /** The field's name in the story file. */
  key: string;
  label: string;
  kind: 'text' | 'texts' | 'phrases' | 'integer' | 'number' | 'boolean' | 'moment' | 'character' | 'item' | 'place'
    | 'transitions' | 'answers' | 'rewards' | 'opponents' | 'upgrade' | 'emotion' | 'intensity' | 'goal_type' | 'media' | 'sound' | 'date' | 'strings';
  required?: boolean;
  min?: number;
  max?: number;
  help: string;
  /** Written once per language (en, fr). */
  perLanguage?: boolean;
};

/** What a moment type's check of one moment gets: where it is, its name in messages, and the report. */
export type CheckContext = { at: string; name: string; r: Report; canCompleteByAnswer: boolean };

/** What the LLM brain's state lines get: the moment, its player moment, the state, the moment's opponents, and the
 *  play language's helpers (fr: French is played; L: a text in it; phrases: a phrase list in it). */
export type LlmStateCtx = {
  m: BlueprintMoment;
  pm: PlayerMoment;
  state: GameState;
  opponents: PlayerOpponent[];
  fr: boolean;
  L: (t: Text | undefined) => string;
  phrases: (p: Phrases | undefined) => string[];
};

/** A moment type's member of the story format's moment union (built with momentMember, engine/story/moment-parts.ts). */
export type MomentSchema = z.ZodObject<z.ZodRawShape & { type: z.ZodLiteral<MomentType> }, z.core.$strict>;

export type MomentModule<S extends MomentSchema = MomentSchema> = {
  type: MomentType;
  /** Its schema: the fields every moment has, `type` fixed to this type, and the type's own fields. */
  schema: S;
  /** What the type is for, in one sentence (the studio's type picker). */
  description: string;
  traits: MomentTraits;
  graph: MomentGraph;
  /** The fields this type uses beyond those every moment has (COMMON_FIELDS). */
  fields: readonly EditorField[];
  /** The stage of a started moment of this type. */
  stageOf?: (pm: StageInput) => Stage;
  /** Checks of one moment of this type (story validation). */
  check?: (m: BlueprintMoment, c: CheckContext) => void;
  /** The LLM brain's instructions for this type, per play language. */
  llmRules: Record<PlayLanguage, string>;
  /** Lines on the moment's state told to the LLM brain (its `state` variable): none when absent. */
  llmState?: (c: LlmStateCtx) => string[];
  /** The scripted brain here: what the player's words achieve (talkDecision, an authored answer, when absent). */
  brain?: { decide: (c: BrainCtx) => DecisionInput };
  speech?: SpeechHooks;
  bot?: BotHooks;
  play?: PlayHooks;
};

/** What a stage depends on in a player moment. */
export type StageInput = Pick<PlayerMoment, 'battle_phase' | 'pending_strike' | 'upgrade_bet'>;
