// /admin/stories/:storyId/characters, /items, /places: the story's characters, items or places, searched by name or
// other name; a new one added; one deleted after showing what uses it, its references removed in the same step.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { Json } from '../../../../engine/authoring/apply.js';
import { type EntityCollection, newEntity } from '../../../../engine/story/entity-fields.js';
import { newId } from '../../api/client.js';
import { useDraft } from '../draft/draft-context.js';
import { deleteChanges, nameOfEntity, usesOf } from './entity-refs.js';
import { MANY, ONE } from './entity-words.js';
import { fieldLabel } from './field-labels.js';
import '../forms/forms.css';
import './entities.css';

const isRecord = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

/** What the list says of an entity beside its name. */
function summary(collection: EntityCollection, e: Json): string {
  const v = (k: string, dflt: string): string => (typeof e[k] === 'string' || typeof e[k] === 'number' ? String(e[k]) : dflt);
  if (collection === 'characters') return `Attack ${v('base_attack', '0')} · Health ${v('base_health', '0')} · ${v('card_type', 'Normal')}${e.is_enrolled_by_default === true ? ' · in the team from the start' : ''}`;
  if (collection === 'items') return `${v('rarity', 'common')} · attack ${v('attack_bonus', '0')} · defence ${v('defense_bonus', '0')}${e.is_acquired_by_default === true ? ' · owned from the start' : ''}`;
  return `${Array.isArray(e.media) ? e.media.length : 0} backgrounds`;
}

function matches(e: Json, q: string): boolean {
  if (q === '') return true;
  const n = nameOfEntity(e);
  const words = [n.en, n.fr ?? '', ...(Array.isArray(e.aliases) ? e.aliases.map(String) : [])];
  return words.some((w) => w.toLowerCase().includes(q));
}

function DeleteConfirm({ collection, entity, onDone }: { collection: EntityCollection; entity: Json; onDone: () => void }) {
  const d = useDraft();
  const id = String(entity.id);
  const uses = usesOf(d.doc, id);
  const name = nameOfEntity(entity).en;
  return (
    <div className="ent-confirm" role="alertdialog" aria-label={`Delete ${name}`}>
      <p>{uses.length === 0 ? `Nothing names ${name}.` : `${name} is used in ${uses.length} ${uses.length === 1 ? 'place' : 'places'}; deleting removes ${uses.length === 1 ? 'that reference' : 'those references'} too:`}</p>
      {uses.length > 0 ? (
        <ul className="ent-confirm__uses">{uses.map((u) => <li key={u.id ?? u.name}>{u.name} <span className="form-muted">({u.fields.map(fieldLabel).join(', ')})</span></li>)}</ul>
      ) : null}
      <div className="ent-confirm__actions">
        <button type="button" className="form-mini form-mini--danger" onClick={() => { d.apply(deleteChanges(d.doc, collection, id), `Delete ${name}`); onDone(); }}>
          Delete {name}{uses.length > 0 ? ` and ${uses.length} ${uses.length === 1 ? 'reference' : 'references'}` : ''}
        </button>
        <button type="button" className="form-mini" onClick={onDone}>Cancel</button>
      </div>
    </div>
  );
}

export function EntityListPage({ collection }: { collection: EntityCollection }) {
  const d = useDraft();
  const [query, setQuery] = useState('');
  const [name, setName] = useState('');
  const [deleting, setDeleting] = useState<string | null>(null);
  const list = (Array.isArray(d.doc[collection]) ? (d.doc[collection] as unknown[]) : []).filter(isRecord);
  const q = query.trim().toLowerCase();
  const shown = list.filter((e) => matches(e, q));
  const add = () => {
    const n = name.trim();
    if (n === '') return;
    d.apply([{ op: 'add', collection, value: newEntity(collection, newId(), n) }], `Add ${ONE[collection]} ${n}`);
    setName('');
  };
  return (
    <section className="ent-list-page" data-testid="entity-list">
      <header className="ent-list-head">
        <h2 className="ent-list-title">{MANY[collection]} <span className="form-muted">({list.length})</span></h2>
        <input type="search" className="form-input ent-search" placeholder={`Search ${MANY[collection].toLowerCase()}`} aria-label={`Search ${MANY[collection].toLowerCase()}`}
          value={query} onChange={(e) => setQuery(e.target.value)} />
      </header>
      <form className="ent-add" onSubmit={(e) => { e.preventDefault(); add(); }}>
        <label className="visually-hidden" htmlFor={`new-${collection}`}>Name of the new {ONE[collection]}</label>
        <input id={`new-${collection}`} className="form-input" placeholder={`Name of a new ${ONE[collection]}`} maxLength={120} value={name} onChange={(e) => setName(e.target.value)} />
        <button type="submit" className="form-add" disabled={name.trim() === ''}>Add {ONE[collection]}</button>
      </form>
      {shown.length === 0 ? <p className="form-muted">{list.length === 0 ? `No ${MANY[collection].toLowerCase()} yet.` : `No ${ONE[collection]} matches “${query}”.`}</p> : null}
      <ul className="ent-list">
        {shown.map((e) => {
          const id = String(e.id);
          const n = nameOfEntity(e);
          const used = usesOf(d.doc, id).length;
          return (
            <li key={id} className="ent-row" data-testid="entity-row">
              <div className="ent-row__main">
                <Link to={`/admin/${collection}/${id}`} className="ent-row__name">{n.en}</Link>
                {n.fr && n.fr !== n.en ? <span className="form-muted" lang="fr"> · {n.fr}</span> : null}
                <p className="form-muted">{summary(collection, e)} · used in {used} {used === 1 ? 'moment' : 'moments'}</p>
              </div>
              <button type="button" className="form-mini form-mini--danger" onClick={() => setDeleting(deleting === id ? null : id)} aria-expanded={deleting === id}>Delete</button>
              {deleting === id ? <DeleteConfirm collection={collection} entity={e} onDone={() => setDeleting(null)} /> : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
