// Sends the few emails auth sends through nodemailer (a maintained SMTP client: STARTTLS, AUTH PLAIN/LOGIN/CRAM-MD5,
// pipelining, dot-stuffing, RFC 2047/5322 formatting, and years of fixes against real servers), one message per
// connection. smtps:// is TLS from the start (port 465); smtp:// (port 587) is upgraded with STARTTLS when offered,
// and STARTTLS is required when credentials go to a host other than this machine. nodemailer's own logger stays off,
// so neither credentials nor message bodies reach the logs.
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import type { ConnectionOptions } from 'node:tls';
import { createTransport } from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { SendMailOptions } from 'nodemailer';

export type MailMessage = { from: string; to: string; subject: string; text: string; html?: string };

export type SmtpOptions = { timeoutMs?: number; tls?: ConnectionOptions; clientName?: string };

export class SmtpError extends Error {}

/** The bare address of 'Name <addr>' (or the string itself). */
export function addressOf(mailbox: string): string {
  return (/<([^<>\s]+)>/.exec(mailbox)?.[1] ?? mailbox).trim();
}

const oneLine = (s: string): string => s.replace(/[\r\n]+/g, ' ');

/**
 * nodemailer's message options for `m`. The wire shape stays what it was before nodemailer: base64 body parts and
 * B-encoded non-ASCII headers (safe on 7-bit relays, and what tests and mail filters already see).
 */
function mailOptions(m: MailMessage): SendMailOptions {
  return {
    from: oneLine(m.from),
    to: oneLine(m.to),
    subject: oneLine(m.subject),
    text: { content: m.text, contentTransferEncoding: 'base64' },
    ...(m.html ? { html: { content: m.html, contentTransferEncoding: 'base64' } } : {}),
    textEncoding: 'base64',
  };
}

/** The message as RFC 5322 text with CRLF line ends (multipart/alternative when there is HTML). */
export async function formatMessage(m: MailMessage): Promise<string> {
  return (await new MailComposer(mailOptions(m)).compile().build()).toString('utf8');
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/** Sends one message through the SMTP server of `url` (smtp://user:pass@host:port or smtps://...). */
export async function sendMail(url: string, m: MailMessage, o: SmtpOptions = {}): Promise<void> {
  const u = new URL(url);
  const secure = u.protocol === 'smtps:';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const port = Number(u.port || (secure ? 465 : 587));
  const user = decodeURIComponent(u.username);
  const pass = decodeURIComponent(u.password);
  const timeoutMs = o.timeoutMs ?? 15_000;
  const transport = createTransport({
    host,
    port,
    secure,
    name: o.clientName ?? hostname(),
    ...(user ? { auth: { user, pass } } : {}),
    // Credentials never travel in clear to another machine: no STARTTLS there means no delivery.
    requireTLS: Boolean(user) && !secure && !isLoopback(host),
    tls: { ...o.tls, ...(isIP(host) ? {} : { servername: host }) },
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    logger: false,
    debug: false,
  });
  try {
    await transport.sendMail(mailOptions(m));
  } catch (e) {
    throw smtpError(e, host, port);
  } finally {
    transport.close();
  }
}

const CONNECTION_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS']);

/** A one-line error naming the step that failed; nodemailer's messages carry server replies, never credentials. */
function smtpError(e: unknown, host: string, port: number): SmtpError {
  const err = e as { code?: string; message?: string; command?: string };
  const message = oneLine(err.message ?? String(e)).slice(0, 300);
  const code = err.code ?? '';
  if (CONNECTION_CODES.has(code)) return new SmtpError(`SMTP connection to ${host}:${port} failed: ${message}`);
  if (code === 'ETLS') return new SmtpError(`SMTP server ${host} offers no usable TLS: refusing to send credentials in clear (${message})`);
  if (code === 'EAUTH') return new SmtpError(`SMTP authentication refused: ${message}`);
  return new SmtpError(`SMTP ${err.command ?? 'delivery'} failed: ${message}`);
}
