// Email flows against the real server with the unmodified supabase-js client: magic links (followed like a browser,
// and as codes through verifyOtp), password recovery, sign-up confirmation (EMAIL_CONFIRMATION), email change, PKCE,
// redirect safety, email rate limits, the dev outbox, and real SMTP delivery to a fake SMTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_URL, claimsOf, follow, fragment, getUserRaw, lastEmail, outbox, supabaseClient, uniqueEmail } from './helpers/auth.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { plainText, startFakeSmtp } from './helpers/smtp.js';

const PASSWORD = 'correct horse battery';

describe('magic links and recovery (confirmation off)', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ DEV_OUTBOX: 'true' });
  });
  afterAll(async () => {
    await srv.close();
  });

  it('a magic link followed like a browser lands on redirect_to with the session in the fragment', async () => {
    const email = uniqueEmail('magic');
    const sb = supabaseClient(srv.url);
    const sent = await sb.auth.signInWithOtp({ email, options: { emailRedirectTo: APP_URL } });
    expect(sent.error).toBeNull();
    const mail = await lastEmail(srv.url, email, 'magiclink');
    expect(mail.link.startsWith(`${srv.url}/auth/v1/verify?`)).toBe(true);
    expect(mail.text).toContain(mail.link);
    expect(mail.code).toMatch(/^\d{6}$/);
    const hop = await follow(mail.link);
    expect(hop.status).toBe(303);
    expect(hop.location.startsWith(`${APP_URL}#`)).toBe(true);
    const f = fragment(hop.location);
    expect(f).toMatchObject({ token_type: 'bearer', type: 'magiclink', expires_in: '3600' });
    expect(claimsOf(f.access_token!)).toMatchObject({ email, amr: [{ method: 'otp', timestamp: expect.any(Number) as number }] });
    const set = await sb.auth.setSession({ access_token: f.access_token!, refresh_token: f.refresh_token! });
    expect(set.error).toBeNull();
    const user = (await sb.auth.getUser()).data.user!;
    expect(user.email).toBe(email);
    expect(user.email_confirmed_at).toBeTruthy();
    // A link works once.
    const again = await follow(mail.link);
    expect(again.status).toBe(303);
    expect(fragment(again.location)).toMatchObject({ error: 'access_denied', error_code: 'otp_expired', error_description: 'Email link is invalid or has expired' });
  });

  it('verifyOtp accepts the 6-digit code (type email) and the token_hash (type magiclink)', async () => {
    const email = uniqueEmail('code');
    const sb = supabaseClient(srv.url);
    expect((await sb.auth.signInWithOtp({ email })).error).toBeNull();
    const byCode = await sb.auth.verifyOtp({ email, token: (await lastEmail(srv.url, email)).code, type: 'email' });
    expect(byCode.error).toBeNull();
    expect(byCode.data.session?.user.email).toBe(email);
    expect((await sb.auth.getUser()).data.user?.email).toBe(email);

    const other = supabaseClient(srv.url);
    expect((await other.auth.signInWithOtp({ email })).error).toBeNull();
    const byHash = await other.auth.verifyOtp({ token_hash: (await lastEmail(srv.url, email)).token_hash, type: 'magiclink' });
    expect(byHash.error).toBeNull();
    expect(byHash.data.user?.email).toBe(email);
  });

  it('a code guessed wrong five times is burnt', async () => {
    const email = uniqueEmail('guess');
    const sb = supabaseClient(srv.url);
    expect((await sb.auth.signInWithOtp({ email })).error).toBeNull();
    const { code } = await lastEmail(srv.url, email);
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) {
      const r = await sb.auth.verifyOtp({ email, token: wrong, type: 'email' });
      expect(r.error?.code).toBe('otp_expired');
      expect(r.error?.message).toBe('Token has expired or is invalid');
    }
    expect((await sb.auth.verifyOtp({ email, token: code, type: 'email' })).error?.code).toBe('otp_expired');
  });

  it('shouldCreateUser: false creates no account and sends nothing, answering as for an account', async () => {
    const email = uniqueEmail('ghost');
    const { error } = await supabaseClient(srv.url).auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    expect(error).toBeNull();
    expect(await outbox(srv.url, email)).toEqual([]);
    expect((await srv.services.db.query('SELECT 1 FROM looptale_auth.users WHERE email = $1', [email])).rows).toEqual([]);
  });

  it('password reset through the outbox, then sign-in with the new password', async () => {
    const email = uniqueEmail('reset');
    const sb = supabaseClient(srv.url);
    expect((await sb.auth.signUp({ email, password: PASSWORD })).error).toBeNull();
    const reset = await supabaseClient(srv.url).auth.resetPasswordForEmail(email, { redirectTo: APP_URL });
    expect(reset.error).toBeNull();
    const mail = await lastEmail(srv.url, email, 'recovery');
    const hop = await follow(mail.link);
    const f = fragment(hop.location);
    expect(hop.location.startsWith(`${APP_URL}#`)).toBe(true);
    expect(f.type).toBe('recovery');
    const browser = supabaseClient(srv.url);
    expect((await browser.auth.setSession({ access_token: f.access_token!, refresh_token: f.refresh_token! })).error).toBeNull();
    expect((await browser.auth.updateUser({ password: 'a new secret phrase' })).error).toBeNull();
    // The session from before the reset is signed out by the password change.
    expect((await getUserRaw(srv.url, (await sb.auth.getSession()).data.session!.access_token)).body.error_code).toBe('session_not_found');
    expect((await supabaseClient(srv.url).auth.signInWithPassword({ email, password: PASSWORD })).error?.message).toBe('Invalid login credentials');
    expect((await supabaseClient(srv.url).auth.signInWithPassword({ email, password: 'a new secret phrase' })).error).toBeNull();
  });

  it("recovery also works through verifyOtp with the token_hash (type 'recovery')", async () => {
    const email = uniqueEmail('reset2');
    expect((await supabaseClient(srv.url).auth.signUp({ email, password: PASSWORD })).error).toBeNull();
    expect((await supabaseClient(srv.url).auth.resetPasswordForEmail(email)).error).toBeNull();
    const sb = supabaseClient(srv.url);
    const v = await sb.auth.verifyOtp({ token_hash: (await lastEmail(srv.url, email, 'recovery')).token_hash, type: 'recovery' });
    expect(v.error).toBeNull();
    expect((await sb.auth.updateUser({ password: 'yet another passphrase' })).error).toBeNull();
    expect((await supabaseClient(srv.url).auth.signInWithPassword({ email, password: 'yet another passphrase' })).error).toBeNull();
  });

  it("reset with an empty email says 'Please enter your email address'; an unknown email answers the same as a known one", async () => {
    const empty = await supabaseClient(srv.url).auth.resetPasswordForEmail('');
    expect(empty.error?.message).toBe('Please enter your email address');
    expect(empty.error?.status).toBe(400);
    const unknown = uniqueEmail('unknown');
    expect((await supabaseClient(srv.url).auth.resetPasswordForEmail(unknown)).error).toBeNull();
    expect(await outbox(srv.url, unknown)).toEqual([]);
  });

  it('limits the emails sent to one address', async () => {
    const email = uniqueEmail('flood');
    const results: (string | null)[] = [];
    for (let i = 0; i < 6; i++) results.push((await supabaseClient(srv.url).auth.resetPasswordForEmail(email)).error?.code ?? null);
    expect(results.slice(0, 5)).toEqual([null, null, null, null, null]);
    expect(results[5]).toBe('over_email_send_rate_limit');
  });

  it('a redirect_to outside the allowed origins falls back to the site URL', async () => {
    const email = uniqueEmail('evil');
    expect((await supabaseClient(srv.url).auth.signInWithOtp({ email, options: { emailRedirectTo: 'https://evil.example/steal' } })).error).toBeNull();
    const hop = await follow((await lastEmail(srv.url, email)).link);
    expect(hop.location.startsWith(`${srv.url}/#access_token=`)).toBe(true);
    // And a tampered link is refused the same way.
    const tampered = new URL((await lastEmail(srv.url, email)).link);
    tampered.searchParams.set('redirect_to', 'https://evil.example/');
    expect((await follow(tampered.toString())).location.startsWith(`${srv.url}/#`)).toBe(true);
  });

  it('PKCE: the link redirects with ?code= and exchangeCodeForSession completes the sign-in', async () => {
    const email = uniqueEmail('pkce');
    const sb = supabaseClient(srv.url, 'pkce');
    expect((await sb.auth.signInWithOtp({ email, options: { emailRedirectTo: APP_URL } })).error).toBeNull();
    const hop = await follow((await lastEmail(srv.url, email)).link);
    const u = new URL(hop.location);
    expect(`${u.origin}${u.pathname}`).toBe(APP_URL);
    expect(u.hash).toBe('');
    const code = u.searchParams.get('code')!;
    const x = await sb.auth.exchangeCodeForSession(code);
    expect(x.error).toBeNull();
    expect(x.data.session?.user.email).toBe(email);
    expect((await sb.auth.getUser()).data.user?.email).toBe(email);
    // A code works once.
    expect((await supabaseClient(srv.url, 'pkce').auth.exchangeCodeForSession(code)).error).not.toBeNull();
  });

  it('the dev outbox lists messages per address with their links and codes', async () => {
    const email = uniqueEmail('list');
    await supabaseClient(srv.url).auth.signInWithOtp({ email });
    const list = await outbox(srv.url, email);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ to: email, type: 'magiclink', subject: 'Your Looptale sign-in link' });
    expect(srv.logs.some((l) => l.includes('email queued to the dev outbox'))).toBe(true);
  });
});

