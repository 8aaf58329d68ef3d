// Help when the game did not catch what the player said: the first miss is answered "Sorry, I didn't catch that."
// with a hint of what can be said here (two example sentences); from the second miss on, the choices are also offered
// as a list the player can say or tap. Examples come from what is speakable at this stage (speakable.ts), the story's
// own sentences first; a choice that would end the run is never an example in the hint (it stays in the list).
import { MOMENTS } from '../moments/registry.js';
import type { PlayLanguage } from '../schema/enums.js';
import type { GameState } from '../run/state.js';
import type { SpokenChoice } from '../schema/game-output.js';
import type { Story } from '../story/format.js';
import { decideTyped, decisionKey, speakable, type SpeechPattern } from './speakable.js';

export const NOT_CAUGHT_TEXT = { english: "Sorry, I didn't catch that.", french: "Pardon, je n'ai pas compris." } as const;
const HINT = {
  english: (a: string, b: string | undefined): string => (b ? `You can say, for example: "${a}" or "${b}".` : `You can say, for example: "${a}".`),
  french: (a: string, b: string | undefined): string => (b ? `Vous pouvez dire par exemple : « ${a} » ou « ${b} ».` : `Vous pouvez dire par exemple : « ${a} ».`),
} as const;
const LIST = { english: 'Or tap one of the choices.', french: 'Ou touchez l\'un des choix.' } as const;

/** At most this many choices are offered. */
export const MAX_CHOICES = 8;

export type MissHelp = {
  /** What is spoken and shown as the dialogue. */
  dialogue: string;
  hint: string;
  choices: SpokenChoice[];
};

/** A sentence as a player would read it: the story's own words as written, generated ones with a capital letter. */
function display(p: SpeechPattern): string {
  const t = p.example.trim();
  return p.authored ? t : t.charAt(0).toUpperCase() + t.slice(1);
}

/** One example sentence per distinct decision, the story's own first, at most MAX_CHOICES. */
export function spokenChoices(story: Story, state: GameState, language: PlayLanguage): (SpokenChoice & { ends_run: boolean })[] {
  const seen = new Set<string>();
  const out: (SpokenChoice & { ends_run: boolean })[] = [];
  const patterns = speakable(story, state, language);
  const ordered = [...patterns.filter((p) => p.authored), ...patterns.filter((p) => !p.authored)];
  for (const p of ordered) {
    const d = decideTyped(story, state, p.example);
    const key = decisionKey(d);
    if (seen.has(key)) continue;
    seen.add(key);
    const next = d.next_moment_id ? story.moments.find((m) => m.id === d.next_moment_id) : undefined;
    out.push({ text: display(p), kind: p.kind, ends_run: d.outcome === 'end_of_game' || (next ? MOMENTS[next.type].traits.ends === 'lost' : false) });
    if (out.length >= MAX_CHOICES) break;
  }
  return out;
}

/** The reply to the `missNumber`-th miss in a row at the current moment. */
export function missHelp(story: Story, state: GameState, language: PlayLanguage, missNumber: number): MissHelp {
  const choices = spokenChoices(story, state, language);
  const examples = [...choices.filter((c) => !c.ends_run), ...choices.filter((c) => c.ends_run)].slice(0, 2);
  // With nothing to suggest (a moment where the player does not speak), the apology alone.
  const hint = examples[0] ? HINT[language](examples[0].text, examples[1]?.text) : '';
  const list = missNumber >= 2 && choices.length > 0;
  const dialogue = [NOT_CAUGHT_TEXT[language], hint, list ? LIST[language] : ''].filter(Boolean).join(' ');
  return { dialogue, hint, choices: list ? choices.map(({ text, kind }) => ({ text, kind })) : [] };
}
