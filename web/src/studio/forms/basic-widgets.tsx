// The widgets of single values: plain text, numbers, a yes/no, a date, lines of strings, a pick among fixed options
// (emotion, intensity, goal type, rarity...) or among the story's moments, characters, items and places.
import { useSyncedText, joinLines, linesOf } from './use-synced-text.js';
import { EMOTIONS, GOAL_TYPES, INTENSITIES } from './form-options.js';
import { isRecord, type FormCtx, type WidgetProps } from './widget-props.js';

/** A plain text (an id, a character's name, an address). */
export function PlainText({ field, value, onChange, id }: WidgetProps) {
  const s = useSyncedText(typeof value === 'string' ? value : '');
  const errorId = s.error ? `${id}-error` : undefined;
  const set = (t: string) => {
    if (field.maxLength !== undefined && t.length > field.maxLength) return s.set(t, `At most ${field.maxLength} characters (${t.length}).`);
    if (t.trim() === '') {
      if (field.required) return s.set(t, 'Required.');
      s.set(t, null);
      return onChange(undefined);
    }
    s.set(t, null);
    onChange(t);
  };
  return (
    <div className="form-single">
      <input id={id} type="text" className="form-input" value={s.text} aria-invalid={s.error ? true : undefined} aria-describedby={errorId} onChange={(e) => set(e.target.value)} />
      {field.maxLength !== undefined ? <span className="form-count">{s.text.length} / {field.maxLength}</span> : null}
      {s.error ? <p id={errorId} className="form-error" role="alert">{s.error}</p> : null}
    </div>
  );
}

/** A date or date-time, as written in the story file (ISO). */
export function DateText(p: WidgetProps) {
  const s = useSyncedText(typeof p.value === 'string' ? p.value : '');
  const errorId = s.error ? `${p.id}-error` : undefined;
  const set = (t: string) => {
    if (t.trim() === '') return s.set(t, 'Required: an ISO date such as 2024-05-01.');
    if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(t.trim())) return s.set(t, 'An ISO date (2024-05-01) or date-time (2024-05-01T09:30).');
    s.set(t, null);
    p.onChange(t.trim());
  };
  return (
    <div className="form-single">
      <input id={p.id} type="text" className="form-input form-input--short" value={s.text} placeholder="2024-05-01" aria-invalid={s.error ? true : undefined} aria-describedby={errorId} onChange={(e) => set(e.target.value)} />
      {s.error ? <p id={errorId} className="form-error" role="alert">{s.error}</p> : null}
    </div>
  );
}

/** An integer or a number, within the field's min and max; empty removes an optional field. */
export function NumberInput({ field, value, onChange, id }: WidgetProps) {
  const integer = field.kind !== 'number';
  const s = useSyncedText(typeof value === 'number' ? String(value) : '', (t) => (t.trim() === '' ? '' : String(Number(t))));
  const errorId = s.error ? `${id}-error` : undefined;
  const range = field.min !== undefined && field.max !== undefined ? `from ${field.min} to ${field.max}` : field.min !== undefined ? `at least ${field.min}` : field.max !== undefined ? `at most ${field.max}` : '';
  const set = (t: string) => {
    if (t.trim() === '') {
      if (field.required) return s.set(t, 'Required.');
      s.set(t, null);
      return onChange(undefined);
    }
    const n = Number(t);
    if (!Number.isFinite(n) || (integer && !Number.isInteger(n))) return s.set(t, integer ? 'A whole number.' : 'A number.');
    if ((field.min !== undefined && n < field.min) || (field.max !== undefined && n > field.max)) return s.set(t, `A number ${range}.`);
    s.set(t, null);
    onChange(n);
  };
  return (
    <div className="form-single">
      <input id={id} type="number" inputMode={integer ? 'numeric' : 'decimal'} step={integer ? 1 : 'any'} min={field.min} max={field.max} className="form-input form-input--short"
        value={s.text} aria-invalid={s.error ? true : undefined} aria-describedby={errorId} onChange={(e) => set(e.target.value)} />
      {range ? <span className="form-count">{range}</span> : null}
      {s.error ? <p id={errorId} className="form-error" role="alert">{s.error}</p> : null}
    </div>
  );
}

