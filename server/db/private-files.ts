// Everything the server writes under DATA_DIR (the embedded database, media, the lock, the token-signing key) holds
// players' data or secrets: directories 0700, files 0600, readable by the server's own user only, whatever the umask
// or the modes stored in an archive (PGlite's empty database ships with 0666 files).
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** The process umask a server runs with: new files and directories are created private. */
export const PRIVATE_UMASK = 0o077;

/** Creates `dir` (and missing parents) private, and makes it private when it exists. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * Takes group and other permissions off `dir` and everything in it (symbolic links are not followed). Files written
 * before (an older version, a copied template, an unpacked archive) are covered at every start. Returns how many
 * paths it changed. A path removed meanwhile (PGlite rotating its WAL) is skipped.
 */
export function tightenTree(dir: string): number {
  let changed = 0;
  const visit = (path: string): void => {
    let st;
    try {
      st = lstatSync(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    if (st.isSymbolicLink()) return;
    const want = st.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
    if ((st.mode & 0o777) !== want) {
      chmodSync(path, want);
      changed++;
    }
    if (st.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return changed;
}
