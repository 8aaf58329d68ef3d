import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainText, startFakeSmtp, type FakeSmtp } from '../../tests/helpers/smtp.js';
import { addressOf, formatMessage, sendMail } from './smtp.js';

let smtp: FakeSmtp;
beforeAll(async () => {
  smtp = await startFakeSmtp();
});
afterAll(async () => {
  await smtp.close();
});

describe('smtp', () => {
  it('formats a MIME message with base64 parts and an encoded non-ASCII subject', async () => {
    const m = await formatMessage({ from: 'Looptale <a@looptale.test>', to: 'b@example.com', subject: 'Héllo\r\nBcc: x@evil', text: 'hi', html: '<p>hi</p>' });
    expect(m).toContain('Subject: =?UTF-8?B?');
    expect(m).not.toContain('\r\nBcc:');
    expect(m).toContain('Content-Type: multipart/alternative');
    expect(m.split('\r\n').every((l) => l.length <= 998)).toBe(true);
    expect(addressOf('Looptale <a@looptale.test>')).toBe('a@looptale.test');
    expect(addressOf('plain@looptale.test')).toBe('plain@looptale.test');
  });

  it('delivers a message with AUTH PLAIN, and the text survives dot-stuffing', async () => {
    const next = smtp.next();
    const text = 'line one\n.starts with a dot\n..two dots\nend';
    await sendMail(smtp.url('user@x', 's3cret:pw'), { from: 'Looptale <a@looptale.test>', to: 'b@example.com', subject: 'Hello', text }, { timeoutMs: 5000 });
    const m = await next;
    expect(m).toMatchObject({ from: 'a@looptale.test', to: ['b@example.com'], auth: 'user@x:s3cret:pw' });
    expect(plainText(m.data)).toBe(text);
  });

  it('delivers an HTML + text message whose headers arrive intact at a real SMTP listener', async () => {
    const next = smtp.next();
    await sendMail(smtp.url(), { from: 'Looptale <auth@looptale.test>', to: 'Zoé <zoe@example.com>', subject: 'Réinitialiser\r\nBcc: x@evil', text: 'Bonjour Zoé', html: '<p>Bonjour Zoé</p>' }, { timeoutMs: 5000, clientName: 'looptale.test' });
    const m = await next;
    expect(m).toMatchObject({ from: 'auth@looptale.test', to: ['zoe@example.com'], auth: null });
    const head = m.data.slice(0, m.data.indexOf('\r\n\r\n'));
    expect(head).toMatch(/^From: Looptale <auth@looptale\.test>$/m);
    expect(head).toMatch(/^To: =\?UTF-8\?B\?[A-Za-z0-9+/=]+\?= <zoe@example\.com>$/m);
    expect(head).toMatch(/^Subject: =\?UTF-8\?B\?/m);
    expect(head).toMatch(/^Message-ID: <[^@\s]+@looptale\.test>$/m);
    expect(head).toMatch(/^Date: \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000$/m);
    expect(head).toMatch(/^MIME-Version: 1\.0$/m);
    expect(head).toMatch(/^Content-Type: multipart\/alternative;\s+boundary=/m);
    expect(head).not.toMatch(/^Bcc:/m);
    expect(m.data).toMatch(/^Content-Type: text\/html; charset=utf-8$/m);
    expect(plainText(m.data)).toBe('Bonjour Zoé');
  });

  it('fails clearly when the server is unreachable', async () => {
    const gone = await startFakeSmtp();
    await gone.close();
    await expect(sendMail(gone.url(), { from: 'a@b.c', to: 'd@e.f', subject: 's', text: 't' }, { timeoutMs: 2000 })).rejects.toThrow(/SMTP connection to 127\.0\.0\.1:\d+ failed/);
  });

  // A non-loopback address of this machine, if it has one: credentials must not go there without TLS.
  const lan = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  it.skipIf(!lan)('refuses to send credentials in clear to another machine (no STARTTLS offered)', async () => {
    const remote = await startFakeSmtp(lan);
    try {
      await expect(sendMail(remote.url('user', 'pw'), { from: 'a@b.c', to: 'd@e.f', subject: 's', text: 't' }, { timeoutMs: 3000 })).rejects.toThrow(/offers no usable TLS: refusing to send credentials in clear/);
      expect(remote.messages).toHaveLength(0);
    } finally {
      await remote.close();
    }
  });
});
