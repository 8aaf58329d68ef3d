// The app's frames. RootLayout: the full-page spinner until the session is known, the sign-in modal, what follows a
// sign-in (the pending story, /login -> /browse, an invitation redeemed), a reset link's new-password step.
// ShellLayout: the top bar, the page and the footer. RequireAuth: signed-out visitors go to /login.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { SignInProvider } from '../account/sign-in-context.js';
import { initialSignIn, SignInModal } from '../account/sign-in-modal.js';
import { api } from '../api/client.js';
import { clearPendingStory, pendingStory, setPendingStory } from '../auth/pending-story.js';
import { endRecovery, useSession } from '../auth/session.js';
import { FullPageSpinner } from '../ui/spinner.js';
import { AppErrorBoundary, NotFoundError } from './app-error.js';
import { Footer } from './footer.js';
import { TopBar } from './top-bar.js';

const redeemedInvites = new Set<string>();

export function RootLayout() {
  const { state, signIns, recovering } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const qc = useQueryClient();
  const userId = state.status === 'signed_in' ? state.userId : null;
  const lastUser = useRef<string | null | undefined>(undefined);

  // Another user (or none): nothing cached for the previous one may show; what is on screen is read again.
  useEffect(() => {
    if (state.status === 'loading') return;
    if (lastUser.current !== undefined && lastUser.current !== userId) void qc.resetQueries();
    lastUser.current = userId;
  }, [state.status, userId, qc]);

  // After a sign-in (and once when the page opens signed in): the pending story's launch screen, else the catalogue
  // when the sign-in view was the page. Each sign-in is acted on once.
  const handledSignIns = useRef(-1);
  useEffect(() => {
    if (state.status !== 'signed_in' || handledSignIns.current === signIns) return;
    handledSignIns.current = signIns;
    const pending = pendingStory();
    if (pending) {
      clearPendingStory();
      void navigate(`/launch/${pending}`, { replace: true });
      return;
    }
    if (signIns > 0 && (location.pathname === '/login' || location.pathname === '/signup')) void navigate('/browse', { replace: true });
    // location is read, not watched: only a new sign-in moves the player.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.status, signIns, navigate]);

  // An invitation in the URL is redeemed once signed in; a failure is only warned (accounts spec §7, §8). The URL is
  // left alone (the sign-in moves on to another page anyway); each token is sent once per page.
  const inviteToken = params.get('invite_token');
  const email = state.status === 'signed_in' ? state.email : null;
  useEffect(() => {
    if (!email || !inviteToken || redeemedInvites.has(inviteToken)) return;
    redeemedInvites.add(inviteToken);
    api.redeemInvite(email, inviteToken).catch((e: unknown) => console.warn(`Waitlist redemption failed: ${e instanceof Error ? e.message : String(e)}`));
  }, [email, inviteToken]);

  if (state.status === 'loading') return <FullPageSpinner />;
  return (
    <SignInProvider>
      <AppErrorBoundary resetKey={location.pathname}>
        <Outlet />
      </AppErrorBoundary>
      {recovering ? <SignInModal open start={initialSignIn({ inviteToken: null, recovery: true })} onClose={endRecovery} /> : null}
    </SignInProvider>
  );
}

export function ShellLayout() {
  return (
    <>
      <a className="skip-link" href="#main">Skip to content</a>
      <TopBar />
      <main id="main" tabIndex={-1} className="shell-main">
        <Outlet />
      </main>
      <Footer />
    </>
  );
}

/** Signed-in routes: a signed-out visitor goes to /login (a launch screen's story waits as the pending story). */
export function RequireAuth() {
  const { state } = useSession();
  const { storyId } = useParams();
  if (state.status === 'signed_in') return <Outlet />;
  if (storyId) setPendingStory(storyId);
  return <Navigate to="/login" replace />;
}

/** Any other path (accounts spec §2): signed out to /login; signed in, the error screen with 404 Not Found. */
export function UnknownPath() {
  const { state } = useSession();
  const location = useLocation();
  if (state.status !== 'signed_in') return <Navigate to="/login" replace />;
  throw new NotFoundError(location.pathname);
}

/** A redirect that keeps the query string (/ -> /browse; /game without an id -> /, accounts spec §2). */
export function RedirectKeepingQuery({ to }: { to: string }) {
  const location = useLocation();
  return <Navigate to={{ pathname: to, search: location.search }} replace />;
}
