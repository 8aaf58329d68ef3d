// The web shell in real Chromium against a real server: signing up and in through the modal (password and magic link
// through the dev outbox), the pending story, an invitation, the route table's redirects, the error screen, and
// axe-core on the sign-in view and the catalogues.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueInvitation } from '../../server/auth/waitlist.js';
import { expectAccessible } from './axe.js';
import { freshEmail, type Harness, lastEmail, PASSWORD, PHONE, signUp, startHarness } from './harness.js';

const LANTERN = '8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 180_000);
afterAll(async () => h?.close());

function path(page: Page): string {
  const u = new URL(page.url());
  return `${u.pathname}${u.search}`;
}

async function waitForPath(page: Page, expected: string | RegExp): Promise<void> {
  await page.waitForURL((u) => (typeof expected === 'string' ? `${u.pathname}${u.search}` === expected : expected.test(`${u.pathname}${u.search}`)), { timeout: 15_000 });
}

describe('sign-in modal', { timeout: 90_000 }, () => {
  it('signs a newcomer up with a password and lands on the personal catalogue, signed in', async () => {
    const page = await h.newPage();
    await page.goto(`${h.url}/browse`);
    await page.getByTestId('public-catalogue').waitFor();
    await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign in to Looptale' });
    await dialog.waitFor();
    // Magic link is the default on the web; the password form is one click away.
    await expect(dialog.getByRole('button', { name: 'Email me a sign-in link' }).isVisible()).resolves.toBe(true);
    await dialog.getByRole('button', { name: 'Use a password instead' }).click();
    await dialog.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByRole('dialog', { name: 'Create your Looptale account' }).waitFor();
    const email = freshEmail('signup');
    await page.getByLabel('Email').fill(email);
    const password = page.getByLabel('Password', { exact: true });
    await password.fill(PASSWORD);
    // Show/Hide
    expect(await password.getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await password.getAttribute('type')).toBe('text');
    expect(await page.getByRole('button', { name: 'Hide password' }).textContent()).toBe('Hide');
    // The button reads 'Loading...' and is disabled while the request is in flight.
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/auth/v1/signup*', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Sign Up', exact: true }).last().click();
    const busy = page.getByRole('button', { name: 'Loading...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    release();
    await page.getByTestId('personal-catalogue').waitFor();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(path(page)).toBe('/browse');
    await page.getByRole('heading', { name: 'Trending Now' }).waitFor();
    await page.getByRole('button', { name: /Profile menu/ }).click();
    await page.getByRole('menu').getByText(email).waitFor();
    await page.context().close();
  });

  it('signs in by magic link through the dev outbox: Sending..., Check your email!, the link, then the pending story', async () => {
    const account = await signUp(h.url, freshEmail('magic'));
    const page = await h.newPage({ viewport: PHONE });
    await page.goto(`${h.url}/browse`);
    // A card opens the modal (its story becomes the pending story).
    await page.locator(`[data-story-id="${LANTERN}"]`).click();
    const dialog = page.getByRole('dialog', { name: 'Sign in to Looptale' });
    await dialog.waitFor();
    await page.getByLabel('Email').fill(account.email);
    // Hold the request a moment to see the button while it is in flight.
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/auth/v1/otp*', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    const busy = page.getByRole('button', { name: 'Sending...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    release();
    await page.getByRole('dialog', { name: 'Check your email!' }).waitFor();
    await page.getByText(`We sent a sign-in link to ${account.email}`, { exact: false }).waitFor();
    // 'Try a different email' goes back with the address cleared; sending again works.
    await page.getByRole('button', { name: 'Try a different email' }).click();
    expect(await page.getByLabel('Email').inputValue()).toBe('');
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByRole('dialog', { name: 'Check your email!' }).waitFor();
    const mail = await lastEmail(h.url, account.email, 'magiclink');
    expect(mail.link).toContain('/auth/v1/verify');
    await page.goto(mail.link);
    await waitForPath(page, `/launch/${LANTERN}`);
    await page.getByRole('button', { name: 'START' }).click();
    await page.getByTestId('launch-buttons').waitFor();
    expect(await page.getByRole('heading', { name: 'The Lantern Keeper' }).isVisible()).toBe(true);
    await page.context().close();
  });

  it('an invitation opens the modal in password sign-up and is redeemed after sign-up', async () => {
    const page = await h.newPage();
    const redeemed = page.waitForResponse((r) => r.url().endsWith('/marketing/waitlist_redeem') && r.request().method() === 'POST');
    const email = freshEmail('invited');
    await page.goto(`${h.url}/signup?invite_token=${await issueInvitation(h.server.services.db, email)}`);
    const dialog = page.getByRole('dialog', { name: 'Create your Looptale account' });
    await dialog.waitFor();
    await dialog.getByText('You were invited', { exact: false }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Email me a sign-in link instead' }).count()).toBe(0);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Sign Up', exact: true }).last().click();
    const res = await redeemed;
    expect(res.status()).toBe(201);
    expect(res.request().headers()['content-type']).toContain('application/x-www-form-urlencoded');
    await waitForPath(page, '/browse');
    await page.getByTestId('personal-catalogue').waitFor();
    await page.context().close();
  });

  it('forgot password: the empty address is refused, then the reset is sent; the native wrapper defaults to passwords', async () => {
    const account = await signUp(h.url, freshEmail('reset'));
    const page = await h.newPage({ viewport: PHONE });
    await page.goto(`${h.url}/login?native=1`);
    const dialog = page.getByRole('dialog', { name: 'Sign in to Looptale' });
    await dialog.getByLabel('Password', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByRole('dialog', { name: 'Reset your password' }).waitFor();
    await page.getByRole('button', { name: 'Send reset instructions' }).click();
    await page.getByRole('alert').getByText('Please enter your email address').waitFor();
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('button', { name: 'Send reset instructions' }).click();
    await page.getByText('Password reset instructions sent to your email! Click the link to reset your password directly in the app.').waitFor();
    expect((await lastEmail(h.url, account.email, 'recovery')).link).toContain('type=recovery');
    await page.getByRole('button', { name: 'Back to Login' }).click();
    await page.getByRole('dialog', { name: 'Sign in to Looptale' }).waitFor();
    await page.context().close();
  });

  it('shows an auth error in the modal (wrong password) and keeps the player on the form', async () => {
    const account = await signUp(h.url, freshEmail('wrong'));
    const page = await h.newPage();
    await page.goto(`${h.url}/login`);
    await page.getByRole('button', { name: 'Use a password instead' }).click();
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill('not the password at all');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/invalid/i);
    expect(path(page)).toBe('/login');
    await page.context().close();
  });

  it('offers Google only when the server has it configured', async () => {
    const page = await h.newPage();
    const settings = page.waitForResponse((r) => r.url().endsWith('/auth/v1/settings'));
    await page.goto(`${h.url}/login`);
    await page.getByRole('dialog').waitFor();
    await settings;
    expect(await page.getByRole('button', { name: 'Continue with Google' }).count()).toBe(0);
    await page.context().close();
    const google = await startHarness({ env: { GOOGLE_CLIENT_ID: 'test-client', GOOGLE_CLIENT_SECRET: 'test-secret' } });
    try {
      const p = await google.newPage();
      await p.goto(`${google.url}/login`);
      await p.getByRole('button', { name: 'Continue with Google' }).waitFor();
    } finally {
      await google.close();
    }
  });
});

