// Feature normalisation by the utterance's own mean. The acoustic model was trained with each utterance's cepstral mean
// subtracted (its feat.params says `-cmn batch`), but pocketsphinx_continuous normalises live: a fresh process starts
// from the model's fixed `-cmninit` and only updates it at the end of the utterance, so a short answer is decoded with
// a mean that is not its own. A voice whose mean is far from it (louder, brighter) sounds like silence for its first
// words: "Down to the tide caves" in the fixture voice was decoded as silence and then "movie" (a decoy) at the Lantern
// Keeper's crossroad, whatever the beams. So a cheap first pass (a one-word grammar: the front end and little search,
// ~10 ms of CPU) reads the utterance's mean from pocketsphinx's own front end, and the real decodes start from it: a
// copy of the model's directory (links to its files) whose feat.params carries that mean as -cmninit (on the command
// line the model's feat.params wins). The first pass's mean is exact: the same front end, the same frames.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DecodeFiles } from './decode.js';

let pass: Promise<DecodeFiles> | null = null;

/** The normalisation pass's grammar and dictionary: one short word (what it hears is not used). */
export function cmnPassFiles(): Promise<DecodeFiles> {
  pass ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'looptale-cmn-pass-'));
    const gram = join(dir, 'one.gram');
    const dict = join(dir, 'one.dict');
    await writeFile(gram, '#JSGF V1.0;\ngrammar one;\npublic <s> = ah;\n');
    await writeFile(dict, 'ah AH\n');
    return { gram, dict };
  })();
  pass.catch(() => (pass = null));
  return pass;
}

/** The -cmninit value of a mean (two decimals, as pocketsphinx prints it). */
export function cmnInit(mean: readonly number[]): string {
  return mean.map((v) => v.toFixed(2)).join(',');
}

/** The model's files besides feat.params, and feat.params' lines without -cmninit: read once per model directory (a
 *  model is not changed while the server runs). */
const models = new Map<string, Promise<{ files: string[]; params: string[] }>>();

function modelFiles(src: string): Promise<{ files: string[]; params: string[] }> {
  let m = models.get(src);
  if (!m) {
    m = (async () => ({
      files: (await readdir(src)).filter((f) => f !== 'feat.params'),
      params: (await readFile(join(src, 'feat.params'), 'utf8')).split('\n').filter((l) => l.trim() && !l.startsWith('-cmninit')),
    }))();
    models.set(src, m);
    m.catch(() => models.delete(src));
  }
  return m;
}

/**
 * A model directory (with its `en-us` acoustic model, as `-hmm <dir>/en-us` expects) whose normalisation starts from
 * `mean`: links to the model's files and a feat.params with that -cmninit, made under `parent` for one utterance
 * (the caller removes it once the utterance's decodes are over).
 */
export async function cmnModelDir(modelDir: string, mean: readonly number[], parent: string): Promise<string> {
  const src = join(modelDir, 'en-us');
  const { files, params } = await modelFiles(src);
  const root = join(parent, `cmn-${randomUUID()}`);
  const dst = join(root, 'en-us');
  await mkdir(dst, { recursive: true });
  await writeFile(join(dst, 'feat.params'), `${[...params, `-cmninit ${cmnInit(mean)}`].join('\n')}\n`);
  await Promise.all(files.map((f) => symlink(join(src, f), join(dst, f))));
  return root;
}