describe('EMAIL_CONFIRMATION on', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ EMAIL_CONFIRMATION: 'true', DEV_OUTBOX: 'true' });
  });
  afterAll(async () => {
    await srv.close();
  });

  it('sign-up returns the user without a session and sends a confirmation email; sign-in waits for it', async () => {
    const email = uniqueEmail('confirm');
    const sb = supabaseClient(srv.url);
    const { data, error } = await sb.auth.signUp({ email, password: PASSWORD, options: { emailRedirectTo: APP_URL } });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.email_confirmed_at).toBeUndefined();
    expect(data.user?.confirmation_sent_at).toBeTruthy();
    const early = await supabaseClient(srv.url).auth.signInWithPassword({ email, password: PASSWORD });
    expect(early.error?.code).toBe('email_not_confirmed');
    expect(early.error?.message).toBe('Email not confirmed');
    const mail = await lastEmail(srv.url, email, 'signup');
    expect(mail.subject).toBe('Confirm your Looptale account');
    const hop = await follow(mail.link);
    expect(fragment(hop.location)).toMatchObject({ type: 'signup', token_type: 'bearer' });
    const ok = await supabaseClient(srv.url).auth.signInWithPassword({ email, password: PASSWORD });
    expect(ok.error).toBeNull();
    expect(ok.data.user?.email_confirmed_at).toBeTruthy();
  });

  it('a sign-up for an address with a confirmed account reveals nothing and sends nothing', async () => {
    const email = uniqueEmail('known');
    await supabaseClient(srv.url).auth.signUp({ email, password: PASSWORD });
    await follow((await lastEmail(srv.url, email, 'signup')).link);
    const before = (await outbox(srv.url, email)).length;
    const again = await supabaseClient(srv.url).auth.signUp({ email, password: 'another password' });
    expect(again.error).toBeNull();
    expect(again.data.session).toBeNull();
    expect(again.data.user?.identities).toEqual([]);
    expect((await outbox(srv.url, email)).length).toBe(before);
    expect((await supabaseClient(srv.url).auth.signInWithPassword({ email, password: 'another password' })).error?.message).toBe('Invalid login credentials');
  });

  it('an email change waits for the link sent to the new address', async () => {
    const email = uniqueEmail('old');
    const newEmail = uniqueEmail('new');
    const sb = supabaseClient(srv.url);
    await sb.auth.signUp({ email, password: PASSWORD });
    await follow((await lastEmail(srv.url, email, 'signup')).link);
    expect((await sb.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
    const upd = await sb.auth.updateUser({ email: newEmail });
    expect(upd.error).toBeNull();
    expect(upd.data.user?.email).toBe(email);
    expect(upd.data.user?.new_email).toBe(newEmail);
    const v = await sb.auth.verifyOtp({ token_hash: (await lastEmail(srv.url, newEmail, 'email_change')).token_hash, type: 'email_change' });
    expect(v.error).toBeNull();
    expect(v.data.user?.email).toBe(newEmail);
    expect(v.data.user?.new_email).toBeUndefined();
    expect((await supabaseClient(srv.url).auth.signInWithPassword({ email: newEmail, password: PASSWORD })).error).toBeNull();
  });

  it('resend() sends a new confirmation link and the old one stops working', async () => {
    const email = uniqueEmail('resend');
    await supabaseClient(srv.url).auth.signUp({ email, password: PASSWORD });
    const first = await lastEmail(srv.url, email, 'signup');
    expect((await supabaseClient(srv.url).auth.resend({ type: 'signup', email, options: { emailRedirectTo: APP_URL } })).error).toBeNull();
    const second = await lastEmail(srv.url, email, 'signup');
    expect(second.token_hash).not.toBe(first.token_hash);
    expect(fragment((await follow(first.link)).location).error_code).toBe('otp_expired');
    expect(fragment((await follow(second.link)).location).type).toBe('signup');
    expect((await supabaseClient(srv.url).auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
  });

  it('GET /settings says confirmations are on', async () => {
    expect(await (await fetch(`${srv.url}/auth/v1/settings`)).json()).toMatchObject({ mailer_autoconfirm: false });
  });
});

describe('SMTP delivery', () => {
  it('sends the magic link through SMTP_URL (with AUTH), and the dev outbox is off', async () => {
    const smtp = await startFakeSmtp();
    const srv = await startTestServer({ SMTP_URL: smtp.url('mailer', 'p@ss word'), SMTP_FROM: 'Looptale <auth@looptale.test>' });
    try {
      const email = uniqueEmail('smtp');
      const arrived = smtp.next();
      expect((await supabaseClient(srv.url).auth.signInWithOtp({ email, options: { emailRedirectTo: APP_URL } })).error).toBeNull();
      const m = await arrived;
      expect(m.from).toBe('auth@looptale.test');
      expect(m.to).toEqual([email]);
      expect(m.auth).toBe('mailer:p@ss word');
      expect(m.data).toContain('Subject: Your Looptale sign-in link');
      const text = plainText(m.data);
      const link = /(http:\/\/\S+\/auth\/v1\/verify\?\S+)/.exec(text)?.[1];
      expect(link).toBeTruthy();
      const f = fragment((await follow(link!)).location);
      expect(claimsOf(f.access_token!).email).toBe(email);
      expect((await fetch(`${srv.url}/dev/outbox?email=${encodeURIComponent(email)}`)).status).toBe(404);
      expect(srv.logs.some((l) => l.includes('email sent through SMTP'))).toBe(true);
    } finally {
      await srv.close();
      await smtp.close();
    }
  });

  it('an SMTP failure is a clear 500 and the log says why without the link', async () => {
    const smtp = await startFakeSmtp();
    await smtp.close();
    const srv = await startTestServer({ SMTP_URL: smtp.url() });
    try {
      const { error } = await supabaseClient(srv.url).auth.signInWithOtp({ email: uniqueEmail('down') });
      expect(error?.status).toBe(500);
      expect(error?.message).toBe('Error sending the email: try again in a moment.');
      const line = srv.logs.find((l) => l.includes('sending an email failed'));
      expect(line).toContain('SMTP connection');
      expect(line).not.toContain('verify?token');
    } finally {
      await srv.close();
    }
  });
});

describe('dev outbox off in production', () => {
  it('GET /dev/outbox is 404 when DEV_OUTBOX is not set', async () => {
    const srv = await startTestServer({ NODE_ENV: 'production' });
    try {
      expect((await fetch(`${srv.url}/dev/outbox`)).status).toBe(404);
      const email = uniqueEmail('prod');
      expect((await supabaseClient(srv.url).auth.signInWithOtp({ email })).error).toBeNull();
      expect(srv.logs.some((l) => l.includes('email not sent: set SMTP_URL'))).toBe(true);
    } finally {
      await srv.close();
    }
  });
});
