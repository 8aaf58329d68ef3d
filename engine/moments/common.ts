// What every moment type shares: the fields every moment has (described for an editor form), the traits most types
// have, and the default stage.
import type { EditorField, MomentTraits, Stage } from './types.js';

/** Fields of every moment, whatever its type. */
export const COMMON_FIELDS: readonly EditorField[] = [
  { key: 'id', label: 'Id', kind: 'text', required: true, help: 'A random version-4 UUID, unique within the story.' },
  { key: 'name', label: 'Name', kind: 'text', required: true, perLanguage: true, help: 'The moment\'s name, shown on the start screen and in graphs.' },
  { key: 'date', label: 'Date', kind: 'date', required: true, help: 'The in-story date shown on the start screen (ISO date or date-time).' },
  { key: 'type', label: 'Type', kind: 'text', required: true, help: 'What happens in the moment: one of the moment types.' },
  { key: 'place_id', label: 'Place', kind: 'place', help: 'Where the moment happens (its background).' },
  { key: 'character_id', label: 'Speaker', kind: 'character', help: 'The character who speaks in this moment.' },
  { key: 'goal_type', label: 'Goal type', kind: 'goal_type', help: 'The kind of goal the player has here.' },
  { key: 'goal', label: 'Goal', kind: 'text', perLanguage: true, help: 'What the player must achieve, told to the LLM brain.' },
  { key: 'opening', label: 'Opening lines', kind: 'texts', required: true, min: 1, perLanguage: true, help: 'Lines the character opens the moment with; one is chosen, never the same twice in a row.' },
  { key: 'transitions', label: 'Transitions', kind: 'transitions', help: 'Where the story goes when the moment completes; the first is taken unless a branch or answer picks another.' },
  { key: 'answers', label: 'Answers', kind: 'answers', help: 'What the player may say and what happens when they do.' },
  { key: 'say', label: 'Sentences players say', kind: 'phrases', perLanguage: true, help: 'Whole sentences players are expected to say here; the offline recogniser listens for exactly these.' },
  { key: 'fallback', label: 'Fallback replies', kind: 'texts', perLanguage: true, help: 'Replies when nothing the player said was recognised.' },
  { key: 'hint', label: 'Hint', kind: 'text', perLanguage: true, help: 'A hint shown to a player who is stuck.' },
  { key: 'skip_to_moment_id', label: 'Skip to', kind: 'moment', help: 'Where a skipped moment leads (else its first transition).' },
  { key: 'skip_after_run_number', label: 'Skip after run', kind: 'integer', min: -1, help: 'Skipped from the run after this one on (-1: never).' },
  { key: 'show_after_run_number', label: 'Show from run', kind: 'integer', min: -1, help: 'Shown only from this run on (-1: always).' },
  { key: 'skip_after_completion_count', label: 'Skip after completions', kind: 'integer', min: 0, help: 'Skipped once completed this many times.' },
  { key: 'display_randomly_probability', label: 'Shown with probability', kind: 'number', min: 0, max: 100, help: 'Percent chance the moment is shown when reached.' },
  { key: 'score_threshold_for_award', label: 'Score for the award', kind: 'integer', min: 0, max: 100, help: 'An answer scoring at least this gives the perfect-answer item.' },
  { key: 'perfect_answer_item_id', label: 'Perfect-answer item', kind: 'item', help: 'The item given when the score reaches the threshold.' },
  { key: 'speech_patterns', label: 'Speech patterns', kind: 'strings', help: 'How the speaker talks, told to the LLM brain.' },
  { key: 'default_emotion', label: 'Emotion', kind: 'emotion', help: 'The speaker\'s emotion unless an answer says otherwise.' },
  { key: 'default_emotion_intensity', label: 'Intensity', kind: 'intensity', min: 1, max: 5, help: 'How strongly the emotion shows.' },
  { key: 'do_not_display_character', label: 'Hide the speaker', kind: 'boolean', help: 'Do not show the speaker\'s picture.' },
  { key: 'sound', label: 'Sound', kind: 'sound', help: 'A sound played during the moment, with its volume.' },
  { key: 'media', label: 'Media', kind: 'media', help: 'Images or videos shown during the moment.' },
];

/** Fields of every moment the studio sets itself and no form shows: where the flow graph draws it (set by dragging). */
export const LAYOUT_FIELDS: readonly string[] = ['position'];

/** Traits of a moment that is talked through (answers complete it). */
export const TALK: MomentTraits = { selfCompleting: false, final: false, ends: null, completesByPlay: false, runSpecific: false, stages: [''], picksTeam: false, fights: false, branchesByWords: false };

/** Traits of a moment that completes through play on the run's own cards. */
export const PLAY: MomentTraits = { selfCompleting: false, final: false, ends: null, completesByPlay: true, runSpecific: true, stages: [''], picksTeam: false, fights: false, branchesByWords: false };

export const ONE_STAGE = (): Stage => '';
