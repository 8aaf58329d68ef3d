// Labelled form fields: every input has a visible label, its hint and error tied to it (aria-describedby), and the
// password field has the spec's Show/Hide toggle.
import { forwardRef, type InputHTMLAttributes, type ReactNode, useId, useState } from 'react';
import './field.css';

export type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
};

export const TextField = forwardRef<HTMLInputElement, FieldProps>(function TextField({ label, hint, error, id, className, ...rest }, ref) {
  const auto = useId();
  const inputId = id ?? auto;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  return (
    <div className={['field', className ?? ''].filter(Boolean).join(' ')}>
      <label htmlFor={inputId} className="field__label">{label}</label>
      <input ref={ref} id={inputId} className="field__input" aria-invalid={error ? true : undefined} aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined} {...rest} />
      {hint ? <p id={hintId} className="field__hint">{hint}</p> : null}
      {error ? <p id={errorId} className="field__error">{error}</p> : null}
    </div>
  );
});

export const PasswordField = forwardRef<HTMLInputElement, Omit<FieldProps, 'type'>>(function PasswordField({ label, hint, error, id, ...rest }, ref) {
  const auto = useId();
  const inputId = id ?? auto;
  const [shown, setShown] = useState(false);
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  return (
    <div className="field">
      <label htmlFor={inputId} className="field__label">{label}</label>
      <div className="field__with-action">
        <input ref={ref} id={inputId} type={shown ? 'text' : 'password'} className="field__input" aria-invalid={error ? true : undefined} aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined} {...rest} />
        <button type="button" className="field__action" onClick={() => setShown((s) => !s)} aria-pressed={shown} aria-controls={inputId} aria-label={shown ? 'Hide password' : 'Show password'}>
          {shown ? 'Hide' : 'Show'}
        </button>
      </div>
      {hint ? <p id={hintId} className="field__hint">{hint}</p> : null}
      {error ? <p id={errorId} className="field__error">{error}</p> : null}
    </div>
  );
});
