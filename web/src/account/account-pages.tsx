// /my-profile, /settings and /share-feedback, phase 1: their routes, guards and frame. The screens themselves (profile
// with password change and runs per story, settings with volume, language and reduced motion, the feedback form)
// come with the rest of the accounts screens; until then each says what it is for.
import { useSession } from '../auth/session.js';
import './account-pages.css';

function AccountFrame({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="page account-page">
      <h1>{title}</h1>
      {children}
    </div>
  );
}

export function ProfilePage() {
  const { state } = useSession();
  return (
    <AccountFrame title="My profile">
      <p>Signed in as <strong>{state.status === 'signed_in' ? state.email : ''}</strong>.</p>
    </AccountFrame>
  );
}

export function SettingsPage() {
  return (
    <AccountFrame title="Settings">
      <p>Volume, language and motion settings for this browser.</p>
    </AccountFrame>
  );
}

export function FeedbackPage() {
  return (
    <AccountFrame title="Share feedback">
      <p>Tell us what worked and what did not.</p>
    </AccountFrame>
  );
}
