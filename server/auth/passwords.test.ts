import { describe, expect, it } from 'vitest';
import { commonPasswordCount } from './common-passwords.js';
import { ARGON2_PARAMS, COMMON_PASSWORD_MESSAGE, hashPassword, needsRehash, passwordWeakness, verifyPassword } from './passwords.js';

/** Made by the previous version's hashPassword (scrypt, 2^15 x 8 x 1), copied as it stored them. */
const OLD_SCRYPT = {
  plain: { password: 'lantern-keeper-42', stored: 'scrypt$15$8$1$xs-IjfVXU3SkXoO-ULnw3Q$kKT5sgqSN4EEPYCeLM_T25TVuUsNiaCGirW4KGbUwqY' },
  unicode: { password: 'caf\u00e9-au-lait', stored: 'scrypt$15$8$1$4TtcYOV1eV_CAX4boP8_tA$R2rYaHZoSmjt28npilKkNSLv-igP0oRNWGVrwH4PutM' },
};

describe('passwords', () => {
  it('hashes with argon2id at OWASP parameters in the standard PHC string, with a per-user salt', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(ARGON2_PARAMS).toEqual({ memoryKiB: 19_456, passes: 2, lanes: 1 });
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('correct horse battery', 'garbage')).toBe(false);
    expect(needsRehash(a)).toBe(false);
  });

  it('verifies the previous version’s scrypt hashes and asks for their upgrade', async () => {
    expect(await verifyPassword(OLD_SCRYPT.plain.password, OLD_SCRYPT.plain.stored)).toBe(true);
    expect(await verifyPassword('lantern-keeper-43', OLD_SCRYPT.plain.stored)).toBe(false);
    expect(await verifyPassword('cafe\u0301-au-lait', OLD_SCRYPT.unicode.stored)).toBe(true);
    expect(needsRehash(OLD_SCRYPT.plain.stored)).toBe(true);
  });

  it('asks for a rehash when the stored argon2id cost is lower than today’s', async () => {
    const cheap = await hashPassword('pw-pw-pw-pw', { memoryKiB: 4096, passes: 1, lanes: 1 });
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=4096,t=1,p=1\$/);
    expect(await verifyPassword('pw-pw-pw-pw', cheap)).toBe(true);
    expect(needsRehash(cheap)).toBe(true);
  });

  it('refuses stored strings with costs nobody writes (a tampered row cannot ask for gigabytes)', async () => {
    const h = await hashPassword('pw-pw-pw-pw');
    const huge = h.replace('m=19456', 'm=4194304');
    expect(await verifyPassword('pw-pw-pw-pw', huge)).toBe(false);
    expect(await verifyPassword('pw-pw-pw-pw', h.replace('$argon2id$', '$argon2i$'))).toBe(false);
    expect(await verifyPassword('pw-pw-pw-pw', 'scrypt$30$8$1$lmVQLmEx3vchVhJNF88iUg$uwSxIZTQH_IuEIDRpl9vZdJTstZszbYtv6bQNXZt9Q8')).toBe(false);
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

describe('defect 36.8: the most common passwords are refused, saying why', () => {
  it('refuses a password on the list whatever its case, with the reason; keeps an unusual one', () => {
    expect(commonPasswordCount()).toBeGreaterThan(40_000);
    for (const p of ['password', 'Password1', 'QWERTYUIOP', 'iloveyou', '12345678', 'baseball']) {
      expect(passwordWeakness(p), p).toEqual({ message: COMMON_PASSWORD_MESSAGE, reasons: ['pwned'] });
    }
    expect(COMMON_PASSWORD_MESSAGE).toMatch(/most common/);
    expect(passwordWeakness('lantern keeper of the marsh')).toBeNull();
    expect(passwordWeakness('short')?.reasons).toEqual(['length']);
  });
});
