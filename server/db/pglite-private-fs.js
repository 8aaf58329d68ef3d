// Imported first by pglite-worker.js and pglite-initdb.js (plain JavaScript, like them). PostgreSQL makes its files
// 0600 and its directories 0700 by calling umask(0077) at start, which PGlite's single-user build does not do; its
// WASM file system then chmods each new file to the mode the C code asked for (fopen: 0644, e.g. pg_internal.init) and
// unpacks its archive with the archive's modes (0666). Every chmod of this thread's Node `fs` (which PGlite's file
// system uses) keeps group and other permissions off, as PostgreSQL's umask would (server/db/private-files.ts).
import fs from 'node:fs';

const PRIVATE = ~0o077;
const { chmodSync, fchmodSync, lchmodSync } = fs;
fs.chmodSync = (path, mode) => chmodSync(path, Number(mode) & PRIVATE);
fs.fchmodSync = (fd, mode) => fchmodSync(fd, Number(mode) & PRIVATE);
if (lchmodSync) fs.lchmodSync = (path, mode) => lchmodSync(path, Number(mode) & PRIVATE);
