// looptale-asr (the persistent native decoder) with real pocketsphinx: a fixture clip decoded right, the same answer
// whatever was decoded before, a killed or stuck process replaced (its decode tried again), bad requests refused
// without killing the process. Builds the binary first when it is missing (scripts/build-asr.sh, ~2 s). About 2-10 s.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeSpeech } from './audio.js';
import { buildDictionary, buildGrammar } from './grammar.js';
import { buildArpa } from './lm.js';
import { NativeDecoders, buildNativeAsr } from './native-asr.js';
import { DEFAULT_MODEL_DIR, isPocketsphinxAvailable } from './pocketsphinx.js';
import { loadLexicon } from './pronounce.js';
import { phoneLoopFiles } from './verify.js';
import { WIDE_BEAMS, type DecodeFiles } from './decode.js';

const available = (await isPocketsphinxAvailable()).ok;
const binary = available ? await buildNativeAsr() : { ok: false as const, reason: 'pocketsphinx is not installed' };

async function pcmOf(path: string): Promise<Int16Array> {
  const s = await decodeSpeech({ bytes: await readFile(resolve(path)), format: path.endsWith('.mp3') ? 'mp3' : 'wav' });
  if (!s.ok) throw new Error(s.message);
  return s.samples;
}

describe.runIf(binary.ok)('looptale-asr: persistent pocketsphinx decoders', () => {
  let dir: string;
  let grammar: DecodeFiles;
  let loop: DecodeFiles;
  let lm: DecodeFiles;
  let tide: Int16Array;
  let dark: Int16Array;
  let pool: NativeDecoders;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'looptale-asr-test-'));
    const lexicon = await loadLexicon(join(DEFAULT_MODEL_DIR, 'cmudict-en-us.dict'));
    const g = await buildGrammar({ sentences: ['Down to the tide caves', 'Up to the lighthouse', 'When does the light go dark?'], vocabulary: [], lexicon, speller: null });
    grammar = { gram: join(dir, 'g.gram'), dict: join(dir, 'g.dict') };
    await writeFile(grammar.gram, g.jsgf);
    await writeFile(grammar.dict, g.dict);
    loop = await phoneLoopFiles();
    const said = [['down', 'to', 'the', 'tide', 'caves'], ['up', 'to', 'the', 'lighthouse'], ['the', 'tide', 'is', 'low']];
    lm = { gram: join(dir, 'm.arpa'), dict: join(dir, 'm.dict') };
    await writeFile(lm.gram, buildArpa(said));
    await writeFile(lm.dict, (await buildDictionary(said.flat(), lexicon, null)).dict);
    tide = await pcmOf('fixtures/audio/lantern-keeper/en/dead-end.en.l9.m3-175-50.wav');
    dark = await pcmOf('fixtures/audio/lantern-keeper/en/dead-end.en.l3.m3-175-50.wav');
    pool = new NativeDecoders({ binary: binary.ok ? binary.path : '', modelDir: DEFAULT_MODEL_DIR, size: 1 });
  });
  afterAll(async () => {
    await pool.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('decodes a fixture clip with a grammar, words with frames and scores', async () => {
    const r = await pool.decode({ files: grammar }, tide, 30_000);
    expect(r?.map((u) => u.hyp)).toEqual(['down to the tide caves']);
    const words = r?.[0]?.words.filter((w) => !w.word.startsWith('<')) ?? [];
    expect(words.map((w) => w.word.replace(/\(\d+\)$/, ''))).toEqual(['down', 'to', 'the', 'tide', 'caves']);
    for (const w of words) expect(w.end).toBeGreaterThanOrEqual(w.start);
  });

  it('gives the same answer whatever was decoded before (A, B, A)', async () => {
    const a1 = await pool.decode({ files: grammar }, tide, 30_000);
    const m1 = await pool.decode({ files: lm, lm: true, args: ['-bestpath', 'no', '-lw', '10'] }, tide, 30_000);
    const b = await pool.decode({ files: loop, args: [] }, dark, 30_000);
    const a2 = await pool.decode({ files: grammar }, tide, 30_000);
    const m2 = await pool.decode({ files: lm, lm: true, args: ['-bestpath', 'no', '-lw', '10'] }, tide, 30_000);
    expect(m1?.[0]?.hyp).toMatch(/tide/);
    expect(m2).toEqual(m1);
    const loopA = await pool.decode({ files: loop, args: [] }, tide, 30_000);
    const loopB = await pool.decode({ files: loop, args: [] }, dark, 30_000);
    expect(b?.[0]?.words.length).toBeGreaterThan(5);
    expect(a2).toEqual(a1);
    expect(loopB).toEqual(b);
    expect(loopA).not.toEqual(loopB);
  });

  it('replaces a killed process and decodes again on the new one', async () => {
    const before = pool.spawned;
    const [pid] = pool.pids();
    const heard = pool.decode({ files: grammar }, tide, 30_000);
    if (pid !== undefined) process.kill(pid, 'SIGKILL');
    expect((await heard)?.map((u) => u.hyp)).toEqual(['down to the tide caves']);
    expect(pool.spawned).toBe(before + 1);
    expect(pool.retries).toBeGreaterThanOrEqual(1);
  });

  it('replaces a process that passes its deadline; the next decode is answered', async () => {
    const before = pool.spawned;
    // 1 ms: too short for any decode; killed, tried once more on a new process, killed again.
    expect(await pool.decode({ files: grammar }, tide, 1)).toBeNull();
    expect((await pool.decode({ files: grammar }, tide, 30_000))?.map((u) => u.hyp)).toEqual(['down to the tide caves']);
    // Each of the two killed processes was replaced.
    expect(pool.spawned).toBe(before + 2);
  });

  it('decodes with a front end of the request (frame rate, warp) on a decoder of its own, the default one unchanged', async () => {
    const plain = await pool.decode({ files: grammar }, tide, 30_000);
    const fast = await pool.decode({ files: grammar, args: [...WIDE_BEAMS, '-frate', '150'] }, tide, 30_000);
    const warped = await pool.decode({ files: grammar, args: [...WIDE_BEAMS, '-warp_params', '1.15'] }, tide, 30_000);
    expect(fast?.map((u) => u.hyp)).toEqual(['down to the tide caves']);
    expect(warped?.map((u) => u.hyp)).toEqual(['down to the tide caves']);
    // 150 frames a second: the same words over about half as many frames again (the silence the decoder drops and
    // the words' edges move a little).
    const last = (r: typeof plain): number => r?.[0]?.words.at(-1)?.end ?? 0;
    expect(last(fast) / last(plain)).toBeGreaterThan(1.25);
    expect(last(fast) / last(plain)).toBeLessThan(1.75);
    // Another warp of the same frames: other acoustic scores.
    expect(warped?.[0]?.words.map((w) => w.ascr)).not.toEqual(plain?.[0]?.words.map((w) => w.ascr));
    // The default decoder is not changed by them.
    expect(await pool.decode({ files: grammar }, tide, 30_000)).toEqual(plain);
  });

  it('refuses bad requests and goes on', async () => {
    const p = spawn(binary.ok ? binary.path : '', [join(DEFAULT_MODEL_DIR, 'en-us')], { stdio: ['pipe', 'pipe', 'ignore'] });
    const lines = createInterface({ input: p.stdout });
    const answers: unknown[] = [];
    const done = new Promise<void>((ok) => lines.on('line', (l) => {
      answers.push(JSON.parse(l));
      if (answers.length === 11) ok();
    }));
    const audio = Buffer.from(tide.buffer, tide.byteOffset, tide.byteLength).toString('base64');
    p.stdin.write([
      'a\tjsgf\tonly three',
      `b\tnope\t${grammar.gram}\t${grammar.dict}\t\t${audio}`,
      `c\tjsgf\t${grammar.gram}\t${grammar.dict}\t-beam\t${audio}`,
      `d\tjsgf\t${grammar.gram}\t${grammar.dict}\t-rm -rf\t${audio}`,
      `e\tjsgf\t${grammar.gram}\t${grammar.dict}\t\tnot base64!`,
      `f\tjsgf\t${join(dir, 'missing.gram')}\t${grammar.dict}\t\t${audio}`,
      `g\tlm\t${grammar.gram}\t${grammar.dict}\t\t${audio}`,
      `i\tjsgf\t${grammar.gram}\t${grammar.dict}\t-frate 1000\t${audio}`,
      `j\tjsgf\t${grammar.gram}\t${grammar.dict}\t-warp_params\t${audio}`,
      `h\tjsgf\t${grammar.gram}\t${grammar.dict}\t-beam 1e-80 -wbeam 1e-60 -pbeam 1e-80\t${audio}`,
      '',
    ].join('\n'));
    await done;
    p.kill();
    expect(answers[0]).toMatchObject({ ready: true });
    expect(answers.slice(1, 10).map((a) => (a as { ok: boolean }).ok)).toEqual([false, false, false, false, false, false, false, false, false]);
    expect(answers[10]).toMatchObject({ id: 'h', ok: true, utts: [{ hyp: 'down to the tide caves' }] });
  });
});
