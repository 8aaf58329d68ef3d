// DATA_DIR as another local user sees it. The modes of everything the server wrote, then the attack: as user nobody,
// copy what can be read of DATA_DIR (the signing-secret file, the database's files and write-ahead log), find the
// token-signing secret in the copy, sign a token with it, and have GET /api/me accept it.
import { spawn } from 'node:child_process';
import { chmodSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { decodeJwt, SignJWT } from 'jose';
import { call, signUp, uniqueEmail } from './auth-client.js';
import { tally, type Probe } from './types.js';

const NOBODY = 65534;

/** Paths under `dir` (itself included) whose modes let others than the owner in: more than 0700 / 0600. */
function modes(dir: string): { paths: number; loose: number } {
  let paths = 0;
  let loose = 0;
  const walk = (p: string): void => {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) return;
    paths++;
    if ((st.mode & 0o077) !== 0) loose++;
    if (st.isDirectory()) for (const e of readdirSync(p)) walk(join(p, e));
  };
  walk(dir);
  return { paths, loose };
}

// Run as nobody: copies every file it can read under DATA_DIR into the destination, keeping the layout.
const COPY_AS_NOBODY = `
const fs = require('node:fs'), path = require('node:path');
const [src, dst] = process.argv.slice(1);
let copied = 0, denied = 0;
const walk = (rel) => {
  let entries;
  try { entries = fs.readdirSync(path.join(src, rel), { withFileTypes: true }); } catch { denied++; return; }
  fs.mkdirSync(path.join(dst, rel), { recursive: true });
  for (const e of entries) {
    const r = path.join(rel, e.name);
    if (e.isDirectory()) walk(r);
    else if (e.isFile()) { try { fs.copyFileSync(path.join(src, r), path.join(dst, r)); copied++; } catch { denied++; } }
  }
};
walk('.');
process.stdout.write(JSON.stringify({ copied, denied }));
`;

function copyAsNobody(src: string, dst: string): Promise<{ copied: number; denied: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', COPY_AS_NOBODY, src, dst], { uid: NOBODY, gid: NOBODY, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('exit', () => {
      try {
        resolve(JSON.parse(out) as { copied: number; denied: number });
      } catch {
        reject(new Error(`the copy as nobody printed ${out}`));
      }
    });
  });
}

/** The signing secret in a copy of DATA_DIR: the secret file, else the database's settings. */
async function secretIn(copy: string): Promise<string | null> {
  try {
    return readFileSync(join(copy, 'jwt-secret'), 'utf8').trim();
  } catch {
    // not there, or not readable: try the database
  }
  try {
    readdirSync(join(copy, 'pglite'));
  } catch {
    return null;
  }
  const db = new PGlite(join(copy, 'pglite'));
  try {
    const r = await db.query<{ value: string }>("SELECT value FROM looptale_private.server_settings WHERE key = 'auth.jwt_secret'");
    return r.rows[0]?.value ?? null;
  } catch {
    return null;
  } finally {
    await db.close().catch(() => undefined);
  }
}

export const dataDirProbe: Probe = {
  group: 'data-dir',
  items: [1],
  async run({ target }) {
    const { access } = await signUp(target.url, uniqueEmail('modes'), 'a long enough password 1');
    if (!access) throw new Error('sign-up gave no session');
    const m = modes(target.dataDir);
    const dst = mkdtempSync(join(tmpdir(), 'looptale-probe-nobody-'));
    chmodSync(dst, 0o777);
    try {
      const copy = await copyAsNobody(target.dataDir, dst);
      const secret = await secretIn(dst);
      let accepted = false;
      if (secret) {
        const claims = decodeJwt(access);
        const forged = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) + 3600 }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret));
        accepted = (await call(target.url, 'GET', '/api/me', undefined, forged)).status === 200;
      }
      return [
        { item: 1, attack: 'DATA_DIR paths other users may open (not 0700/0600)', tries: m.paths, refused: m.paths - m.loose, held: m.loose },
        tally(1, 'as nobody: copy DATA_DIR, find the signing secret, forge a token /api/me accepts', [accepted], { files_copied: copy.copied, denied: copy.denied, secret_found: secret ? 'yes' : 'no' }),
      ];
    } finally {
      rmSync(dst, { recursive: true, force: true });
    }
  },
};
