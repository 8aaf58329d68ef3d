// What names a character, item or place, and the changes that delete or rename one with every reference following.
// An entity is named by its id (a UUID, unique in the story) wherever the format refers to it: a moment's place or
// speaker, an opponent, a reward's lists, the upgrade's item, the perfect-answer item, the story's rank rewards. So a
// deep search for the id finds every reference whatever the moment's type, and one rule removes them all: an id in a
// list goes; an entry of a list that names it (an opponent, a rank reward) goes; a field elsewhere is unset.
// Renaming also rewrites the old name where it stands as a whole word in texts and phrases (opening lines, replies,
// sentences players say, descriptions), English and French apart, when the author asks for it.
import type { Change, ChangePath } from '../../../../engine/authoring/change.js';
import type { Json } from '../../../../engine/authoring/apply.js';
import type { EntityCollection } from '../../../../engine/story/entity-fields.js';
import { isPerLanguage } from '../forms/translation-gaps.js';

const isRecord = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
const listOf = (doc: Json, c: string): Json[] => (Array.isArray(doc[c]) ? (doc[c] as unknown[]).filter(isRecord) : []);

/** Whether the id appears anywhere in `value`. */
function names(value: unknown, id: string): boolean {
  if (value === id) return true;
  if (Array.isArray(value)) return value.some((v) => names(v, id));
  if (isRecord(value)) return Object.values(value).some((v) => names(v, id));
  return false;
}

/** One place that names the entity: a moment (with its fields that do) or a field of the story itself. */
export type Use = { collection: 'moments' | 'story'; id: string | null; name: string; fields: string[] };

const nameOf = (e: Json): string => (typeof e.name === 'string' ? e.name : isRecord(e.name) && typeof e.name.en === 'string' ? e.name.en : String(e.id));

/** Every moment (and story field) that names the entity, in story order. */
export function usesOf(doc: Json, id: string): Use[] {
  const out: Use[] = [];
  for (const m of listOf(doc, 'moments')) {
    const fields = Object.keys(m).filter((k) => k !== 'id' && names(m[k], id));
    if (fields.length > 0) out.push({ collection: 'moments', id: String(m.id), name: nameOf(m), fields });
  }
  if (names(doc.rank_rewards, id)) out.push({ collection: 'story', id: null, name: 'Rank rewards', fields: ['rank_rewards'] });
  return out;
}

/** `value` without any reference to the id (the rule above). */
function prune(value: unknown, id: string): unknown {
  if (Array.isArray(value)) {
    return value.filter((v) => v !== id && !(isRecord(v) && Object.values(v).includes(id))).map((v) => prune(v, id));
  }
  if (isRecord(value)) {
    const out: Json = {};
    for (const [k, v] of Object.entries(value)) if (v !== id) out[k] = prune(v, id);
    return out;
  }
  return value;
}

/** The changes that delete the entity and every reference to it, to apply as one step. */
export function deleteChanges(doc: Json, collection: EntityCollection, id: string): Change[] {
  const out: Change[] = [];
  for (const use of usesOf(doc, id)) {
    if (use.id === null) {
      out.push({ op: 'set', path: ['rank_rewards'], value: prune(doc.rank_rewards, id) });
      continue;
    }
    const m = listOf(doc, 'moments').find((x) => x.id === use.id);
    if (!m) continue;
    for (const f of use.fields) {
      const path: ChangePath = ['moments', use.id, f];
      out.push(m[f] === id ? { op: 'set', path } : { op: 'set', path, value: prune(m[f], id) });
    }
  }
  out.push({ op: 'remove', collection, id });
  return out;
}

/** An entity's name per language (a character's one name serves both). */
export type Name = { en: string; fr?: string };

export function nameOfEntity(e: Json): Name {
  if (typeof e.name === 'string') return { en: e.name };
  if (isRecord(e.name) && typeof e.name.en === 'string') return { en: e.name.en, ...(typeof e.name.fr === 'string' ? { fr: e.name.fr } : {}) };
  return { en: '' };
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The name as a whole word: not inside a longer word ("Mira" is not in "Miranda"). */
const wordRe = (name: string): RegExp => new RegExp(`(?<![\\p{L}\\p{N}_])${escape(name)}(?![\\p{L}\\p{N}_])`, 'gu');

/** `value` with the old name replaced in every per-language text and phrase list (English and French apart). */
function renameIn(value: unknown, from: Name, to: Name): unknown {
  if (isPerLanguage(value)) {
    const side = (v: unknown, a: string, b: string): unknown => {
      if (a === '' || a === b) return v;
      const one = (s: unknown) => (typeof s === 'string' ? s.replace(wordRe(a), b) : s);
      return Array.isArray(v) ? v.map(one) : one(v);
    };
    return { ...value, en: side(value.en, from.en, to.en), ...(value.fr !== undefined ? { fr: side(value.fr, from.fr ?? from.en, to.fr ?? to.en) } : {}) };
  }
  if (Array.isArray(value)) return value.map((v) => renameIn(v, from, to));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renameIn(v, from, to)]));
  return value;
}

type Mention = { collection: EntityCollection | 'moments'; id: string; field: string; value: unknown; next: unknown };

/** Fields of every moment and entity whose texts say the old name, with what the rename makes of them. */
export function textMentions(doc: Json, collection: EntityCollection, id: string, from: Name, to: Name): Mention[] {
  const out: Mention[] = [];
  for (const c of ['moments', 'characters', 'items', 'places'] as const) {
    for (const e of listOf(doc, c)) {
      for (const [k, v] of Object.entries(e)) {
        if (k === 'id' || (c === collection && e.id === id && k === 'name')) continue;
        const next = renameIn(v, from, to);
        if (JSON.stringify(next) !== JSON.stringify(v)) out.push({ collection: c, id: String(e.id), field: k, value: v, next });
      }
    }
  }
  return out;
}

/** The changes that rename the entity, and (`inTexts`) rewrite its old name in every text that says it: one step. */
export function renameChanges(doc: Json, collection: EntityCollection, id: string, to: Name, inTexts: boolean): Change[] {
  const e = listOf(doc, collection).find((x) => x.id === id);
  if (!e) return [];
  const value = typeof e.name === 'string' ? to.en : { en: to.en, ...(to.fr ? { fr: to.fr } : {}) };
  const out: Change[] = [{ op: 'set', path: [collection, id, 'name'], value }];
  if (!inTexts) return out;
  for (const t of textMentions(doc, collection, id, nameOfEntity(e), to)) out.push({ op: 'set', path: [t.collection, t.id, t.field], value: t.next });
  return out;
}
