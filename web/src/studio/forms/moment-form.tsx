// A moment's form beside the flow graph: every field of its type, generated from the type's module (COMMON_FIELDS and
// module.fields, engine/moments/), one widget per field kind. Each edit is one `set` change through the draft layer
// (useDraft().apply), which applies it at once, sends it, and keeps it undoable; the validator's problems and the
// server's refusals show on the field they name.
import { useMemo, useState } from 'react';
import type { Json } from '../../../../engine/authoring/apply.js';
import { COMMON_FIELDS } from '../../../../engine/moments/common.js';
import { MOMENTS } from '../../../../engine/moments/registry.js';
import type { MomentType } from '../../../../engine/schema/enums.js';
import { newId } from '../../api/client.js';
import { useDraft } from '../draft/draft-context.js';
import { FieldRow } from './field-row.js';
import { entityPath, otherProblems, problemsAt } from './field-problems.js';
import type { FormField } from './form-field.js';
import { typeChanges, typeOptions } from './type-change.js';
import { entityGaps, gapsText } from './translation-gaps.js';
import { useTranslationAges } from './use-translation-ages.js';
import { isRecord, type FormCtx } from './widget-props.js';
import './forms.css';

/** Fields not edited in the form: the id never changes, the type has its own picker. */
const NOT_ON_FORM = new Set(['id', 'type']);

function TypePicker({ moment }: { moment: Json }) {
  const d = useDraft();
  const options = useMemo(() => typeOptions(moment), [moment]);
  const [choice, setChoice] = useState('');
  const picked = options.find((o) => o.type === choice) ?? null;
  const id = String(moment.id);
  const apply = () => {
    if (!picked || picked.refused) return;
    d.apply(typeChanges(id, picked), `Change the type to ${picked.type}`);
    setChoice('');
  };
  return (
    <div className="form-type">
      <label className="form-row__label" htmlFor={`type-${id}`}>Type</label>
      <div className="form-type__line">
        <span className="form-type__now" data-testid="moment-type">{String(moment.type)}</span>
        <select id={`type-${id}`} className="form-input form-select" value={choice} onChange={(e) => setChoice(e.target.value)} aria-label="Change the type to">
          <option value="">Change to…</option>
          {options.map((o) => (
            <option key={o.type} value={o.type} disabled={o.refused !== null}>
              {o.type}{o.refused ? ` (needs: ${o.refused})` : o.drops.length > 0 ? ` (removes ${o.drops.join(', ')})` : ''}
            </option>
          ))}
        </select>
      </div>
      {picked ? (
        <div className="form-type__confirm" role="group" aria-label="Confirm the type change">
          <p>{picked.drops.length > 0
            ? `A ${picked.type} has no ${picked.drops.join(', ')}: ${picked.drops.length === 1 ? 'it goes' : 'they go'} with the change (undo brings ${picked.drops.length === 1 ? 'it' : 'them'} back).`
            : `The moment becomes a ${picked.type}; every field stays.`}</p>
          <button type="button" className="form-add" onClick={apply}>Change to {picked.type}</button>
          <button type="button" className="form-mini" onClick={() => setChoice('')}>Cancel</button>
        </div>
      ) : null}
    </div>
  );
}

export function MomentForm({ momentId }: { momentId: string }) {
  const d = useDraft();
  const ages = useTranslationAges(d.storyId, d.revision);
  const moments = Array.isArray(d.doc.moments) ? d.doc.moments.filter(isRecord) : [];
  const moment = moments.find((m) => m.id === momentId);
  if (!moment) return <section className="form" data-testid="moment-form"><p className="form-muted">This moment is not in the story (it may have been deleted).</p></section>;
  const module = MOMENTS[moment.type as MomentType] as (typeof MOMENTS)[MomentType] | undefined;
  const fields: readonly FormField[] = [...COMMON_FIELDS, ...(module?.fields ?? [])].filter((f) => !NOT_ON_FORM.has(f.key));
  const ctx: FormCtx = { doc: d.doc, ages, newId, selfId: momentId };
  const at = entityPath(d.doc, 'moments', momentId);
  const name = isRecord(moment.name) && typeof moment.name.en === 'string' ? moment.name.en : momentId;
  const rest = otherProblems(d.problems, at, fields.map((f) => f.key));
  const gaps = gapsText(entityGaps(moment, `moments/${momentId}`, ages));
  return (
    <section className="form" data-testid="moment-form" aria-label={`Moment ${name}`}>
      <header className="form-head">
        <h2 className="form-title">{name}</h2>
        <p className="form-muted">{module?.description ?? `Unknown type ${String(moment.type)}.`}</p>
        {gaps ? <p className="form-gaps" data-testid="translation-gaps">{gaps}</p> : null}
      </header>
      <TypePicker moment={moment} />
      {rest.length > 0 ? <ul className="form-problems">{rest.map((p, i) => <li key={i} className={`form-problem form-problem--${p.severity}`}>{p.message}</li>)}</ul> : null}
      {fields.map((f) => (
        <FieldRow key={`${String(moment.type)}:${f.key}`} field={f} value={moment[f.key]} slot={`moments/${momentId}/${f.key}`} ctx={ctx}
          problems={at === null ? [] : problemsAt(d.problems, `${at}.${f.key}`)} refusal={d.refusal(`moments/${momentId}/${f.key}`)}
          onChange={(v) => d.apply([v === undefined ? { op: 'set', path: ['moments', momentId, f.key] } : { op: 'set', path: ['moments', momentId, f.key], value: v }], `Edit ${f.label.toLowerCase()}`)} />
      ))}
    </section>
  );
}
