// The profile page's "Your data" card: download everything the server stores about the player (GET /api/me/export,
// JSON with each run's transcript) and delete the account (POST /api/me/delete: the email typed again, plus the
// current password unless the sign-in is recent). The privacy page's promise of deletion on request, kept here.
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { api } from '../api/client.js';
import { auth } from '../auth/auth-client.js';
import { Alert } from '../ui/alert.js';
import { Button } from '../ui/button.js';
import { PasswordField, TextField } from '../ui/field.js';

export const MY_DATA_TEXT = {
  title: 'Your data',
  exportLead: 'Download everything Looptale stores about you: your account, runs, cards, tickets, feedback and the transcript of every run.',
  download: 'Download my data',
  downloading: 'Preparing...',
  deleteTitle: 'Delete my account',
  deleteLead: 'This deletes your account and everything it owns (runs, transcripts, cards, tickets, feedback, uploads) at once. It cannot be undone.',
  confirm: 'Type your email address to confirm',
  currentPassword: 'Current password',
  currentHint: 'Needed unless you signed in within the last few minutes.',
  delete: 'Delete my account for good',
  deleting: 'Deleting...',
  mismatch: 'Type the email address of this account to confirm its deletion.',
} as const;

export function MyDataCard({ email }: { email: string }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState<'export' | 'delete' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState('');
  const [password, setPassword] = useState('');

  const download = async () => {
    setBusy('export');
    setError(null);
    try {
      const data = await api.request<unknown>('GET', '/api/me/export');
      const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = 'looptale-data.json';
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(null);
    }
  };

  const remove = async (e: FormEvent) => {
    e.preventDefault();
    if (confirm.trim().toLowerCase() !== email.toLowerCase()) return setError(MY_DATA_TEXT.mismatch);
    setBusy('delete');
    setError(null);
    try {
      await api.request('POST', '/api/me/delete', password ? { confirm, current_password: password } : { confirm });
      // The server ended every session; forget this one here too.
      await auth.signOut({ scope: 'local' });
      void navigate('/', { replace: true });
    } catch (err) {
      setError((err as Error).message);
      setBusy(null);
    }
  };

  return (
    <section className="account-card" aria-labelledby="my-data-title">
      <h2 id="my-data-title">{MY_DATA_TEXT.title}</h2>
      <p>{MY_DATA_TEXT.exportLead}</p>
      <div><Button type="button" busy={busy === 'export'} busyLabel={MY_DATA_TEXT.downloading} onClick={() => void download()}>{MY_DATA_TEXT.download}</Button></div>
      <form onSubmit={(e) => void remove(e)} aria-labelledby="delete-title" noValidate>
        <h3 id="delete-title">{MY_DATA_TEXT.deleteTitle}</h3>
        <p>{MY_DATA_TEXT.deleteLead}</p>
        <TextField label={MY_DATA_TEXT.confirm} type="email" autoComplete="off" value={confirm} onChange={(e) => setConfirm(e.target.value)} required />
        <PasswordField label={MY_DATA_TEXT.currentPassword} hint={MY_DATA_TEXT.currentHint} autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        {error ? <Alert>{error}</Alert> : null}
        <div><Button type="submit" variant="danger" busy={busy === 'delete'} busyLabel={MY_DATA_TEXT.deleting}>{MY_DATA_TEXT.delete}</Button></div>
      </form>
    </section>
  );
}
