// Makes the audio fixtures: the PLAYER's lines of the fixture stories' test plans (every `say` line and every
// alternative of a `defend` line, both languages),
// spoken by eSpeak NG in several voices, rates and pitches, with and without seeded noise, as 16 kHz mono WAV (0.5 s of
// silence before and after) and 22,050 Hz MP3, each with a JSON sidecar. Deterministic: the same sources give
// byte-identical files.
//
//   npx tsx scripts/make-audio-fixtures.ts                  # the committed set, into fixtures/audio
//   npx tsx scripts/make-audio-fixtures.ts --all --out DIR  # every voice profile (benchmarks; tens of MB)
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LANG_CODE, type PlayLanguage } from '../engine/schema/enums.js';
import { resample, STT_RATE, toInt16 } from '../server/voice/audio.js';
import { EspeakEngine, ESPEAK_RATE } from '../server/voice/espeak-engine.js';
import { playerLines, type PlayerLine } from '../server/voice/fixture-lines.js';
import { encodeMp3, loadMp3Encoder } from '../server/voice/mp3.js';
import { speakAsPlayer, type SpeechProfile } from '../server/voice/synthetic-speech.js';
import { encodeWav } from '../server/voice/wav.js';

type Profile = SpeechProfile & {
  languages: readonly PlayLanguage[];
  formats: readonly ('wav' | 'mp3')[];
};

/** Committed to the repository: kept to a few MB. */
const COMMITTED: Profile[] = [
  { id: 'm3-175-50', variant: 'm3', rate: 175, pitch: 50, snr: null, languages: ['english'], formats: ['wav', 'mp3'] },
  { id: 'm3-175-50', variant: 'm3', rate: 175, pitch: 50, snr: null, languages: ['french'], formats: ['mp3'] },
  { id: 'f2-150-70-noise20', variant: 'f2', rate: 150, pitch: 70, snr: 20, languages: ['english'], formats: ['mp3'] },
  { id: 'm7-200-35', variant: 'm7', rate: 200, pitch: 35, snr: null, languages: ['english'], formats: ['mp3'] },
];

/** Only with --all (every profile then writes both WAV and MP3): more variants, rates, pitches and noise levels. */
const EXTRA: Profile[] = [
  { id: 'f2-150-70-noise20', variant: 'f2', rate: 150, pitch: 70, snr: 20, languages: ['french'], formats: ['wav', 'mp3'] },
  { id: 'f4-185-60', variant: 'f4', rate: 185, pitch: 60, snr: null, languages: ['english', 'french'], formats: ['wav', 'mp3'] },
  { id: 'm1-140-40-noise15', variant: 'm1', rate: 140, pitch: 40, snr: 15, languages: ['english', 'french'], formats: ['wav', 'mp3'] },
  { id: 'f5-220-85', variant: 'f5', rate: 220, pitch: 85, snr: null, languages: ['english'], formats: ['wav', 'mp3'] },
  { id: 'm2-160-25-noise10', variant: 'm2', rate: 160, pitch: 25, snr: 10, languages: ['english'], formats: ['wav', 'mp3'] },
  { id: 'f1-175-50', variant: 'f1', rate: 175, pitch: 50, snr: null, languages: ['english'], formats: ['wav', 'mp3'] },
];

const MP3_KBPS = 48;

const render = (engine: EspeakEngine, l: PlayerLine, p: Profile, name: string): Float32Array => speakAsPlayer(engine, l.text, l.language, p, name);

async function main(argv: string[]): Promise<void> {
  await loadMp3Encoder();
  const all = argv.includes('--all');
  const outArg = argv.indexOf('--out');
  const outDir = resolve(outArg >= 0 ? (argv[outArg + 1] ?? 'fixtures/audio') : 'fixtures/audio');
  const storiesDir = resolve('fixtures/stories');
  const profiles = all ? [...COMMITTED, ...EXTRA] : COMMITTED;
  const lines = playerLines(storiesDir);
  const groups = new Map<string, PlayerLine[]>();
  for (const l of lines) {
    const key = `${l.story}/${LANG_CODE[l.language]}`;
    groups.set(key, [...(groups.get(key) ?? []), l]);
  }
  let files = 0;
  let bytes = 0;
  const write = (path: string, data: Uint8Array | string): void => {
    writeFileSync(path, data);
    files++;
    bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
  };
  for (const [key, group] of groups) {
    const dir = join(outDir, key);
    // Old clips of this story and language go: a line removed from a plan leaves no stale fixture behind.
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const language = group[0]?.language ?? 'english';
    for (const p of profiles.filter((x) => x.languages.includes(language))) {
      // A fresh engine per story, language and voice: eSpeak keeps a little state between utterances, so output
      // depends on what was said before; this way a group's clips never depend on other groups.
      const engine = await EspeakEngine.create();
      // Defence lines last: each clip depends on what the engine said before, so the say lines' clips stay as they were
      // before defences were added.
      for (const l of [...group.filter((x) => !x.defender), ...group.filter((x) => x.defender)]) {
        // A defence's alternatives share its line: the defender's name tells them apart.
        const name = `${l.plan}.l${l.line}${l.defender ? `.${l.defender.replace(/[^a-z0-9]+/g, '-')}` : ''}.${p.id}`;
        const signal = render(engine, l, p, name);
        const filesOf: Record<string, string> = {};
        const entry = {
          text: l.text, language: l.language,
          voice: { id: p.id, engine: 'espeak-ng', variant: p.variant, rate: p.rate, pitch: p.pitch, noise_snr_db: p.snr },
          story: l.story, plan: l.plan, line: l.line,
          seconds: Math.round((signal.length / ESPEAK_RATE) * 1000) / 1000,
          files: filesOf,
        };
        const formats = all ? ['wav', 'mp3'] : p.formats;
        if (formats.includes('wav')) {
          write(join(dir, `${name}.wav`), encodeWav(toInt16(resample(signal, ESPEAK_RATE, STT_RATE)), STT_RATE));
          filesOf.wav = `${name}.wav`;
        }
        if (formats.includes('mp3')) {
          write(join(dir, `${name}.mp3`), encodeMp3(toInt16(signal), ESPEAK_RATE, MP3_KBPS));
          filesOf.mp3 = `${name}.mp3`;
        }
        write(join(dir, `${name}.json`), `${JSON.stringify(entry, null, 2)}\n`);
      }
    }
  }
  const onDisk = du(outDir);
  console.log(JSON.stringify({ out: outDir, lines: lines.length, profiles: profiles.map((p) => p.id), files, bytes, total_mb: Math.round((onDisk / 1048576) * 100) / 100 }));
}

function du(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? du(p) : statSync(p).size;
  }
  return n;
}

// eSpeak seeds the random parts of some variants (breath noise in f2, f3...) from the clock: a fixed clock makes
// every run byte-identical. Nothing else in this script reads the time.
Date.now = () => 1_767_225_600_000;
await main(process.argv.slice(2));
