// A small SMTP client (RFC 5321) for the few emails auth sends: smtps:// (TLS from the start, port 465) or smtp://
// (port 587, upgraded with STARTTLS when offered), AUTH PLAIN or LOGIN with the URL's credentials, one message per
// connection. Credentials are never sent in clear to a host other than this machine.
import { randomBytes } from 'node:crypto';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls';

export type MailMessage = { from: string; to: string; subject: string; text: string; html?: string };

export type SmtpOptions = { timeoutMs?: number; tls?: ConnectionOptions; clientName?: string };

type Reply = { code: number; lines: string[] };

export class SmtpError extends Error {}

/** The bare address of 'Name <addr>' (or the string itself). */
export function addressOf(mailbox: string): string {
  return (/<([^<>\s]+)>/.exec(mailbox)?.[1] ?? mailbox).trim();
}

const oneLine = (s: string): string => s.replace(/[\r\n]+/g, ' ');

function encodeHeader(s: string): string {
  return /^[\x20-\x7e]*$/.test(s) ? s : `=?UTF-8?B?${Buffer.from(s, 'utf8').toString('base64')}?=`;
}

function base64Lines(s: string): string {
  return (Buffer.from(s, 'utf8').toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');
}

/** The message as RFC 5322 text with CRLF line ends (multipart/alternative when there is HTML). */
export function formatMessage(m: MailMessage, now = new Date()): string {
  const domain = addressOf(m.from).split('@')[1] ?? 'localhost';
  const headers = [
    `From: ${oneLine(m.from)}`,
    `To: ${oneLine(m.to)}`,
    `Subject: ${encodeHeader(oneLine(m.subject))}`,
    `Date: ${now.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${randomBytes(12).toString('hex')}@${domain}>`,
    'MIME-Version: 1.0',
  ];
  const part = (type: string, body: string): string => `Content-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${base64Lines(body)}`;
  if (!m.html) return `${headers.join('\r\n')}\r\n${part('text/plain', m.text)}\r\n`;
  const b = `looptale-${randomBytes(8).toString('hex')}`;
  return `${headers.join('\r\n')}\r\nContent-Type: multipart/alternative; boundary="${b}"\r\n\r\n--${b}\r\n${part('text/plain', m.text)}\r\n--${b}\r\n${part('text/html', m.html)}\r\n--${b}--\r\n`;
}

class Conn {
  #socket: Socket | TLSSocket;
  #buf = '';
  #lines: string[] = [];
  /** Replies that arrived before anyone asked (the greeting can come before the first read). */
  #replies: Reply[] = [];
  #waiter: { resolve: (r: Reply) => void; reject: (e: Error) => void } | null = null;
  #error: Error | null = null;

  constructor(socket: Socket | TLSSocket, private readonly timeoutMs: number) {
    this.#socket = socket;
    this.#attach(socket);
  }

  get secure(): boolean {
    return 'encrypted' in this.#socket && this.#socket.encrypted;
  }

  #attach(s: Socket | TLSSocket): void {
    s.setTimeout(this.timeoutMs, () => this.#fail(new SmtpError('SMTP server timed out')));
    s.on('data', (d: Buffer) => this.#onData(d.toString('utf8')));
    s.on('error', (e: Error) => this.#fail(new SmtpError(`SMTP connection failed: ${e.message}`)));
    s.on('close', () => this.#fail(new SmtpError('SMTP server closed the connection')));
  }

  #fail(e: Error): void {
    this.#error ??= e;
    const w = this.#waiter;
    this.#waiter = null;
    w?.reject(this.#error);
  }

  #onData(chunk: string): void {
    this.#buf += chunk;
    let i: number;
    while ((i = this.#buf.indexOf('\n')) >= 0) {
      const line = this.#buf.slice(0, i).replace(/\r$/, '');
      this.#buf = this.#buf.slice(i + 1);
      this.#lines.push(line);
      if (/^\d{3}(?: |$)/.test(line)) {
        const reply = { code: Number(line.slice(0, 3)), lines: this.#lines.map((l) => l.slice(4)) };
        this.#lines = [];
        const w = this.#waiter;
        this.#waiter = null;
        if (w) w.resolve(reply);
        else this.#replies.push(reply);
      }
    }
  }

  read(): Promise<Reply> {
    const queued = this.#replies.shift();
    if (queued) return Promise.resolve(queued);
    if (this.#error) return Promise.reject(this.#error);
    return new Promise((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
  }

  async cmd(line: string | null, expect: number[], what: string): Promise<Reply> {
    const p = this.read();
    if (line !== null) this.#socket.write(`${line}\r\n`);
    const r = await p;
    if (!expect.includes(r.code)) throw new SmtpError(`SMTP ${what} refused: ${r.code} ${r.lines.join(' ').slice(0, 200)}`);
    return r;
  }

  async startTls(servername: string, options: ConnectionOptions): Promise<void> {
    const plain = this.#socket;
    plain.removeAllListeners('data').removeAllListeners('error').removeAllListeners('close');
    plain.setTimeout(0);
    const secure = tlsConnect({ ...options, socket: plain, servername: isIP(servername) ? undefined : servername });
    await new Promise<void>((resolve, reject) => {
      secure.once('secureConnect', resolve);
      secure.once('error', reject);
    });
    this.#socket = secure;
    this.#attach(secure);
  }

  end(): void {
    this.#socket.removeAllListeners('close');
    this.#socket.end();
  }

  destroy(): void {
    this.#socket.removeAllListeners('close');
    this.#socket.destroy();
  }
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || host.startsWith('127.');
}

/** Sends one message through the SMTP server of `url` (smtp://user:pass@host:port or smtps://...). */
export async function sendMail(url: string, m: MailMessage, o: SmtpOptions = {}): Promise<void> {
  const u = new URL(url);
  const implicitTls = u.protocol === 'smtps:';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const port = Number(u.port || (implicitTls ? 465 : 587));
  const user = decodeURIComponent(u.username);
  const pass = decodeURIComponent(u.password);
  const timeoutMs = o.timeoutMs ?? 15_000;
  const socket = await new Promise<Socket | TLSSocket>((resolve, reject) => {
    const s = implicitTls
      ? tlsConnect({ ...o.tls, host, port, servername: isIP(host) ? undefined : host }, () => resolve(s))
      : netConnect({ host, port }, () => resolve(s));
    s.once('error', (e: Error) => reject(new SmtpError(`SMTP connection to ${host}:${port} failed: ${e.message}`)));
    s.setTimeout(timeoutMs, () => s.destroy(new Error('timed out')));
  });
  const c = new Conn(socket, timeoutMs);
  try {
    const name = o.clientName ?? hostname();
    await c.cmd(null, [220], 'greeting');
    let ehlo = await c.cmd(`EHLO ${name}`, [250], 'EHLO');
    const has = (ext: string): boolean => ehlo.lines.some((l) => l.toUpperCase().startsWith(ext));
    if (!c.secure && has('STARTTLS')) {
      await c.cmd('STARTTLS', [220], 'STARTTLS');
      await c.startTls(host, o.tls ?? {});
      ehlo = await c.cmd(`EHLO ${name}`, [250], 'EHLO');
    }
    if (user) {
      if (!c.secure && !isLoopback(host)) throw new SmtpError(`SMTP server ${host} offers no TLS: refusing to send credentials in clear`);
      const auth = ehlo.lines.find((l) => l.toUpperCase().startsWith('AUTH'))?.toUpperCase() ?? '';
      if (auth.includes('PLAIN') || !auth.includes('LOGIN')) {
        await c.cmd(`AUTH PLAIN ${Buffer.from(`\0${user}\0${pass}`).toString('base64')}`, [235], 'authentication');
      } else {
        await c.cmd('AUTH LOGIN', [334], 'authentication');
        await c.cmd(Buffer.from(user).toString('base64'), [334], 'authentication');
        await c.cmd(Buffer.from(pass).toString('base64'), [235], 'authentication');
      }
    }
    await c.cmd(`MAIL FROM:<${addressOf(m.from)}>`, [250], 'sender');
    await c.cmd(`RCPT TO:<${addressOf(m.to)}>`, [250, 251], 'recipient');
    await c.cmd('DATA', [354], 'DATA');
    // Dot-stuffing (RFC 5321 4.5.2): a line starting with '.' gets another.
    const data = formatMessage(m).replace(/^\./gm, '..');
    await c.cmd(`${data}.`, [250], 'message');
    await c.cmd('QUIT', [221], 'QUIT').catch(() => undefined);
    c.end();
  } catch (e) {
    c.destroy();
    throw e;
  }
}
