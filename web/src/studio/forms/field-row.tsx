// One field of a form: its label, its help and limits, the widget, the validator's problems on it and the server's
// refusal of the last change to it.
import { useId } from 'react';
import type { Problem } from '../../../../engine/story/validate.js';
import type { FormField } from './form-field.js';
import { FieldWidget } from './field-widget.js';
import { expand } from './form-field.js';
import type { FormCtx } from './widget-props.js';

export function FieldRow({ field, value, onChange, slot, ctx, problems, refusal }: {
  field: FormField; value: unknown; onChange: (v: unknown) => void; slot: string; ctx: FormCtx; problems: readonly Problem[]; refusal: string | null;
}) {
  const id = useId();
  const bare = field.kind === 'boolean';
  const k = expand(field).kind;
  const wide = field.perLanguage === true || k === 'list' || k === 'object' || k === 'strings' || k === 'choices';
  return (
    <div className={`form-row${wide ? ' form-row--wide' : ''}${problems.some((p) => p.severity === 'error') || refusal ? ' form-row--error' : ''}`} data-field={field.key}>
      {bare ? null : (
        <label className="form-row__label" htmlFor={id}>
          {field.label}{field.required ? <span className="form-req" aria-hidden="true"> *</span> : null}
          {field.perLanguage ? <span className="form-row__langs">EN · FR</span> : null}
        </label>
      )}
      <p className="form-row__help">{field.help}</p>
      <FieldWidget field={field} value={value} onChange={onChange} id={id} slot={slot} ctx={ctx} />
      {refusal ? <p className="form-refusal" role="alert" data-testid="field-refusal">Not saved: {refusal}</p> : null}
      {problems.length > 0 ? (
        <ul className="form-problems" data-testid="field-problems">
          {problems.map((p, i) => <li key={i} className={`form-problem form-problem--${p.severity}`}>{p.message}</li>)}
        </ul>
      ) : null}
    </div>
  );
}
