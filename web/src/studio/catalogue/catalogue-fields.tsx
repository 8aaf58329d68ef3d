// The story page's form controls: each shows the story's value, its limit, the validator's problems and the server's
// refusal for its path, and edits only through the draft layer (one `set` change). A value the story format refuses
// (an empty English description, a tag over 50 characters, a duration that is not a whole number) stays in the field
// with the reason and is not applied.
import { type ReactNode, useId, useState } from 'react';
import type { ChangePath } from '../../../../engine/authoring/change.js';
import type { StudioDraft } from '../draft/types.js';

/** The local text of a field, reset whenever the draft's value changes (an undo, another tab). */
export function useSynced(value: string): [string, (v: string) => void] {
  const [prev, setPrev] = useState(value);
  const [local, setLocal] = useState(value);
  if (value !== prev) {
    setPrev(value);
    setLocal(value);
  }
  return [local, setLocal];
}

/** The validator's words and the server's refusal for a path ('$.catalogue.genre_tags' / 'catalogue/genre_tags'). */
export function messagesFor(draft: StudioDraft, path: ChangePath): string[] {
  const dollar = `$.${path.join('.')}`;
  const out = draft.problems.filter((p) => p.path === dollar || p.path.startsWith(`${dollar}.`) || p.path.startsWith(`${dollar}[`)).map((p) => p.message);
  const refused = draft.refusal(path.join('/'));
  return refused ? [...out, refused] : out;
}

export function set(draft: StudioDraft, path: ChangePath, value: unknown, label: string): string | null {
  const problems = draft.apply([value === undefined ? { op: 'set', path } : { op: 'set', path, value }], label);
  return problems && problems.length > 0 ? problems.map((p) => p.message).join(' ') : null;
}

export function Field({ label, hint, errors, children, id }: { label: string; hint?: ReactNode; errors: readonly string[]; children: ReactNode; id: string }) {
  return (
    <div className="cat-field">
      <label className="cat-label" htmlFor={id}>{label}</label>
      {children}
      {hint ? <p className="cat-hint">{hint}</p> : null}
      {errors.map((e, i) => <p key={i} className="cat-error" role="alert">{e}</p>)}
    </div>
  );
}

type TextProps = {
  draft: StudioDraft; path: ChangePath; label: string; value: string; max: number; multiline?: boolean; required?: boolean;
  /** The value to write for the text ('' may mean: leave the field out). */
  write?: (text: string) => unknown;
  editLabel: string;
};

/** A text field applied as it is typed (the draft layer sends it within a second). */
export function TextInput({ draft, path, label, value, max, multiline = false, required = false, write, editLabel }: TextProps) {
  const id = useId();
  const [local, setLocal] = useSynced(value);
  const [error, setError] = useState<string | null>(null);
  const change = (text: string) => {
    setLocal(text);
    if (required && text.trim() === '') {
      setError(`${label} is required: the catalogue shows it.`);
      return;
    }
    if (text.length > max) {
      setError(`At most ${max} characters (${text.length}).`);
      return;
    }
    setError(set(draft, path, write ? write(text) : text, editLabel));
  };
  const errors = [...(error ? [error] : []), ...messagesFor(draft, path)];
  const common = { id, value: local, className: 'cat-input', 'aria-invalid': errors.length > 0 || undefined } as const;
  return (
    <Field id={id} label={label} errors={errors} hint={`${local.length}/${max}`}>
      {multiline ? <textarea {...common} rows={5} onChange={(e) => change(e.target.value)} /> : <input {...common} onChange={(e) => change(e.target.value)} />}
    </Field>
  );
}

type ParsedInputProps<T> = {
  draft: StudioDraft; path: ChangePath; label: string; value: string; hint?: string; editLabel: string; type?: 'text' | 'number';
  parse: (text: string) => { ok: true; value: T } | { ok: false; message: string };
};

/** A field whose text is parsed (tags, numbers): applied when it leaves the field, or refused with the reason. */
export function ParsedInput<T>({ draft, path, label, value, hint, editLabel, parse, type = 'text' }: ParsedInputProps<T>) {
  const id = useId();
  const [local, setLocal] = useSynced(value);
  const [error, setError] = useState<string | null>(null);
  const commit = () => {
    if (local === value) return setError(null);
    const r = parse(local);
    if (!r.ok) return setError(`${r.message} Not saved.`);
    setError(set(draft, path, r.value, editLabel));
  };
  const errors = [...(error ? [error] : []), ...messagesFor(draft, path)];
  return (
    <Field id={id} label={label} errors={errors} hint={hint}>
      <input id={id} className="cat-input" type={type} value={local} aria-invalid={errors.length > 0 || undefined}
        onChange={(e) => setLocal(e.target.value)} onBlur={commit} onKeyDown={(e) => { if (e.key === 'Enter') commit(); }} />
    </Field>
  );
}

export function Select({ draft, path, label, value, options, editLabel }: {
  draft: StudioDraft; path: ChangePath; label: string; value: string; options: readonly { value: string; label: string }[]; editLabel: string;
}) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  return (
    <Field id={id} label={label} errors={[...(error ? [error] : []), ...messagesFor(draft, path)]}>
      <select id={id} className="cat-input" value={value} onChange={(e) => setError(set(draft, path, e.target.value, editLabel))}>
        {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
    </Field>
  );
}
