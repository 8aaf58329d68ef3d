// Screens of the web shell and sign-in (phase 1 of issue #9): public and personal catalogue frames, every mode of the
// sign-in modal, the top bar's menus, the launch frame, the admin area and the error screen.
import type { Shot } from '../screenshots.js';

export const LANTERN = '8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a';

export const shots: Shot[] = [
  {
    name: 'browse-public',
    setup: async (page, { harness }) => {
      await page.goto(`${harness.url}/browse`);
      await page.getByTestId('story-card').first().waitFor();
    },
  },
  {
    name: 'browse-public-full',
    fullPage: true,
    setup: async (page, { harness }) => {
      await page.goto(`${harness.url}/browse`);
      await page.getByTestId('story-card').first().waitFor();
    },
  },
  {
    name: 'signin-from-card',
    setup: async (page, { harness }) => {
      await page.goto(`${harness.url}/browse`);
      await page.getByTestId('story-card').first().click();
      await page.getByRole('dialog').waitFor();
    },
  },
  {
    name: 'login-magic',
    setup: async (page, { harness }) => {
      await page.goto(`${harness.url}/login`);
      await page.getByRole('dialog').waitFor();
    },
  },
  {
    name: 'login-check-email',
    setup: async (page, { harness }) => {
      await page.goto(`${harness.url}/login`);
      await page.getByLabel('Email').fill('someone@example.com');
      await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
      await page.getByText('Check your email!').waitFor();
    },
  },
  {
    name: 'login-password',
    setup: async (page, { harness }) => {
      await page.goto(`${harness.url}/login`);
      await page.getByRole('button', { name: 'Use a password instead' }).click();
      await page.getByLabel('Email').fill('someone@example.com');
      await page.getByLabel('Password', { exact: true }).fill('a long password');
    },
  },
  {
    name: 'signup',
    setup: async (page, { harness }) => {
      await page.goto(`${harness.url}/login`);
      await page.getByRole('button', { name: 'Use a password instead' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Sign Up' }).click();
      await page.getByRole('dialog', { name: 'Create your Looptale account' }).waitFor();
    },
  },
  {
    name: 'signup-invite',
    setup: async (page, { harness }) => {
      await page.goto(`${harness.url}/signup?invite_token=invite-123`);
      await page.getByRole('dialog').waitFor();
    },
  },
  {
    name: 'login-forgot',
    setup: async (page, { harness }) => {
      await page.goto(`${harness.url}/login`);
      await page.getByRole('button', { name: 'Use a password instead' }).click();
      await page.getByRole('button', { name: 'Forgot your password?' }).click();
      await page.getByRole('button', { name: 'Send reset instructions' }).click();
      await page.getByText('Please enter your email address').waitFor();
    },
  },
  {
    name: 'browse-personal',
    signedIn: true,
    setup: async (page, { harness }) => {
      await page.goto(`${harness.url}/browse`);
      await page.getByTestId('story-card').first().waitFor();
    },
  },
  {
    name: 'profile-menu',
    signedIn: true,
    setup: async (page, { harness }) => {
      await page.goto(`${harness.url}/browse`);
      await page.getByRole('button', { name: /Profile menu/ }).click();
      await page.getByRole('menu').waitFor();
    },
  },
  {
    name: 'tickets-modal',
    signedIn: true,
    setup: async (page, { harness }) => {
      await page.goto(`${harness.url}/browse`);
      await page.getByTestId('ticket-button').click();
      await page.getByText('No Golden Tickets Yet', { exact: false }).waitFor();
    },
  },
  {
    name: 'launch',
    signedIn: true,
    setup: async (page, { harness }) => {
      await page.goto(`${harness.url}/launch/${LANTERN}`);
      await page.getByRole('button', { name: 'START' }).click();
      await page.getByTestId('launch-buttons').waitFor();
    },
  },
  {
    name: 'admin',
    signedIn: true,
    setup: async (page, { harness }) => {
      await page.goto(`${harness.url}/admin`);
      await page.getByRole('link', { name: 'The Lantern Keeper' }).waitFor();
    },
  },
  {
    name: 'not-found',
    signedIn: true,
    setup: async (page, { harness }) => {
      await page.goto(`${harness.url}/no-such-page`);
      await page.getByText('Unexpected Application Error!').waitFor();
    },
  },
];
