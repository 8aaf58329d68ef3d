// Missing and outdated translations. A per-language value ({ en, fr }: a text, or phrase lists) is missing its French
// when it has English and no French; it is outdated when its English changed in a later revision than its French last
// did (an author rewrote the English and nobody revised the French since). The revision history says when each side
// last changed: every revision's diff holds the field's value before and after, and each per-language value inside
// it is compared side by side. Values are named by slot: "moments/ID/opening/0", "items/ID/name".
import type { Json } from '../../../../engine/authoring/apply.js';

/** When each language of a slot last changed (a revision number), from the history. */
export type TranslationAges = ReadonlyMap<string, { en: number; fr: number }>;

/** One revision of the history as the authoring API gives it (only what this needs). */
export type RevisionDiff = { revision: number; diff: readonly { path: string; before?: unknown; after?: unknown }[] };

const isRecord = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

/** A value written once per language: a text ({ en: string, fr? }) or phrase lists ({ en: string[], fr? }). */
export function isPerLanguage(x: unknown): x is { en: unknown; fr?: unknown } {
  if (!isRecord(x) || !('en' in x)) return false;
  const keys = Object.keys(x);
  return keys.every((k) => k === 'en' || k === 'fr') && (typeof x.en === 'string' || Array.isArray(x.en));
}

/** Every per-language value inside `value`, by slot (`base` then the keys and indexes that lead to it). */
export function perLanguageSlots(value: unknown, base: string, out = new Map<string, { en: unknown; fr?: unknown }>()): Map<string, { en: unknown; fr?: unknown }> {
  if (isPerLanguage(value)) out.set(base, value);
  else if (Array.isArray(value)) value.forEach((v, i) => perLanguageSlots(v, `${base}/${i}`, out));
  else if (isRecord(value)) for (const [k, v] of Object.entries(value)) perLanguageSlots(v, `${base}/${k}`, out);
  return out;
}

const hasFrench = (v: { fr?: unknown } | undefined): boolean =>
  v !== undefined && v.fr !== undefined && (typeof v.fr === 'string' ? v.fr.trim() !== '' : Array.isArray(v.fr) && v.fr.length > 0);
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** When each slot's English and French last changed, from revisions in any order. */
export function translationAges(revisions: readonly RevisionDiff[]): TranslationAges {
  const ages = new Map<string, { en: number; fr: number }>();
  for (const r of [...revisions].sort((a, b) => a.revision - b.revision)) {
    for (const d of r.diff) {
      const before = perLanguageSlots(d.before, d.path);
      const after = perLanguageSlots(d.after, d.path);
      for (const slot of new Set([...before.keys(), ...after.keys()])) {
        const b = before.get(slot);
        const a = after.get(slot);
        const age = ages.get(slot) ?? { en: 0, fr: 0 };
        if (!same(b?.en, a?.en)) age.en = r.revision;
        if (!same(b?.fr, a?.fr)) age.fr = r.revision;
        ages.set(slot, age);
      }
    }
  }
  return ages;
}

/** What a slot's French needs: nothing, a translation, or a new look after its English changed. */
export function translationState(value: { en: unknown; fr?: unknown } | undefined, slot: string, ages?: TranslationAges): 'ok' | 'missing' | 'outdated' {
  if (!value) return 'ok';
  const en = value.en;
  if (typeof en === 'string' ? en.trim() === '' : !Array.isArray(en) || en.length === 0) return 'ok';
  if (!hasFrench(value)) return 'missing';
  const age = ages?.get(slot);
  return age && age.en > age.fr ? 'outdated' : 'ok';
}

const COLLECTIONS = ['moments', 'characters', 'items', 'places'] as const;

/** Every per-language value of the story (its catalogue and each moment, character, item and place), by slot. */
export function storySlots(doc: Json): Map<string, { en: unknown; fr?: unknown }> {
  const out = new Map<string, { en: unknown; fr?: unknown }>();
  if (isRecord(doc.catalogue)) for (const [k, v] of Object.entries(doc.catalogue)) perLanguageSlots(v, `catalogue/${k}`, out);
  for (const c of COLLECTIONS) {
    const list = doc[c];
    if (!Array.isArray(list)) continue;
    for (const e of list) {
      if (!isRecord(e)) continue;
      for (const [k, v] of Object.entries(e)) if (k !== 'id') perLanguageSlots(v, `${c}/${String(e.id)}/${k}`, out);
    }
  }
  return out;
}

/** The gaps of one moment, character, item or place (its fields but the id), slots named under `base`. */
export function entityGaps(entity: Json, base: string, ages?: TranslationAges): { missing: number; outdated: number } {
  let missing = 0;
  let outdated = 0;
  for (const [k, v] of Object.entries(entity)) {
    if (k === 'id') continue;
    for (const [slot, t] of perLanguageSlots(v, `${base}/${k}`)) {
      const s = translationState(t, slot, ages);
      if (s === 'missing') missing += 1;
      else if (s === 'outdated') outdated += 1;
    }
  }
  return { missing, outdated };
}

/** The gaps in words ("2 French texts missing · 1 older than its English"), or null when there is none. */
export function gapsText(g: { missing: number; outdated: number }): string | null {
  const parts: string[] = [];
  if (g.missing > 0) parts.push(`${g.missing} French ${g.missing === 1 ? 'text' : 'texts'} missing`);
  if (g.outdated > 0) parts.push(`${g.outdated} older than ${g.outdated === 1 ? 'its' : 'their'} English`);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** How many of the story's per-language values lack French, and how many have French older than their English. */
export function translationGaps(doc: Json, ages?: TranslationAges): { missing: number; outdated: number } {
  let missing = 0;
  let outdated = 0;
  for (const [slot, v] of storySlots(doc)) {
    const s = translationState(v, slot, ages);
    if (s === 'missing') missing += 1;
    else if (s === 'outdated') outdated += 1;
  }
  return { missing, outdated };
}
