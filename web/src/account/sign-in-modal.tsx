// The sign-in modal, every mode of accounts spec §2: magic link (the web default), password (the default in the
// native wrapper, forced by an invite_token) with Sign In / Sign Up, forgot-password with 'Back to Login', 'Check your
// email!' with 'Try a different email', and the new password a reset link leads to. 450 px wide, growing out of the
// card that opened it. Errors show inside the modal (the spec's client used browser alerts: see the phase note).
// Its state starts from `start` when it mounts: give it a new `key` for each opening.
import { type FormEvent, useRef, useState } from 'react';
import { useAuthSettings } from '../api/queries.js';
import { auth, REDIRECT_TO } from '../auth/auth-client.js';
import { endRecovery } from '../auth/session.js';
import { isNativeWrapper } from '../native/bridge.js';
import { Alert } from '../ui/alert.js';
import { Button } from '../ui/button.js';
import { PasswordField, TextField } from '../ui/field.js';
import { GoogleIcon, LogoMark } from '../ui/icons.js';
import { Modal } from '../ui/modal.js';
import { SIGN_IN_TEXT as T } from './sign-in-texts.js';
import './sign-in-modal.css';

export type SignInMode = 'magic' | 'password' | 'forgot' | 'sent' | 'recovery';
export type PasswordAction = 'sign_in' | 'sign_up';
export type SignInStart = { mode: SignInMode; action: PasswordAction };

/** The mode the modal opens in: an invitation forces password sign-up; the native wrapper prefers passwords. */
export function initialSignIn(opts: { inviteToken: string | null; signUp?: boolean; recovery?: boolean }): SignInStart {
  if (opts.recovery) return { mode: 'recovery', action: 'sign_in' };
  if (opts.inviteToken) return { mode: 'password', action: 'sign_up' };
  if (opts.signUp) return { mode: 'password', action: 'sign_up' };
  return { mode: isNativeWrapper() ? 'password' : 'magic', action: 'sign_in' };
}

