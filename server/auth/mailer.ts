// Auth emails (magic link, recovery, sign-up confirmation, email change): through SMTP when SMTP_URL is set, and/or
// into the development outbox (GET /dev/outbox). The log gets one line per email, never its link or code.
import { type Config, devOutboxEnabled } from '../config.js';
import type { Logger } from '../log.js';
import { sendMail } from './smtp.js';

export type EmailKind = 'magiclink' | 'recovery' | 'signup' | 'email_change' | 'reauthentication' | 'email_change_notice';

export type AuthEmail = {
  to: string;
  kind: EmailKind;
  /** The link to follow (GET /auth/v1/verify?token=...). */
  link: string;
  /** What clients pass to POST /verify as token_hash (the secret in the link). */
  tokenHash: string;
  /** The 6-digit code for POST /verify with email + token. */
  code: string;
  /** email_change_notice: the address the account is moving to. */
  newEmail?: string;
};

export type OutboxMessage = {
  id: number;
  to: string;
  type: EmailKind;
  subject: string;
  text: string;
  link: string;
  token_hash: string;
  code: string;
  sent_at: string;
};

const SUBJECTS: Record<EmailKind, string> = {
  magiclink: 'Your Looptale sign-in link',
  recovery: 'Reset your Looptale password',
  signup: 'Confirm your Looptale account',
  email_change: 'Confirm your new email address',
  reauthentication: 'Your Looptale confirmation code',
  email_change_notice: 'Your Looptale email address is changing',
};

const LEADS: Record<EmailKind, string> = {
  magiclink: 'Follow this link to sign in to Looptale:',
  recovery: 'Follow this link to reset your Looptale password:',
  signup: 'Welcome to Looptale! Follow this link to confirm your email address:',
  email_change: 'Follow this link to confirm the change of your Looptale email address to this one:',
  reauthentication: 'Enter this code to confirm the change to your Looptale account:',
  email_change_notice: 'Someone signed in to your Looptale account asked to change its email address to',
};

const IGNORE = 'If you did not ask for this email, ignore it.';
const NOT_YOU = 'If this was not you, sign in and change your password: the change takes effect only once the new address confirms it.';

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderEmail(e: AuthEmail): { subject: string; text: string; html: string } {
  const subject = SUBJECTS[e.kind];
  if (e.kind === 'reauthentication') {
    return {
      subject,
      text: `${LEADS[e.kind]} ${e.code}\n\nThe code works once, within an hour. ${IGNORE}\n`,
      html: `<p>${escapeHtml(LEADS[e.kind])} <strong>${e.code}</strong></p><p>The code works once, within an hour. ${IGNORE}</p>`,
    };
  }
  if (e.kind === 'email_change_notice') {
    const lead = `${LEADS[e.kind]} ${e.newEmail ?? ''}.`;
    return { subject, text: `${lead}\n\n${NOT_YOU}\n`, html: `<p>${escapeHtml(lead)}</p><p>${escapeHtml(NOT_YOU)}</p>` };
  }
  const text = `${LEADS[e.kind]}\n\n${e.link}\n\nOr enter this code: ${e.code}\n\nThe link and the code work once, within an hour. If you did not ask for this email, ignore it.\n`;
  const html = `<p>${escapeHtml(LEADS[e.kind])}</p><p><a href="${escapeHtml(e.link)}">${escapeHtml(subject)}</a></p><p>Or enter this code: <strong>${e.code}</strong></p><p>The link and the code work once, within an hour. If you did not ask for this email, ignore it.</p>`;
  return { subject, text, html };
}

/** Emails kept in memory for development (newest last), bounded. */
export class DevOutbox {
  #messages: OutboxMessage[] = [];
  #next = 1;

  constructor(private readonly max = 500) {}

  add(m: Omit<OutboxMessage, 'id'>): void {
    this.#messages.push({ id: this.#next++, ...m });
    if (this.#messages.length > this.max) this.#messages.splice(0, this.#messages.length - this.max);
  }

  list(email?: string): OutboxMessage[] {
    const e = email?.trim().toLowerCase();
    return this.#messages.filter((m) => !e || m.to === e);
  }
}

export class Mailer {
  readonly outbox: DevOutbox | null;
  /** Emails sent after their response (sendLinkLater), not yet out. */
  readonly #pending = new Set<Promise<void>>();

  constructor(private readonly config: Config, private readonly log: Logger, private readonly now: () => number) {
    this.outbox = devOutboxEnabled(config) ? new DevOutbox() : null;
  }

  /** Keeps track of an email sent after its response, so that `settled` can wait for it. */
  track(p: Promise<void>): void {
    const done = p.finally(() => this.#pending.delete(done));
    this.#pending.add(done);
  }

  /** Resolves once every email sent after its response is out (or failed): the dev outbox and shutdown wait on it. */
  async settled(): Promise<void> {
    while (this.#pending.size) await Promise.allSettled([...this.#pending]);
  }

  /** Sends (or queues) one email. Throws when SMTP is configured and fails. */
  async send(e: AuthEmail, userId: string): Promise<void> {
    const { subject, text, html } = renderEmail(e);
    if (this.config.SMTP_URL) {
      await sendMail(this.config.SMTP_URL, { from: this.config.SMTP_FROM, to: e.to, subject, text, html });
      this.log.info({ kind: e.kind, user: userId }, 'email sent through SMTP');
    }
    if (this.outbox) {
      this.outbox.add({ to: e.to, type: e.kind, subject, text, link: e.link, token_hash: e.tokenHash, code: e.code, sent_at: new Date(this.now()).toISOString() });
      this.log.info({ kind: e.kind, user: userId }, 'email queued to the dev outbox');
    }
    if (!this.config.SMTP_URL && !this.outbox) {
      this.log.warn({ kind: e.kind, user: userId }, 'email not sent: set SMTP_URL (or DEV_OUTBOX=true in development)');
    }
  }
}
