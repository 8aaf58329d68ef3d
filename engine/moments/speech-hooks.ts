// What a moment type's speech hooks get: the state at the current stage, with the helpers every type uses to name
// the team, the opponents and the items (speakable.ts builds it for `sentences`, coverage.ts for `actions`).
import type { Decision } from '../brain/decision.js';
import type { SpeechPattern, TEMPLATES } from '../brain/speech-parts.js';
import type { PlayLanguage } from '../schema/enums.js';
import type { PlayerCharacter, PlayerMoment } from '../schema/player.js';
import type { GameState } from '../run/state.js';
import type { BattleVerbs, BlueprintMoment, Story } from '../story/format.js';
import type { Stage } from './types.js';

export type SpeechCtx = {
  story: Story;
  state: GameState;
  language: PlayLanguage;
  lang: 'en' | 'fr';
  /** Template words around names ("give the ... to ..."), in the language played. */
  t: (typeof TEMPLATES)['en' | 'fr'];
  m: BlueprintMoment;
  stage: Stage;
  /** The team still standing. */
  team: PlayerCharacter[];
  /** The names a player calls a character by. */
  charNames: (id: string | null, name: string) => string[];
  v: BattleVerbs | undefined;
  /** Every style word of the story's battle verbs, in the language played. */
  styleWords: string[];
};

/** A decision the engine accepts now, and how to tell a decision makes it. */
export type Action = { label: string; is(d: Decision): boolean };

export type ActionCtx = {
  story: Story;
  state: GameState;
  m: BlueprintMoment;
  stage: Stage;
  pm: PlayerMoment | null;
  team: PlayerCharacter[];
  /** Whether a character has a style the story's battle verbs name. */
  stylish: (blueprintId: string | null) => boolean;
  momentName: (id: string) => string;
};

export type SpeechHooks = {
  /** Sentence patterns for this type's decisions, after the story's `say` sentences, answers and branches. */
  sentences?: (c: SpeechCtx) => SpeechPattern[];
  /** Decisions of this type the engine accepts now, after the authored answers (when the type takes them). */
  actions?: (c: ActionCtx) => Action[];
};
