// Creates a new PGlite data directory and exits: `node pglite-initdb.js <dir> [<template.tar.gz>]`. server/db/pglite.ts
// runs it in a short-lived child process before its worker opens the directory, because PGlite keeps the memory its
// initdb used for as long as the database stays open in the process that created it; a child process gives all of it
// back when it exits. Plain JavaScript, started without the TypeScript loader (as pglite-worker.js).
//
// The new directory is unpacked from an empty database made once (pglite-empty.tar.gz beside this file, with the
// PGlite version it was made with in pglite-empty.json) when that is the version installed: PGlite's initdb runs a
// second PostgreSQL instance and the initdb program, and this process peaked at ~720 MB RSS and ~2.5 s of CPU (most of
// a first start's ~1 GB peak, #14); unpacking peaks at ~350 MB and ~0.8 s. With another PGlite version (an upgrade
// that did not remake it) initdb runs as before. `node pglite-initdb.js --make-template` remakes the template.
// The server sets shared_buffers again at every start (PGLITE_SHARED_BUFFERS); the small value here only keeps this
// process's own peak down.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import './pglite-private-fs.js';
import { PGlite } from '@electric-sql/pglite';

const here = fileURLToPath(new URL('.', import.meta.url));
const TEMPLATE = join(here, 'pglite-empty.tar.gz');
const PGLITE_VERSION = JSON.parse(readFileSync(new URL('../package.json', import.meta.resolve('@electric-sql/pglite')), 'utf8')).version;
const SETTINGS = {
  relaxedDurability: false,
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'],
  initDbStartParams: ['--set', 'shared_buffers=16MB'],
};

/** The manifest beside a template: { pglite, system_identifier }. */
const manifestOf = (template) => template.replace(/\.tar\.gz$/, '.json');

/** The template's bytes when it was made with the installed PGlite, else null. */
function usableTemplate(template) {
  if (!existsSync(template) || !existsSync(manifestOf(template))) return null;
  const manifest = JSON.parse(readFileSync(manifestOf(template), 'utf8'));
  return manifest.pglite === PGLITE_VERSION ? readFileSync(template) : null;
}

const arg = process.argv[2];
if (!arg) {
  process.stderr.write('usage: node pglite-initdb.js <data-dir> [<template.tar.gz>] | --make-template [<template.tar.gz>]\n');
  process.exit(2);
}

if (arg === '--make-template') {
  const template = process.argv[3] ?? TEMPLATE;
  const tmp = mkdtempSync(join(tmpdir(), 'looptale-pglite-template-'));
  try {
    const db = new PGlite(join(tmp, 'pglite'), SETTINGS);
    await db.waitReady;
    const id = (await db.query('SELECT system_identifier::text AS id FROM pg_control_system()')).rows[0]?.id;
    const dump = await db.dumpDataDir('gzip');
    await db.close();
    writeFileSync(template, Buffer.from(await dump.arrayBuffer()));
    writeFileSync(manifestOf(template), `${JSON.stringify({ pglite: PGLITE_VERSION, system_identifier: id, made_by: 'node server/db/pglite-initdb.js --make-template' }, null, 2)}\n`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  process.exit(0);
}

const bytes = usableTemplate(process.argv[3] ?? TEMPLATE);
const db = new PGlite(arg, { ...SETTINGS, ...(bytes ? { loadDataDir: new Blob([bytes]) } : {}) });
await db.waitReady;
await db.close();
