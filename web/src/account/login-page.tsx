// /login and /signup (accounts spec §2): the sign-in modal over the public catalogue. Closing it goes to /browse. A
// signed-in visitor sees who they are signed in as, with the way to the catalogue.
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { signOut, useSession } from '../auth/session.js';
import { PublicCatalogue } from '../catalogue/public-catalogue.js';
import { Button, buttonClass } from '../ui/button.js';
import { initialSignIn, SignInModal } from './sign-in-modal.js';
import './login-page.css';

export function LoginPage({ signUp = false }: { signUp?: boolean }) {
  const { state } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const inviteToken = params.get('invite_token');
  if (state.status === 'signed_in') {
    return (
      <div className="page login-page">
        <div className="login-page__card">
          <h1>You are signed in</h1>
          <p>Signed in as <strong>{state.email}</strong>.</p>
          <div className="login-page__actions">
            <Link className={buttonClass('primary')} to="/browse">Browse stories</Link>
            <Button variant="secondary" onClick={() => void signOut()}>Sign out</Button>
          </div>
        </div>
      </div>
    );
  }
  return (
    <>
      <PublicCatalogue />
      {/* Dismissing the view goes to the catalogue; a sign-in moves on by itself (the pending story, or /browse). */}
      <SignInModal open start={initialSignIn({ inviteToken, signUp })} inviteToken={inviteToken} onClose={() => void navigate('/browse')} onSignedIn={() => undefined} />
    </>
  );
}
