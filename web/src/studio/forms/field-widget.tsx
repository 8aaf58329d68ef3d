// One widget per field kind, looked up in a table (never a switch on a moment type), and the lists and objects of
// parts the structured kinds are made of (form-field.ts): a transition, an answer, a reward, an opponent, the upgrade
// rules, a picture, a sound, a voice are each a list or an object whose parts are rendered by this same table.
import { type ReactNode, useId } from 'react';
import { expand, type FormField } from './form-field.js';
import { Checkbox, Choice, Choices, DateText, EntitiesPicker, EntityPicker, Lines, NumberInput, PlainText } from './basic-widgets.js';
import { LangPhrases, LangText, LangTexts } from './lang-widgets.js';
import { isRecord, type WidgetProps } from './widget-props.js';

type Widget = (p: WidgetProps) => ReactNode;

/** A text: side by side per language, or a plain string. */
const TextWidget: Widget = (p) => (p.field.perLanguage ? <LangText {...p} /> : <PlainText {...p} />);

const WIDGETS: Record<FormField['kind'], Widget> = {
  text: TextWidget,
  id: PlainText,
  texts: LangTexts,
  phrases: LangPhrases,
  integer: NumberInput,
  number: NumberInput,
  boolean: Checkbox,
  date: DateText,
  strings: Lines,
  emotion: Choice,
  intensity: Choice,
  goal_type: Choice,
  choice: Choice,
  choices: Choices,
  moment: EntityPicker,
  character: EntityPicker,
  item: EntityPicker,
  place: EntityPicker,
  items: EntitiesPicker,
  characters: EntitiesPicker,
  list: (p) => <ListOfParts {...p} />,
  object: (p) => <ObjectOfParts {...p} />,
  // The structured kinds are expanded into a list or an object of parts before they get here (form-field.ts).
  transitions: (p) => <ListOfParts {...p} />,
  answers: (p) => <ListOfParts {...p} />,
  rewards: (p) => <ListOfParts {...p} />,
  opponents: (p) => <ListOfParts {...p} />,
  media: (p) => <ListOfParts {...p} />,
  upgrade: (p) => <ObjectOfParts {...p} />,
  sound: (p) => <ObjectOfParts {...p} />,
  voice: (p) => <ObjectOfParts {...p} />,
};

/** The widget of a field of any kind. */
export function FieldWidget(p: WidgetProps) {
  const field = expand(p.field);
  const W = WIDGETS[field.kind];
  return <W {...p} field={field} />;
}

/** A labelled part inside a list entry or an object. */
function Part({ field, parent, onParent, slot, ctx }: { field: FormField; parent: Record<string, unknown>; onParent: (v: Record<string, unknown>) => void; slot: string; ctx: WidgetProps['ctx'] }) {
  const id = useId();
  const set = (v: unknown) => {
    const next = { ...parent };
    if (v === undefined) delete next[field.key];
    else next[field.key] = v;
    onParent(next);
  };
  const bare = field.kind === 'boolean';
  const k = expand(field).kind;
  const wide = field.perLanguage === true || k === 'list' || k === 'object' || k === 'strings' || k === 'choices' || k === 'items' || k === 'characters';
  return (
    <div className={`form-part${wide ? ' form-part--wide' : ''}`} data-field={field.key}>
      {bare ? null : <label className="form-part__label" htmlFor={id}>{field.label}{field.required ? <span className="form-req" aria-hidden="true"> *</span> : null}</label>}
      <FieldWidget field={field} value={parent[field.key]} onChange={set} id={id} slot={`${slot}/${field.key}`} ctx={ctx} />
    </div>
  );
}

function Parts({ fields, value, onChange, slot, ctx }: { fields: readonly FormField[]; value: Record<string, unknown>; onChange: (v: Record<string, unknown>) => void; slot: string; ctx: WidgetProps['ctx'] }) {
  return <div className="form-parts">{fields.map((f) => <Part key={f.key} field={f} parent={value} onParent={onChange} slot={slot} ctx={ctx} />)}</div>;
}

/** Many entries of the same parts: added, removed and moved (a transition's order matters: the first is taken). */
function ListOfParts({ field, value, onChange, slot, ctx, id }: WidgetProps) {
  const list = Array.isArray(value) ? value.filter(isRecord) : [];
  const min = field.min ?? 0;
  const entry = field.entry ?? 'Entry';
  const fresh = field.make?.(ctx) ?? {};
  const put = (next: Record<string, unknown>[]) => onChange(next.length === 0 && !field.required ? undefined : next);
  const move = (i: number, by: number) => {
    const next = [...list];
    const [x] = next.splice(i, 1);
    if (x) next.splice(i + by, 0, x);
    put(next);
  };
  return (
    <div className="form-list" id={id}>
      {list.map((e, i) => (
        <fieldset key={typeof e.id === 'string' ? e.id : i} className="form-entry">
          <legend className="form-entry__title">{entry} {i + 1}</legend>
          <div className="form-entry__tools">
            <button type="button" className="form-mini" disabled={i === 0} onClick={() => move(i, -1)} aria-label={`Move ${entry.toLowerCase()} ${i + 1} up`}>Up</button>
            <button type="button" className="form-mini" disabled={i === list.length - 1} onClick={() => move(i, 1)} aria-label={`Move ${entry.toLowerCase()} ${i + 1} down`}>Down</button>
            <button type="button" className="form-mini form-mini--danger" disabled={list.length <= min} onClick={() => put(list.filter((_, j) => j !== i))} aria-label={`Remove ${entry.toLowerCase()} ${i + 1}`}>Remove</button>
          </div>
          <Parts fields={field.fields ?? []} value={e} onChange={(v) => put(list.map((x, j) => (j === i ? v : x)))} slot={`${slot}/${i}`} ctx={ctx} />
        </fieldset>
      ))}
      <button type="button" className="form-add" onClick={() => put([...list, { ...fresh }])}>Add {entry.toLowerCase()}</button>
    </div>
  );
}

/** One object of parts (the upgrade rules, a sound, a voice); an optional one can be added and removed. */
function ObjectOfParts({ field, value, onChange, slot, ctx, id }: WidgetProps) {
  if (!isRecord(value)) {
    return <button id={id} type="button" className="form-add" onClick={() => onChange(field.make?.(ctx) ?? {})}>Add {field.label.toLowerCase()}</button>;
  }
  return (
    <div className="form-object" id={id}>
      <Parts fields={field.fields ?? []} value={value} onChange={onChange} slot={slot} ctx={ctx} />
      {field.required ? null : <button type="button" className="form-mini form-mini--danger" onClick={() => onChange(undefined)}>Remove {field.label.toLowerCase()}</button>}
    </div>
  );
}