describe('routes (accounts spec §2)', { timeout: 90_000 }, () => {
  it('signed out: / and /game go to the catalogue keeping the query; signed-in routes and unknown paths go to /login', async () => {
    const page = await h.newPage();
    await page.goto(`${h.url}/?utm=1`);
    await waitForPath(page, '/browse?utm=1');
    await page.getByTestId('public-catalogue').waitFor();
    await page.goto(`${h.url}/game?from=mail`);
    await waitForPath(page, '/browse?from=mail');
    for (const p of [`/launch/${LANTERN}`, '/game/00000000-0000-4000-8000-000000000000', '/my-profile', '/admin', '/no-such-page']) {
      await page.goto(`${h.url}${p}`);
      await waitForPath(page, '/login');
      await page.getByRole('dialog', { name: 'Sign in to Looptale' }).waitFor();
    }
    // Closing the sign-in view goes to the catalogue.
    await page.getByRole('button', { name: 'Close' }).click();
    await waitForPath(page, '/browse');
    await page.context().close();
  });

  it('signed in: / to /browse, the admin area loads on demand, an unknown path shows the error screen, /login says who', async () => {
    const account = await signUp(h.url);
    const page = await h.newPage({ signedInAs: account });
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.goto(`${h.url}/`);
    await waitForPath(page, '/browse');
    await page.getByTestId('personal-catalogue').waitFor();
    expect(scripts.some((s) => s.includes('admin-area'))).toBe(false);
    await page.goto(`${h.url}/admin`);
    // A player is told the studio is for authors.
    await page.getByTestId('studio-authors-only').getByText('The studio is for story makers.', { exact: false }).waitFor();
    expect(scripts.some((s) => s.includes('admin-area'))).toBe(true);
    await page.goto(`${h.url}/no-such-page`);
    await page.getByRole('heading', { name: 'Unexpected Application Error!' }).waitFor();
    await page.getByText('404 Not Found').waitFor();
    await page.goto(`${h.url}/login`);
    await page.getByText(`Signed in as ${account.email}`).waitFor();
    await page.context().close();
  });

  it('a launch screen asked for while signed out comes back after signing in', async () => {
    const account = await signUp(h.url, freshEmail('pending'));
    const page = await h.newPage();
    await page.goto(`${h.url}/launch/${LANTERN}`);
    await waitForPath(page, '/login');
    await page.getByRole('button', { name: 'Use a password instead' }).click();
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await waitForPath(page, `/launch/${LANTERN}`);
    await page.getByRole('button', { name: 'START' }).click();
    await page.getByTestId('launch-buttons').waitFor();
    expect(await page.getByTestId('launch-buttons').getAttribute('data-state')).toBe('FRESH');
    await page.context().close();
  });
});

