import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, passwordWeakness, verifyPassword } from './passwords.js';

describe('passwords', () => {
  it('hashes with a per-user salt and its parameters in the stored string', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$15\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('correct horse battery', 'garbage')).toBe(false);
  });

  it('asks for a rehash when the stored cost is lower than today’s', async () => {
    const cheap = await hashPassword('pw-pw-pw-pw', { logN: 10, r: 8, p: 1 });
    expect(await verifyPassword('pw-pw-pw-pw', cheap)).toBe(true);
    expect(needsRehash(cheap)).toBe(true);
    expect(needsRehash(await hashPassword('pw-pw-pw-pw'))).toBe(false);
  });

  it('treats Unicode forms alike (NFKC)', async () => {
    const h = await hashPassword('caf\u00e9-au-lait');
    expect(await verifyPassword('cafe\u0301-au-lait', h)).toBe(true);
  });

  it('names weak passwords the way GoTrue does', () => {
    expect(passwordWeakness('short')).toEqual({ message: 'Password should be at least 8 characters.', reasons: ['length'] });
    expect(passwordWeakness('x'.repeat(2000))?.reasons).toEqual(['length']);
    expect(passwordWeakness('long enough')).toBeNull();
  });
});
