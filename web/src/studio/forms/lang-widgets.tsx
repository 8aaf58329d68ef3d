// The per-language widgets: English and French side by side, each with its length against the story format's limit,
// and the French flagged when it is missing or older than the English (translation-gaps.ts).
import { MAX_TEXT_CHARS } from '../../../../engine/story/text.js';
import { translationState, type TranslationAges } from './translation-gaps.js';
import { joinLines, linesOf, useSyncedText } from './use-synced-text.js';
import { isRecord, type WidgetProps } from './widget-props.js';

type Lang = 'en' | 'fr';
const LANG_NAME: Record<Lang, string> = { en: 'English', fr: 'French' };

/** The flag on a French side: nothing, missing or outdated. */
export function TranslationFlag({ value, slot, ages }: { value: { en: unknown; fr?: unknown } | undefined; slot: string; ages: TranslationAges | undefined }) {
  const state = translationState(value, slot, ages);
  if (state === 'ok') return null;
  return (
    <span className={`form-flag form-flag--${state}`} data-testid="translation-flag" data-state={state}>
      {state === 'missing' ? 'French missing' : 'French older than English'}
    </span>
  );
}

function Side({ id, lang, text, error, max, multiline, onInput, label }: {
  id: string; lang: Lang; text: string; error: string | null; max: number | null; multiline: boolean; onInput: (s: string) => void; label: string;
}) {
  const count = max !== null ? `${text.length} / ${max}` : null;
  const errorId = error ? `${id}-error` : undefined;
  const common = {
    id, lang, value: text, className: 'form-input', 'aria-invalid': error ? true : undefined, 'aria-describedby': errorId,
    'aria-label': `${label} (${LANG_NAME[lang]})`,
  };
  return (
    <div className="form-side">
      <span className="form-side__lang" aria-hidden="true">{lang.toUpperCase()}</span>
      {multiline
        ? <textarea {...common} rows={1} onChange={(e) => onInput(e.target.value)} />
        : <input {...common} type="text" onChange={(e) => onInput(e.target.value)} />}
      <span className={`form-count${max !== null && text.length > max ? ' form-count--over' : ''}`}>{count}</span>
      {error ? <p id={errorId} className="form-error" role="alert">{error}</p> : null}
    </div>
  );
}

/** A text written once per language ({ en, fr? }). */
export function LangText({ field, value, onChange, id, slot, ctx }: WidgetProps) {
  const v = isRecord(value) ? { en: typeof value.en === 'string' ? value.en : '', ...(typeof value.fr === 'string' ? { fr: value.fr } : {}) } : undefined;
  const max = field.maxLength ?? MAX_TEXT_CHARS;
  const en = useSyncedText(v?.en ?? '');
  const fr = useSyncedText(v?.fr ?? '');
  const multiline = max > 200;
  const setEn = (s: string) => {
    if (s.length > max) return en.set(s, `At most ${max} characters (${s.length}).`);
    if (s === '') {
      if (field.required) return en.set(s, 'Required: write the English.');
      if (v?.fr) return en.set(s, 'The English is needed while there is a French text.');
      en.set(s, null);
      return onChange(undefined);
    }
    en.set(s, null);
    onChange({ ...(v ?? {}), en: s });
  };
  const setFr = (s: string) => {
    if (s.length > max) return fr.set(s, `At most ${max} characters (${s.length}).`);
    if (!v) return fr.set(s, 'Write the English first.');
    fr.set(s, null);
    const { fr: _old, ...rest } = v;
    onChange(s === '' ? rest : { ...v, fr: s });
  };
  return (
    <div className="form-pair">
      <Side id={id} lang="en" text={en.text} error={en.error} max={max} multiline={multiline} onInput={setEn} label={field.label} />
      <div className="form-pair__fr">
        <Side id={`${id}-fr`} lang="fr" text={fr.text} error={fr.error} max={max} multiline={multiline} onInput={setFr} label={field.label} />
        <TranslationFlag value={v} slot={slot} ages={ctx.ages} />
      </div>
    </div>
  );
}

/** Lines written once per language (a list of texts): each line English and French side by side. */
export function LangTexts(p: WidgetProps) {
  const { field, value, onChange, id, slot } = p;
  const list: unknown[] = Array.isArray(value) ? (value as unknown[]) : [];
  const min = field.min ?? (field.required ? 1 : 0);
  const put = (i: number, t: unknown) => {
    if (t === undefined) return;
    onChange(list.map((x, j) => (j === i ? t : x)));
  };
  return (
    <div className="form-lines">
      {list.map((t, i) => (
        <div key={i} className="form-line">
          <LangText {...p} field={{ ...field, required: true, label: `${field.label} ${i + 1}` }} value={t} onChange={(x) => put(i, x)} id={i === 0 ? id : `${id}-${i}`} slot={`${slot}/${i}`} />
          <button type="button" className="form-mini" disabled={list.length <= min} onClick={() => onChange(list.length === 1 && !field.required ? undefined : list.filter((_, j) => j !== i))}
            aria-label={`Remove ${field.label.toLowerCase()} ${i + 1}`}>Remove</button>
        </div>
      ))}
      <button type="button" className="form-add" onClick={() => onChange([...list, { en: 'New line' }])}>Add a line</button>
    </div>
  );
}

/** Phrase lists per language ({ en: string[], fr?: string[] }), one phrase a line. */
export function LangPhrases({ field, value, onChange, id, slot, ctx }: WidgetProps) {
  const v = isRecord(value) && Array.isArray(value.en) ? value as { en: string[]; fr?: string[] } : undefined;
  const en = useSyncedText((v?.en ?? []).join('\n'), joinLines);
  const fr = useSyncedText((v?.fr ?? []).join('\n'), joinLines);
  const setEn = (s: string) => {
    const lines = linesOf(s);
    if (lines.length === 0) {
      if (field.required) return en.set(s, 'Required: at least one English phrase.');
      if (v?.fr?.length) return en.set(s, 'The English is needed while there are French phrases.');
      en.set(s, null);
      return onChange(undefined);
    }
    en.set(s, null);
    onChange({ ...(v ?? {}), en: lines });
  };
  const setFr = (s: string) => {
    if (!v) return fr.set(s, 'Write the English first.');
    const lines = linesOf(s);
    fr.set(s, null);
    const { fr: _old, ...rest } = v;
    onChange(lines.length === 0 ? rest : { ...v, fr: lines });
  };
  return (
    <div className="form-pair">
      <Side id={id} lang="en" text={en.text} error={en.error} max={null} multiline onInput={setEn} label={field.label} />
      <div className="form-pair__fr">
        <Side id={`${id}-fr`} lang="fr" text={fr.text} error={fr.error} max={null} multiline onInput={setFr} label={field.label} />
        <TranslationFlag value={v} slot={slot} ages={ctx.ages} />
      </div>
    </div>
  );
}
