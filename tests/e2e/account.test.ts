// /my-profile, /settings, /share-feedback and the admin area in real Chromium against a real server (issue #9 phase
// 2): the profile's email, runs and ranks per story and a password change (then signing in with it); settings kept in
// the browser and applied at once; feedback stored on the server (validated, rate-limited) and listed to an admin;
// the admin area's flow graph for an admin and refused to a player; /privacy.html and /terms.html; axe on each. ~40 s.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../../cli/lib/game-client.js';
import { expectAccessible } from './axe.js';
import { type Harness, PHONE, signUp, startHarness } from './harness.js';

const LANTERN = '8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 180_000);
afterAll(async () => h?.close());

describe('account pages, feedback and the admin area', { timeout: 120_000 }, () => {
  it('my profile: the email, runs and ranks per story, and a password change that then signs in', async () => {
    const account = await signUp(h.url);
    await new Api(h.url, account.session.access_token).createRun(LANTERN, 'english');
    const page = await h.newPage({ signedInAs: account, viewport: PHONE });
    await page.goto(`${h.url}/my-profile`);
    await expect(page.getByTestId('profile-email').textContent()).resolves.toBe(account.email);
    const row = page.getByTestId('profile-runs').getByRole('row', { name: /The Lantern Keeper/ });
    await row.waitFor();
    await expect(row.textContent()).resolves.toMatch(/The Lantern Keeper1—0\d+ \/ \d+/);
    await expectAccessible(page, '/my-profile');
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Repeat the new password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await page.getByRole('alert').filter({ hasText: 'Use at least 8 characters.' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
    await page.getByLabel('Repeat the new password', { exact: true }).fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await page.getByText('Your password has been changed.').waitFor();
    await expect(new Api(h.url).signIn(account.email, 'a brand new passphrase')).resolves.toMatchObject({ user: { email: account.email } });
  });

  it('my profile, Your data: downloads the export, and deletes the account after the email is typed again', async () => {
    const account = await signUp(h.url);
    await new Api(h.url, account.session.access_token).createRun(LANTERN, 'english');
    const page = await h.newPage({ signedInAs: account, acceptDownloads: true });
    await page.goto(`${h.url}/my-profile`);
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download my data' }).click();
    const file = await downloading;
    expect(file.suggestedFilename()).toBe('looptale-data.json');
    const data = JSON.parse(readFileSync((await file.path()), 'utf8')) as { account: { email: string }; tables: Record<string, unknown[]> };
    expect(data.account.email).toBe(account.email);
    expect(data.tables['public.player_stories']).toHaveLength(1);
    await page.getByLabel('Type your email address to confirm').fill('someone-else@example.com');
    await page.getByRole('button', { name: 'Delete my account for good' }).click();
    await page.getByRole('alert').filter({ hasText: 'Type the email address of this account' }).waitFor();
    await expect(new Api(h.url).signIn(account.email, account.password)).resolves.toMatchObject({ user: { email: account.email } });
    await page.getByLabel('Type your email address to confirm').fill(account.email);
    await page.getByRole('button', { name: 'Delete my account for good' }).click();
    await page.waitForURL(`${h.url}/`);
    await expect(new Api(h.url).signIn(account.email, account.password)).rejects.toThrow();
    expect((await fetch(`${h.url}/api/me`, { headers: { authorization: `Bearer ${account.session.access_token}` } })).status).toBe(401);
  });

  it('settings: volume (default 100%), language and motion, kept in the browser and applied at once', async () => {
    const page = await h.newPage({ signedInAs: await signUp(h.url) });
    await page.goto(`${h.url}/settings`);
    await expect(page.getByTestId('volume-value').textContent()).resolves.toBe('100%');
    await page.getByLabel('Volume').fill('40');
    await expect(page.getByTestId('volume-value').textContent()).resolves.toBe('40%');
    await page.getByLabel('Game language').selectOption('french');
    await page.getByLabel('Reduce motion').check();
    await expect(page.evaluate(() => document.documentElement.dataset.reducedMotion)).resolves.toBe('on');
    const saved = JSON.parse((await page.evaluate(() => localStorage.getItem('looptale:settings'))) ?? '{}') as Record<string, unknown>;
    expect(saved).toEqual({ volume: 0.4, language: 'french', reducedMotion: 'on' });
    await expectAccessible(page, '/settings');
    await page.reload();
    await expect(page.getByTestId('volume-value').textContent()).resolves.toBe('40%');
  });

  it('feedback is validated, stored, rate-limited and listed to an admin only; the flow graph is for admins', async () => {
    const player = await signUp(h.url);
    const page = await h.newPage({ signedInAs: player });
    await page.goto(`${h.url}/share-feedback`);
    await page.getByRole('button', { name: 'Send feedback' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please write a message.' }).waitFor();
    await page.getByLabel('A problem').check();
    await page.getByLabel('Your message').fill('The lighthouse keeper talks too fast.');
    await expectAccessible(page, '/share-feedback');
    await page.getByRole('button', { name: 'Send feedback' }).click();
    await page.getByTestId('feedback-sent').waitFor();
    const api = new Api(h.url, player.session.access_token);
    // The server refuses what the form would not send, and a flood.
    await expect(api.request('POST', '/api/feedback', { kind: 'idea', message: '   ' })).rejects.toMatchObject({ status: 400 });
    await expect(api.request('POST', '/api/feedback', { kind: 'idea', message: 'x'.repeat(4001) })).rejects.toMatchObject({ status: 400 });
    await expect(api.request('POST', '/api/feedback', { kind: 'bug', message: 'hi' })).rejects.toMatchObject({ status: 400 });
    for (let i = 0; i < 4; i++) await api.sendFeedback({ kind: 'other', message: `note ${i}` });
    await expect(api.sendFeedback({ kind: 'other', message: 'one too many' })).rejects.toMatchObject({ status: 429 });
    await expect(api.adminFeedback()).rejects.toMatchObject({ status: 403 });
    await expect(api.storyGraph(LANTERN)).rejects.toMatchObject({ status: 403 });
    expect(await api.me()).toMatchObject({ role: 'player', is_admin: false });

    const admin = await signUp(h.url);
    await h.server.services.authors.grantAdmin(admin.session.user.id);
    const adminPage = await h.newPage({ signedInAs: admin });
    await adminPage.goto(`${h.url}/admin/feedback`);
    const list = adminPage.getByTestId('admin-feedback');
    await list.getByText('The lighthouse keeper talks too fast.').waitFor();
    await expect(list.getByRole('listitem').count()).resolves.toBe(5);
    await expectAccessible(adminPage, '/admin/feedback');
    await adminPage.goto(`${h.url}/admin/stories/${LANTERN}/flow`);
    const graph = adminPage.getByTestId('flow-canvas');
    await graph.waitFor();
    const moments = (await new Api(h.url, admin.session.access_token).story(LANTERN)).moments.length;
    await expect.poll(() => graph.getByTestId('flow-node').count(), { timeout: 30_000 }).toBe(moments);
    await graph.getByTestId('flow-node').first().click();
    await adminPage.getByTestId('flow-side').waitFor();
    await expectAccessible(adminPage, '/admin flow');
    // Admins find the studio in the profile menu.
    await adminPage.getByRole('button', { name: /Profile menu/ }).click();
    await adminPage.getByRole('menuitem', { name: 'Studio' }).click();
    await adminPage.waitForURL((u) => u.pathname === '/admin');
    // A player sees none of the studio, and no Studio item in the profile menu.
    await page.goto(`${h.url}/admin`);
    await page.getByTestId('studio-authors-only').waitFor();
    await expect(page.getByTestId('stories-page').count()).resolves.toBe(0);
    await page.getByRole('button', { name: /Profile menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).waitFor();
    await expect(page.getByRole('menuitem', { name: 'Studio' }).count()).resolves.toBe(0);
    // An author finds the studio in the menu and sees the stories list, but not the feedback tab.
    const author = await signUp(h.url);
    await h.server.services.authors.setRole(author.session.user.id, 'author');
    expect(await new Api(h.url, author.session.access_token).me()).toMatchObject({ role: 'author', is_admin: false });
    const authorPage = await h.newPage({ signedInAs: author });
    await authorPage.goto(`${h.url}/browse`);
    await authorPage.getByRole('button', { name: /Profile menu/ }).click();
    await authorPage.getByRole('menuitem', { name: 'Studio' }).click();
    // A new author has no story yet: the studio says how to start one.
    await authorPage.getByTestId('stories-page').getByText('No stories yet: start one from nothing or from a template, or import a story file.').waitFor();
    await expect(authorPage.getByRole('link', { name: 'Feedback' }).count()).resolves.toBe(0);
    await authorPage.context().close();
  });

  it('fits a 360 px phone: no horizontal scrolling on the profile, settings, feedback and admin pages', async () => {
    const account = await signUp(h.url);
    const page = await h.newPage({ signedInAs: account, viewport: { width: 360, height: 740 } });
    for (const p of ['/my-profile', '/settings', '/share-feedback', '/admin', `/admin/stories/${LANTERN}`]) {
      await page.goto(`${h.url}${p}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), p).toBeLessThanOrEqual(360);
    }
  });

  it('serves /privacy.html and /terms.html as real pages', async () => {
    const page = await h.newPage({ viewport: PHONE });
    for (const [path, title] of [['/privacy.html', 'Privacy'], ['/terms.html', 'Terms of use']] as const) {
      const res = await page.goto(`${h.url}${path}`);
      expect(res?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(title);
      await expectAccessible(page, path);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    }
  });
});
