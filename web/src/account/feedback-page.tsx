// /share-feedback (not shown in the spec; issue #9: a form stored on the server, listed to admins): a kind, a message
// (up to 4000 characters, counted as you type) and the page it is about; POST /api/feedback (validated, size-capped
// and rate-limited by the server). The admin area lists what was sent.
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import type { FeedbackKind } from '../../../engine/client/api/http.js';
import { useSendFeedback } from '../api/queries.js';
import { Alert } from '../ui/alert.js';
import { Button } from '../ui/button.js';
import './account-pages.css';

export const FEEDBACK_TEXT = {
  title: 'Share feedback',
  intro: 'Tell us what worked, what did not, and what you would like. Every message is read by the team.',
  kind: 'What is it about?',
  message: 'Your message',
  send: 'Send feedback',
  sending: 'Sending...',
  sent: 'Thank you! Your feedback has been sent.',
  empty: 'Please write a message.',
  another: 'Send another',
} as const;

export const MAX_FEEDBACK = 4000;
const KINDS: { value: FeedbackKind; label: string }[] = [
  { value: 'idea', label: 'An idea' },
  { value: 'problem', label: 'A problem' },
  { value: 'praise', label: 'Something I liked' },
  { value: 'other', label: 'Something else' },
];

export function FeedbackPage() {
  const send = useSendFeedback();
  const [kind, setKind] = useState<FeedbackKind>('idea');
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const countId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!message.trim()) return setError(FEEDBACK_TEXT.empty);
    setError(null);
    send.mutate({ kind, message: message.trim() }, { onSuccess: () => setMessage('') });
  };
  return (
    <div className="page account-page">
      <h1>{FEEDBACK_TEXT.title}</h1>
      <p>{FEEDBACK_TEXT.intro}</p>
      {send.isSuccess ? (
        <div className="account-card">
          <Alert tone="success" testId="feedback-sent">{FEEDBACK_TEXT.sent}</Alert>
          <div className="account-actions">
            <Button variant="secondary" onClick={() => send.reset()}>{FEEDBACK_TEXT.another}</Button>
            <Link to="/browse">Back to the catalogue</Link>
          </div>
        </div>
      ) : (
        <form className="account-card" onSubmit={submit} noValidate>
          <fieldset className="account-radios">
            <legend>{FEEDBACK_TEXT.kind}</legend>
            {KINDS.map((k) => (
              <label key={k.value}>
                <input type="radio" name="kind" value={k.value} checked={kind === k.value} onChange={() => setKind(k.value)} />
                {k.label}
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label className="field__label" htmlFor="feedback-message">{FEEDBACK_TEXT.message}</label>
            <textarea id="feedback-message" className="field__input account-textarea" rows={7} maxLength={MAX_FEEDBACK} value={message} onChange={(e) => setMessage(e.target.value)} aria-describedby={countId} aria-invalid={error ? true : undefined} required />
            <p id={countId} className="field__hint">{message.length} / {MAX_FEEDBACK}</p>
          </div>
          {error ? <Alert>{error}</Alert> : null}
          {send.isError ? <Alert>{send.error.message}</Alert> : null}
          <div><Button type="submit" variant="primary" busy={send.isPending} busyLabel={FEEDBACK_TEXT.sending}>{FEEDBACK_TEXT.send}</Button></div>
        </form>
      )}
    </div>
  );
}