describe('accessibility (axe-core: no serious or critical violation)', { timeout: 90_000 }, () => {
  it('the sign-in view in each mode, and both catalogues, on phone and desktop', async () => {
    const account = await signUp(h.url);
    for (const viewport of [PHONE, { width: 1440, height: 900 }]) {
      const page = await h.newPage({ viewport });
      await page.goto(`${h.url}/login`);
      await page.getByRole('dialog').waitFor();
      await expectAccessible(page, '/login (magic link)');
      await page.getByRole('button', { name: 'Use a password instead' }).click();
      await expectAccessible(page, '/login (password)');
      await page.getByRole('button', { name: 'Forgot your password?' }).click();
      await expectAccessible(page, '/login (forgot password)');
      await page.goto(`${h.url}/browse`);
      await page.getByTestId('story-card').first().waitFor();
      await expectAccessible(page, '/browse (public)');
      await page.context().close();
      const signedIn = await h.newPage({ viewport, signedInAs: account });
      await signedIn.goto(`${h.url}/browse`);
      await signedIn.getByTestId('story-card').first().waitFor();
      await expectAccessible(signedIn, '/browse (personal)');
      await signedIn.getByRole('button', { name: /Profile menu/ }).click();
      await expectAccessible(signedIn, '/browse (profile menu open)');
      await signedIn.context().close();
    }
  });
});

describe('keyboard, motion and small screens', { timeout: 90_000 }, () => {
  it('reaches a story card by keyboard, opens the modal with Enter, traps focus, and Escape gives focus back', async () => {
    const page = await h.newPage();
    await page.goto(`${h.url}/browse`);
    await page.getByTestId('story-card').first().waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    let onCard = false;
    for (let i = 0; i < 10 && !onCard; i++) {
      await page.keyboard.press('Tab');
      onCard = await page.evaluate(() => document.activeElement?.getAttribute('data-testid') === 'story-card');
    }
    expect(onCard).toBe(true);
    // Visible focus: the focused card draws an outline.
    expect(await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle)).toBe('solid');
    const cardName = await page.evaluate(() => document.activeElement?.getAttribute('data-story-id'));
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Sign in to Looptale' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
    for (let i = 0; i < 6; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-story-id'))).toBe(cardName);
    await page.context().close();
  });

  it('tilts a card on hover (8 degrees at most, 1.05, 300 ms), and not at all with reduced motion', async () => {
    const page = await h.newPage();
    await page.goto(`${h.url}/browse`);
    const card = page.locator('.tilt-card').first();
    await card.waitFor();
    const box = await card.boundingBox();
    if (!box) throw new Error('no card box');
    await page.mouse.move(box.x + box.width * 0.95, box.y + box.height * 0.05);
    await page.waitForTimeout(400);
    const tilted = await card.evaluate((el) => ({ x: el.style.getPropertyValue('--tilt-x'), y: el.style.getPropertyValue('--tilt-y'), t: getComputedStyle(el).transitionDuration, m: getComputedStyle(el).transform }));
    expect(Math.abs(parseFloat(tilted.y))).toBeGreaterThan(6);
    expect(Math.abs(parseFloat(tilted.y))).toBeLessThanOrEqual(8);
    expect(Math.abs(parseFloat(tilted.x))).toBeLessThanOrEqual(8);
    expect(tilted.t.split(',')[0]).toBe('0.3s');
    expect(tilted.m).not.toBe('none');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.reload();
    await card.waitFor();
    await page.mouse.move(box.x + box.width * 0.95, box.y + box.height * 0.05);
    await page.waitForTimeout(100);
    expect(await card.evaluate((el) => getComputedStyle(el).transform)).toBe('none');
    await page.context().close();
  });

  it('fits a 360 px phone: no horizontal scrolling on the catalogue, the sign-in view and the launch screen', async () => {
    const account = await signUp(h.url);
    for (const [p, signedIn] of [['/browse', false], ['/login', false], ['/browse', true], [`/launch/${LANTERN}`, true]] as const) {
      const page = await h.newPage({ viewport: { width: 360, height: 740 }, ...(signedIn ? { signedInAs: account } : {}) });
      await page.goto(`${h.url}${p}`);
      await page.waitForLoadState('networkidle');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, p).toBeLessThanOrEqual(0);
      await page.context().close();
    }
  });
});