export type SignInModalProps = {
  open: boolean;
  onClose: () => void;
  start: SignInStart;
  origin?: DOMRect | null;
  inviteToken?: string | null;
  /** After a sign-in, instead of closing: the sign-in view's page is left anyway (the app decides where to). */
  onSignedIn?: () => void;
  dismissable?: boolean;
};

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function SignInModal({ open, onClose, start, origin = null, inviteToken = null, onSignedIn, dismissable = true }: SignInModalProps) {
  const [mode, setMode] = useState<SignInMode>(start.mode);
  const [action, setAction] = useState<PasswordAction>(start.action);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [sentText, setSentText] = useState('');
  /** The form that sent the email: 'Try a different email' goes back to it, the address cleared. */
  const [sentFrom, setSentFrom] = useState<SignInMode>('magic');
  const settings = useAuthSettings();
  const emailRef = useRef<HTMLInputElement>(null);
  const google = settings.data?.external.google === true;

  const go = (next: SignInMode) => {
    setMode(next);
    setError(null);
    setNotice(null);
  };

  async function run(work: () => Promise<void>) {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await work();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  const signedIn = () => {
    if (onSignedIn) onSignedIn();
    else onClose();
  };

  const onMagic = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const { error: err } = await auth.signInWithOtp({ email: email.trim(), options: { emailRedirectTo: REDIRECT_TO, shouldCreateUser: true } });
      if (err) throw err;
      setSentText(T.sentMagic(email.trim()));
      setSentFrom('magic');
      go('sent');
    });
  };

  const onPassword = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      if (action === 'sign_in') {
        const { error: err } = await auth.signInWithPassword({ email: email.trim(), password });
        if (err) throw err;
        signedIn();
        return;
      }
      const { data, error: err } = await auth.signUp({ email: email.trim(), password, options: { emailRedirectTo: REDIRECT_TO } });
      if (err) throw err;
      if (data.session) signedIn();
      else {
        // The server asks for the address to be confirmed first.
        setSentText(T.sentConfirm(email.trim()));
        setSentFrom('password');
        go('sent');
      }
    });
  };

  const onForgot = (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim()) {
      setError(T.resetNeedsEmail);
      emailRef.current?.focus();
      return;
    }
    void run(async () => {
      const { error: err } = await auth.resetPasswordForEmail(email.trim(), { redirectTo: REDIRECT_TO });
      if (err) throw err;
      setNotice(isNativeWrapper() ? `${T.resetSent} ${T.resetSentNative}` : T.resetSent);
    });
  };

  const onRecovery = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const { error: err } = await auth.updateUser({ password });
      if (err) throw err;
      setNotice(T.passwordSaved);
      endRecovery();
      signedIn();
    });
  };

  const onGoogle = () => {
    void run(async () => {
      const { error: err } = await auth.signInWithOAuth({ provider: 'google', options: { redirectTo: REDIRECT_TO, queryParams: { prompt: 'select_account' } } });
      if (err) throw err;
    });
  };

  const title = mode === 'sent' ? T.checkEmail
    : mode === 'forgot' ? T.titleForgot
      : mode === 'recovery' ? T.titleRecovery
        : mode === 'password' && action === 'sign_up' ? T.titleSignUp : T.titleSignIn;

  const emailField = (
    <TextField
      ref={emailRef}
      label={T.email}
      type="email"
      name="email"
      autoComplete="email"
      inputMode="email"
      required
      value={email}
      onChange={(e) => setEmail(e.target.value)}
      pattern={EMAIL_PATTERN.source}
      data-autofocus
    />
  );

  return (
    <Modal open={open} onClose={onClose} title={title} maxWidth={450} origin={origin} dismissable={dismissable} className="sign-in" testId="sign-in-modal">
      <div className="sign-in__brand" aria-hidden="true">
        <LogoMark width={36} height={36} />
        <span>Looptale</span>
      </div>
      <p className="sign-in__tagline">{T.tagline}</p>

      {mode === 'sent' ? (
        <div className="sign-in__body">
          <p className="sign-in__sent" role="status">{sentText}</p>
          <Button variant="secondary" block onClick={() => { setEmail(''); go(sentFrom); }} data-autofocus>
            {T.tryDifferentEmail}
          </Button>
        </div>
      ) : null}

      {mode === 'magic' ? (
        <form className="sign-in__body" onSubmit={onMagic} noValidate={false}>
          {emailField}
          <p className="sign-in__hint">{T.magicHint}</p>
          {error ? <Alert>{error}</Alert> : null}
          <Button type="submit" variant="primary" block busy={busy} busyLabel={T.sending}>{T.sendMagicLink}</Button>
          <button type="button" className="sign-in__link" onClick={() => go('password')}>{T.usePassword}</button>
        </form>
      ) : null}

      {mode === 'password' ? (
        <form className="sign-in__body" onSubmit={onPassword}>
          {inviteToken && action === 'sign_up' ? <Alert tone="info">{T.inviteNote}</Alert> : null}
          {emailField}
          <PasswordField
            label={T.password}
            name="password"
            autoComplete={action === 'sign_up' ? 'new-password' : 'current-password'}
            required
            minLength={action === 'sign_up' ? 8 : undefined}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          {action === 'sign_in' ? (
            <button type="button" className="sign-in__link sign-in__link--end" onClick={() => go('forgot')}>{T.forgotPassword}</button>
          ) : null}
          {error ? <Alert>{error}</Alert> : null}
          <Button type="submit" variant="primary" block busy={busy} busyLabel={T.loading}>{action === 'sign_in' ? T.signIn : T.signUp}</Button>
          <p className="sign-in__switch">
            {action === 'sign_in' ? T.noAccount : T.haveAccount}{' '}
            <button type="button" className="sign-in__link sign-in__link--inline" onClick={() => { setAction(action === 'sign_in' ? 'sign_up' : 'sign_in'); setError(null); }}>
              {action === 'sign_in' ? T.signUp : T.signIn}
            </button>
          </p>
          {!inviteToken ? <button type="button" className="sign-in__link" onClick={() => go('magic')}>{T.useMagicLink}</button> : null}
        </form>
      ) : null}

      {mode === 'forgot' ? (
        <form className="sign-in__body" onSubmit={onForgot} noValidate>
          {emailField}
          {error ? <Alert>{error}</Alert> : null}
          {notice ? <Alert tone="success">{notice}</Alert> : null}
          <Button type="submit" variant="primary" block busy={busy} busyLabel={T.sending}>{T.sendReset}</Button>
          <button type="button" className="sign-in__link" onClick={() => go('password')}>{T.backToLogin}</button>
        </form>
      ) : null}

      {mode === 'recovery' ? (
        <form className="sign-in__body" onSubmit={onRecovery}>
          <PasswordField label={T.newPassword} name="new-password" autoComplete="new-password" required minLength={8} value={password} onChange={(e) => setPassword(e.target.value)} data-autofocus />
          {error ? <Alert>{error}</Alert> : null}
          {notice ? <Alert tone="success">{notice}</Alert> : null}
          <Button type="submit" variant="primary" block busy={busy} busyLabel={T.loading}>{T.saveNewPassword}</Button>
        </form>
      ) : null}

      {google && (mode === 'magic' || mode === 'password') ? (
        <div className="sign-in__alt">
          <span className="sign-in__or">{T.or}</span>
          <Button variant="secondary" block icon={<GoogleIcon />} onClick={onGoogle} disabled={busy}>{T.google}</Button>
        </div>
      ) : null}
    </Modal>
  );
}
