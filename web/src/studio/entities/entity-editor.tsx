// One character, item or place: its fields from engine/story/entity-fields.ts (the same widgets as a moment's form),
// a rename that every reference follows, and the moments that use it, each a link to its form beside the flow graph.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { Json } from '../../../../engine/authoring/apply.js';
import { ENTITY_FIELDS, type EntityCollection } from '../../../../engine/story/entity-fields.js';
import { newId } from '../../api/client.js';
import { useDraft } from '../draft/draft-context.js';
import { FieldRow } from '../forms/field-row.js';
import { entityPath, otherProblems, problemsAt } from '../forms/field-problems.js';
import { entityGaps, gapsText } from '../forms/translation-gaps.js';
import { useTranslationAges } from '../forms/use-translation-ages.js';
import { isRecord, type FormCtx } from '../forms/widget-props.js';
import { nameOfEntity, renameChanges, textMentions, usesOf } from './entity-refs.js';
import { ONE } from './entity-words.js';
import { fieldLabel } from './field-labels.js';
import '../forms/forms.css';
import './entities.css';

function RenameBox({ collection, entity }: { collection: EntityCollection; entity: Json }) {
  const d = useDraft();
  const now = nameOfEntity(entity);
  const perLanguage = typeof entity.name !== 'string';
  const [en, setEn] = useState(now.en);
  const [fr, setFr] = useState(now.fr ?? '');
  const [inTexts, setInTexts] = useState(true);
  const id = String(entity.id);
  const to = { en: en.trim(), ...(perLanguage && fr.trim() ? { fr: fr.trim() } : {}) };
  const max = collection === 'characters' ? 120 : 4000;
  const error = to.en === '' ? 'A name is required.' : to.en.length > max ? `At most ${max} characters.` : null;
  const changed = to.en !== now.en || (perLanguage && (to.fr ?? '') !== (now.fr ?? ''));
  const mentions = changed && !error ? textMentions(d.doc, collection, id, now, to) : [];
  const rename = () => {
    if (error || !changed) return;
    d.apply(renameChanges(d.doc, collection, id, to, inTexts), `Rename ${now.en} to ${to.en}`);
  };
  return (
    <form className="ent-rename" onSubmit={(e) => { e.preventDefault(); rename(); }} aria-label="Rename">
      <div className="ent-rename__fields">
        <label className="form-row__label" htmlFor={`rename-en-${id}`}>Name{perLanguage ? ' (English)' : ''}</label>
        <input id={`rename-en-${id}`} className="form-input" value={en} onChange={(e) => setEn(e.target.value)} aria-invalid={error ? true : undefined} />
        {perLanguage ? (
          <>
            <label className="form-row__label" htmlFor={`rename-fr-${id}`}>Name (French)</label>
            <input id={`rename-fr-${id}`} lang="fr" className="form-input" value={fr} onChange={(e) => setFr(e.target.value)} />
          </>
        ) : null}
      </div>
      {error ? <p className="form-error" role="alert">{error}</p> : null}
      {changed && !error ? (
        <label className="form-check">
          <input type="checkbox" checked={inTexts} onChange={(e) => setInTexts(e.target.checked)} />
          <span>Also write the new name in the {mentions.length} {mentions.length === 1 ? 'field whose text says' : 'fields whose texts say'} “{now.en}”</span>
        </label>
      ) : null}
      <button type="submit" className="form-add" disabled={!changed || error !== null}>Rename</button>
    </form>
  );
}

export function EntityEditor({ collection, id }: { collection: EntityCollection; id: string }) {
  const d = useDraft();
  const ages = useTranslationAges(d.storyId, d.revision);
  const entity = (Array.isArray(d.doc[collection]) ? (d.doc[collection] as unknown[]) : []).filter(isRecord).find((e) => e.id === id);
  if (!entity) return <p className="form-muted" data-testid="entity-missing">This {ONE[collection]} is not in the story (it may have been deleted).</p>;
  const fields = ENTITY_FIELDS[collection].filter((f) => f.key !== 'name');
  const ctx: FormCtx = { doc: d.doc, ages, newId, selfId: id };
  const at = entityPath(d.doc, collection, id);
  const uses = usesOf(d.doc, id);
  const rest = otherProblems(d.problems, at, fields.map((f) => f.key));
  const gaps = gapsText(entityGaps(entity, `${collection}/${id}`, ages));
  return (
    <div className="ent-page" data-testid="entity-editor">
      <header className="form-head">
        <p className="form-muted">{ONE[collection]}</p>
        <h1 className="form-title" data-testid="entity-name">{nameOfEntity(entity).en}</h1>
        {gaps ? <p className="form-gaps" data-testid="translation-gaps">{gaps}</p> : null}
      </header>
      <div className="ent-columns">
        <section className="form" aria-label="Fields">
          <RenameBox key={JSON.stringify(entity.name)} collection={collection} entity={entity} />
          {rest.length > 0 ? <ul className="form-problems">{rest.map((p, i) => <li key={i} className={`form-problem form-problem--${p.severity}`}>{p.message}</li>)}</ul> : null}
          {fields.map((f) => (
            <FieldRow key={f.key} field={f} value={entity[f.key]} slot={`${collection}/${id}/${f.key}`} ctx={ctx}
              problems={at === null ? [] : problemsAt(d.problems, `${at}.${f.key}`)} refusal={d.refusal(`${collection}/${id}/${f.key}`)}
              onChange={(v) => d.apply([v === undefined ? { op: 'set', path: [collection, id, f.key] } : { op: 'set', path: [collection, id, f.key], value: v }], `Edit ${f.label.toLowerCase()}`)} />
          ))}
        </section>
        <aside className="ent-uses" aria-label="Used in">
          <h2 className="ent-uses__title">Used in</h2>
          {uses.length === 0 ? <p className="form-muted">No moment names this {ONE[collection]}.</p> : (
            <ul className="ent-uses__list" data-testid="entity-uses">
              {uses.map((u) => (
                <li key={u.id ?? u.name}>
                  {u.id !== null
                    ? <Link to={`/admin/stories/${d.storyId}/flow/moment/${u.id}`}>{u.name}</Link>
                    : <span>{u.name}</span>}
                  <span className="form-muted"> · {u.fields.map(fieldLabel).join(', ')}</span>
                </li>
              ))}
            </ul>
          )}
        </aside>
      </div>
    </div>
  );
}
