// A fake SMTP server for tests: accepts EHLO, AUTH PLAIN/LOGIN, MAIL, RCPT, DATA, QUIT on an ephemeral port and keeps
// what it receives. No TLS (the client may send credentials in clear only to a loopback address).
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type ReceivedMail = { from: string; to: string[]; data: string; auth: string | null };

export type FakeSmtp = {
  port: number;
  url(user?: string, pass?: string): string;
  messages: ReceivedMail[];
  /** Resolves with the next message received. */
  next(): Promise<ReceivedMail>;
  close(): Promise<void>;
};

/** The header block and body of each MIME part (and of the message itself) in `data`, boundaries dropped. */
function mimeParts(data: string): { headers: string; body: string }[] {
  return data.split(/\r\n--[^\r\n]+(?:\r\n|$)/).map((chunk) => {
    const i = chunk.indexOf('\r\n\r\n');
    return i < 0 ? { headers: chunk, body: '' } : { headers: chunk.slice(0, i), body: chunk.slice(i + 4) };
  });
}

/** The decoded text/plain part of a message received by the fake server (headers in any order, base64 or 7bit). */
export function plainText(data: string): string {
  const part = mimeParts(data).find((p) => /^Content-Type: text\/plain; charset=utf-8$/im.test(p.headers));
  if (!part) return '';
  const body = part.body.replace(/\r\n$/, '');
  if (/^Content-Transfer-Encoding: base64$/im.test(part.headers)) return Buffer.from(body.replace(/\r\n/g, ''), 'base64').toString('utf8');
  return body.replace(/\r\n/g, '\n');
}

/** `host` is where it listens and what url() names (127.0.0.1 unless a test needs another interface). */
export async function startFakeSmtp(host = '127.0.0.1'): Promise<FakeSmtp> {
  const messages: ReceivedMail[] = [];
  const waiting: ((m: ReceivedMail) => void)[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buf = '';
    let mode: 'cmd' | 'data' | 'login-user' | 'login-pass' = 'cmd';
    let mail: ReceivedMail = { from: '', to: [], data: '', auth: null };
    let auth: string | null = null;
    const reply = (line: string): void => void socket.write(`${line}\r\n`);
    reply('220 fake.smtp ESMTP ready');
    socket.on('data', (chunk: Buffer) => {
      buf += chunk.toString('utf8');
      for (;;) {
        if (mode === 'data') {
          const end = buf.indexOf('\r\n.\r\n');
          if (end < 0) return;
          mail.data = buf.slice(0, end + 2).replace(/^\.\./gm, '.');
          buf = buf.slice(end + 5);
          mail.auth = auth;
          messages.push(mail);
          waiting.shift()?.(mail);
          mail = { from: '', to: [], data: '', auth: null };
          mode = 'cmd';
          reply('250 2.0.0 queued');
          continue;
        }
        const i = buf.indexOf('\r\n');
        if (i < 0) return;
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (mode === 'login-user') {
          auth = Buffer.from(line, 'base64').toString();
          mode = 'login-pass';
          reply('334 UGFzc3dvcmQ6');
          continue;
        }
        if (mode === 'login-pass') {
          auth = `${auth}:${Buffer.from(line, 'base64').toString()}`;
          mode = 'cmd';
          reply('235 2.7.0 accepted');
          continue;
        }
        const verb = line.split(' ')[0]?.toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') {
          socket.write('250-fake.smtp\r\n250-AUTH PLAIN LOGIN\r\n250 8BITMIME\r\n');
        } else if (verb === 'AUTH') {
          const [, method, initial] = line.split(' ');
          if (method?.toUpperCase() === 'PLAIN' && initial) {
            const [, user, pass] = Buffer.from(initial, 'base64').toString().split('\0');
            auth = `${user}:${pass}`;
            reply('235 2.7.0 accepted');
          } else if (method?.toUpperCase() === 'LOGIN') {
            mode = 'login-user';
            reply('334 VXNlcm5hbWU6');
          } else reply('504 unsupported');
        } else if (verb === 'MAIL') {
          mail.from = /<([^>]*)>/.exec(line)?.[1] ?? '';
          reply('250 2.1.0 ok');
        } else if (verb === 'RCPT') {
          mail.to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply('250 2.1.5 ok');
        } else if (verb === 'DATA') {
          mode = 'data';
          reply('354 end with <CRLF>.<CRLF>');
        } else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('502 unknown command');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (user, pass) => `smtp://${user ? `${encodeURIComponent(user)}:${encodeURIComponent(pass ?? '')}@` : ''}${host}:${port}`,
    messages,
    next: () => new Promise((resolve) => waiting.push(resolve)),
    close: () => new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}
