// A story's moments compiled into matchers once per story and language, so a turn is a few lookups.
import type { BlueprintMoment, Phrases, Story } from '../story/format.js';
import { compileMatcher, phrasesFor, type Candidate, type Matcher } from './text/match.js';
import type { Lang } from './text/lexicon.js';
import type { SynonymTable } from './text/synonyms.js';
import { rewardsOf, upgradeOf } from '../moments/fields.js';

export type CompiledMoment = {
  moment: BlueprintMoment;
  answers: Matcher;
  branches: Matcher;
  rewards: Matcher;
  difficulties: Matcher;
  riddles: Map<string, Matcher>;
};

export type CompiledStory = {
  lang: Lang;
  moments: Map<string, CompiledMoment>;
  /** Story characters by name and aliases: id = blueprint character id. */
  characters: Matcher;
  characterCandidates: Candidate[];
  characterIds: Set<string>;
  /** Story items by name (both languages) and aliases: id = blueprint item id. */
  items: Matcher;
  attack: Matcher | null;
  defend: Matcher | null;
  styles: Matcher | null;
  decoys: Matcher | null;
};

const cache = new WeakMap<Story, Map<Lang, CompiledStory>>();

/** A synonym table that knows none: words match as written, mistyped or misheard. */
const NO_SYNONYMS: Readonly<Record<Lang, SynonymTable>> = { en: { lang: 'en', canonical: () => undefined }, fr: { lang: 'fr', canonical: () => undefined } };

const phr = (p: Phrases | undefined, lang: Lang): string[] => (p ? [...phrasesFor(p, lang)] : []);

function namesOf(name: string, aliases: readonly string[]): string[] {
  return [name, ...aliases];
}

function compileMoment(story: Story, m: BlueprintMoment, lang: Lang): CompiledMoment {
  const items = new Map(story.items.map((i) => [i.id, i]));
  const chars = new Map(story.characters.map((c) => [c.id, c]));
  const rewardCandidates: Candidate[] = [];
  for (const r of rewardsOf(m)) {
    for (const id of r.item_ids) {
      const it = items.get(id);
      if (it) rewardCandidates.push({ id: `item:${id}`, phrases: [it.name.en, ...(it.name.fr ? [it.name.fr] : []), ...it.aliases] });
    }
    for (const id of r.character_ids) {
      const c = chars.get(id);
      if (c) rewardCandidates.push({ id: `character:${id}`, phrases: namesOf(c.name, c.aliases) });
    }
    for (const dr of r.dynamic_rewards) {
      rewardCandidates.push({ id: `dynamic_item:${dr.id}`, phrases: [...phr(dr.match, lang), dr.name.en, ...(dr.name.fr ? [dr.name.fr] : [])] });
    }
  }
  const riddles = new Map<string, Matcher>();
  for (const d of upgradeOf(m)?.difficulties ?? []) riddles.set(d.level, compileMatcher([{ id: 'right', phrases: phr(d.answers, lang) }], lang));
  return {
    moment: m,
    answers: compileMatcher(m.answers.map((a) => ({ id: a.id, phrases: phr(a.match, lang) })), lang),
    // A Crossroad branch is chosen by its match phrases, or by saying its label.
    branches: compileMatcher(m.transitions.filter((t) => t.match || t.label).map((t) => ({
      id: t.next_moment_id,
      phrases: [...phr(t.match, lang), ...(t.label ? [lang === 'fr' ? (t.label.fr ?? t.label.en) : t.label.en] : [])],
    })), lang),
    rewards: compileMatcher(rewardCandidates, lang),
    difficulties: compileMatcher((upgradeOf(m)?.difficulties ?? []).map((d) => ({ id: d.level, phrases: phr(d.match, lang) })), lang),
    riddles,
  };
}

export function compileStory(story: Story, lang: Lang): CompiledStory {
  let byLang = cache.get(story);
  if (!byLang) {
    byLang = new Map();
    cache.set(story, byLang);
  }
  let c = byLang.get(lang);
  if (!c) {
    const characterCandidates = story.characters.map((x) => ({ id: x.id, phrases: namesOf(x.name, x.aliases) }));
    const v = story.battle_verbs;
    c = {
      lang,
      moments: new Map(story.moments.map((m) => [m.id, compileMoment(story, m, lang)])),
      characters: compileMatcher(characterCandidates, lang),
      characterCandidates,
      characterIds: new Set(story.characters.map((x) => x.id)),
      items: compileMatcher(story.items.map((i) => ({ id: i.id, phrases: [i.name.en, ...(i.name.fr ? [i.name.fr] : []), ...i.aliases] })), lang),
      attack: v ? compileMatcher([{ id: 'attack', phrases: phr(v.attack, lang) }], lang) : null,
      defend: v ? compileMatcher([{ id: 'defend', phrases: phr(v.defend, lang) }], lang) : null,
      // A style's own words only, not their built-in synonyms: "smash" is an aggressive style word and an attack verb,
      // and through the attack synonyms every "hit" or "strike" by an aggressive fighter would be in style.
      styles: v && v.styles.length ? compileMatcher(v.styles.map((s, i) => ({ id: `${s.tag}#${i}`, phrases: phr(s.match, lang) })), lang, { synonyms: NO_SYNONYMS[lang] }) : null,
      // One candidate per decoy, so that each is found where it is heard (scripted.ts decoyAt).
      decoys: story.decoys ? compileMatcher(phr(story.decoys, lang).map((p, i) => ({ id: `decoy#${i}`, phrases: [p] })), lang) : null,
    };
    byLang.set(lang, c);
  }
  return c;
}