export function Checkbox({ value, onChange, id, field }: WidgetProps) {
  return (
    <label className="form-check" htmlFor={id}>
      <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
      <span>{field.label}</span>
    </label>
  );
}

/** Strings, one a line (properties, aliases, speech patterns, facts). */
export function Lines({ value, onChange, id, field }: WidgetProps) {
  const list = Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : [];
  const s = useSyncedText(list.join('\n'), joinLines);
  return (
    <textarea id={id} className="form-input" rows={Math.min(6, Math.max(2, list.length + 1))} value={s.text}
      aria-label={`${field.label} (one a line)`}
      onChange={(e) => { s.set(e.target.value, null); const l = linesOf(e.target.value); onChange(l.length === 0 ? undefined : l); }} />
  );
}

function Select({ id, value, options, required, onChange, labels }: {
  id: string; value: string; options: readonly string[]; required: boolean; onChange: (v: string | undefined) => void; labels?: ReadonlyMap<string, string>;
}) {
  const known = value === '' || options.includes(value);
  return (
    <select id={id} className="form-input form-select" value={value} onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}>
      {!required || value === '' ? <option value="">{required ? 'Choose…' : '(not set)'}</option> : null}
      {!known ? <option value={value}>{`Unknown: ${value}`}</option> : null}
      {options.map((o) => <option key={o} value={o}>{labels?.get(o) ?? o}</option>)}
    </select>
  );
}

/** Options of the fixed-choice kinds. */
const FIXED: Partial<Record<string, readonly string[]>> = { emotion: EMOTIONS, goal_type: GOAL_TYPES, intensity: INTENSITIES };

/** One of fixed options (a choice field's, or an emotion, an intensity, a goal type). */
export function Choice({ field, value, onChange, id }: WidgetProps) {
  const options = field.options ?? FIXED[field.kind] ?? [];
  const numeric = field.kind === 'intensity';
  return <Select id={id} value={typeof value === 'string' || typeof value === 'number' ? String(value) : ''} options={options} required={field.required === true}
    onChange={(v) => onChange(v === undefined ? undefined : numeric ? Number(v) : v)} />;
}

/** Several of fixed options (a character's fighting styles). */
export function Choices({ field, value, onChange, id, labelOf }: WidgetProps & { labelOf?: ReadonlyMap<string, string> }) {
  const chosen = new Set(Array.isArray(value) ? value.map(String) : []);
  return (
    <fieldset id={id} className="form-choices">
      <legend className="visually-hidden">{field.label}</legend>
      {(field.options ?? []).map((o) => (
        <label key={o} className="form-check">
          <input type="checkbox" checked={chosen.has(o)} onChange={(e) => {
            const next = (field.options ?? []).filter((x) => (x === o ? e.target.checked : chosen.has(x)));
            onChange(next.length === 0 ? undefined : next);
          }} />
          <span>{labelOf?.get(o) ?? o}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** The story's moments, characters, items or places, by id, with their names. */
export function namesOf(doc: FormCtx['doc'], collection: string): Map<string, string> {
  const list = doc[collection];
  const out = new Map<string, string>();
  if (!Array.isArray(list)) return out;
  for (const e of list) {
    if (!isRecord(e) || typeof e.id !== 'string') continue;
    const n = e.name;
    out.set(e.id, typeof n === 'string' ? n : isRecord(n) && typeof n.en === 'string' ? n.en : e.id);
  }
  return out;
}

const COLLECTION_OF: Partial<Record<string, string>> = { moment: 'moments', character: 'characters', item: 'items', place: 'places', items: 'items', characters: 'characters' };

/** One moment, character, item or place of the story. */
export function EntityPicker({ field, value, onChange, id, ctx }: WidgetProps) {
  const names = namesOf(ctx.doc, COLLECTION_OF[field.kind] ?? '');
  return <Select id={id} value={typeof value === 'string' ? value : ''} options={[...names.keys()]} labels={names} required={field.required === true} onChange={onChange} />;
}

/** Several items or characters of the story. */
export function EntitiesPicker({ field, value, onChange, id, ctx }: WidgetProps) {
  const names = namesOf(ctx.doc, COLLECTION_OF[field.kind] ?? '');
  return <Choices field={{ ...field, options: [...names.keys()] }} value={value} onChange={onChange} id={id} slot="" ctx={ctx} labelOf={names} />;
}
