// /my-profile (its screen is not shown in the spec; issue #9: email, password change, runs and ranks per story):
// the signed-in email, a new password (twice, at least 8 characters, through the auth server), and per story started:
// runs, best rank, runs won and moments reached (the same progress as the Continue row).
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { useProgress, useStories } from '../api/queries.js';
import { auth } from '../auth/auth-client.js';
import { useSession } from '../auth/session.js';
import { MyDataCard } from './my-data-card.js';
import { Alert } from '../ui/alert.js';
import { Button } from '../ui/button.js';
import { PasswordField } from '../ui/field.js';
import { Spinner } from '../ui/spinner.js';
import './account-pages.css';

/** An email that may break before its '@' on a narrow screen, never inside a word that fits. */
function EmailText({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at <= 0) return <>{email}</>;
  return <>{email.slice(0, at)}<wbr />{email.slice(at)}</>;
}

export const PROFILE_TEXT = {
  title: 'My profile',
  password: 'Change password',
  currentPassword: 'Current password',
  currentHint: 'Needed unless you signed in within the last few minutes (an account without a password: sign in again by email first).',
  newPassword: 'New password',
  repeat: 'Repeat the new password',
  save: 'Save the new password',
  saving: 'Saving...',
  saved: 'Your password has been changed.',
  tooShort: 'Use at least 8 characters.',
  mismatch: 'The two passwords differ.',
  stories: 'Your stories',
  none: 'You have not started a story yet.',
} as const;

function PasswordForm() {
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (password.length < 8) return setResult({ ok: false, message: PROFILE_TEXT.tooShort });
    if (password !== repeat) return setResult({ ok: false, message: PROFILE_TEXT.mismatch });
    setBusy(true);
    // current_password is this server's addition to Supabase Auth's body (the nonce of reauthenticate() is the other way).
    const attributes = current ? { password, current_password: current } : { password };
    const { error } = await auth.updateUser(attributes);
    setBusy(false);
    if (error) return setResult({ ok: false, message: error.message });
    setCurrent('');
    setPassword('');
    setRepeat('');
    setResult({ ok: true, message: PROFILE_TEXT.saved });
  };
  return (
    <form className="account-card" onSubmit={(e) => void submit(e)} aria-labelledby="password-title" noValidate>
      <h2 id="password-title">{PROFILE_TEXT.password}</h2>
      <PasswordField label={PROFILE_TEXT.currentPassword} hint={PROFILE_TEXT.currentHint} autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
      <PasswordField label={PROFILE_TEXT.newPassword} autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} required minLength={8} />
      <PasswordField label={PROFILE_TEXT.repeat} autoComplete="new-password" value={repeat} onChange={(e) => setRepeat(e.target.value)} required minLength={8} />
      {result ? <Alert tone={result.ok ? 'success' : 'error'}>{result.message}</Alert> : null}
      <div><Button type="submit" variant="primary" busy={busy} busyLabel={PROFILE_TEXT.saving}>{PROFILE_TEXT.save}</Button></div>
    </form>
  );
}

export function ProfilePage() {
  const { state } = useSession();
  const userId = state.status === 'signed_in' ? state.userId : null;
  const progress = useProgress(userId);
  const stories = useStories(userId);
  const names = new Map((stories.data ?? []).map((s) => [s.id, s]));
  const rows = progress.data ?? [];
  return (
    <div className="page account-page">
      <h1>{PROFILE_TEXT.title}</h1>
      <section className="account-card" aria-labelledby="email-title">
        <h2 id="email-title">Email</h2>
        <p className="account-page__email" data-testid="profile-email">{state.status === 'signed_in' ? <EmailText email={state.email} /> : ''}</p>
      </section>
      <section className="account-card" aria-labelledby="stories-title">
        <h2 id="stories-title">{PROFILE_TEXT.stories}</h2>
        {progress.isPending ? <Spinner /> : null}
        {progress.isError ? <Alert>{progress.error.message}</Alert> : null}
        {progress.isSuccess && rows.length === 0 ? <p>{PROFILE_TEXT.none} <Link to="/browse">Browse the catalogue</Link>.</p> : null}
        {rows.length ? (
          <div className="account-table-wrap">
            {/* Roles spelled out: on a phone the table is drawn as blocks (CSS display), which drops its implicit roles. */}
            <table className="account-table" data-testid="profile-runs" role="table">
              <thead role="rowgroup">
                <tr role="row"><th scope="col" role="columnheader">Story</th><th scope="col" role="columnheader">Runs</th><th scope="col" role="columnheader">Best rank</th><th scope="col" role="columnheader">Won</th><th scope="col" role="columnheader">Moments reached</th></tr>
              </thead>
              <tbody role="rowgroup">
                {rows.map((p) => (
                  <tr key={p.blueprint_story_id} role="row">
                    <th scope="row" role="rowheader"><Link to={`/launch/${p.blueprint_story_id}`}>{names.get(p.blueprint_story_id)?.name ?? p.blueprint_story_id}</Link></th>
                    <td role="cell" data-label="Runs">{p.runs}</td>
                    <td role="cell" data-label="Best rank">{p.best_rank ?? '—'}</td>
                    <td role="cell" data-label="Won">{p.successful_runs}</td>
                    <td role="cell" data-label="Moments reached">{p.moments_reached} / {p.moments_total}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
      <PasswordForm />
      {state.status === 'signed_in' ? <MyDataCard email={state.email} /> : null}
    </div>
  );
}
