// The words a player may say at the current moment, for speech recognisers (grammars, prompts).
import { LANG_CODE, type PlayLanguage } from '../../engine/schema/enums.js';
import { currentMoment, type GameState } from '../../engine/run/state.js';
import type { BlueprintMoment, Phrases, Story } from '../../engine/story/format.js';
import { traitsOf } from '../../engine/moments/registry.js';
import { rewardsOf, upgradeOf } from '../../engine/moments/fields.js';

export function momentVocabulary(story: Story, state: GameState, language: PlayLanguage): string[] {
  const code = LANG_CODE[language];
  const pick = (p: Phrases | undefined): string[] => (p ? (code === 'fr' ? (p.fr ?? p.en) : p.en) : []);
  const pm = currentMoment(state);
  const m = pm ? story.moments.find((x) => x.id === pm.blueprint_moment_id) : undefined;
  const words = new Set<string>();
  if (m) {
    for (const a of m.answers) for (const p of pick(a.match)) words.add(p);
    for (const t of m.transitions) {
      for (const p of pick(t.match)) words.add(p);
      if (t.label) words.add(code === 'fr' ? (t.label.fr ?? t.label.en) : t.label.en);
    }
    for (const d of upgradeOf(m)?.difficulties ?? []) for (const p of [...pick(d.match), ...pick(d.answers)]) words.add(p);
    for (const r of rewardsOf(m)) for (const dr of r.dynamic_rewards) for (const p of pick(dr.match)) words.add(p);
  }
  for (const c of state.characters) words.add(c.name);
  for (const i of state.items) words.add(i.name);
  for (const o of state.opponents) words.add(o.name);
  const v = story.battle_verbs;
  if (v && m && traitsOf(m.type).fights) for (const p of [...pick(v.attack), ...pick(v.defend), ...v.styles.flatMap((s) => pick(s.match))]) words.add(p);
  return [...words];
}

/** The sentences players are expected to say at a moment (its `say`), in the language played. */
export function sayOf(moment: BlueprintMoment, language: PlayLanguage): string[] {
  if (!moment.say) return [];
  return LANG_CODE[language] === 'fr' ? (moment.say.fr ?? []) : moment.say.en;
}

/** The story's decoys in the language played (French falls back to the English ones). */
export function storyDecoys(story: Story, language: PlayLanguage): string[] {
  if (!story.decoys) return [];
  return LANG_CODE[language] === 'fr' ? (story.decoys.fr ?? story.decoys.en) : story.decoys.en;
}

/** The sentences players are expected to say at the current moment. */
export function momentSentences(story: Story, state: GameState, language: PlayLanguage): string[] {
  const pm = currentMoment(state);
  const m = pm ? story.moments.find((x) => x.id === pm.blueprint_moment_id) : undefined;
  return m ? sayOf(m, language) : [];
}

/** What a recogniser listens with at the current moment (see TranscribeRequest). */
export function momentSpeech(story: Story, state: GameState, language: PlayLanguage): { sentences: string[]; vocabulary: string[]; decoys: string[] } {
  return { sentences: momentSentences(story, state, language), vocabulary: momentVocabulary(story, state, language), decoys: storyDecoys(story, language) };
}
