// The game screen's sounds (web/src/game/sounds/*.mp3), ORIGINAL: synthesized here with sox (tones, noise, envelopes)
// and encoded to MP3 (22,050 Hz mono, 64 kbps) with LAME (server/voice/mp3.ts; the committed files were made with lamejs,
// the encoder of the time). Output is deterministic for a given sox build.
//
//   npx tsx scripts/make-game-sounds.ts            # rewrites web/src/game/sounds/
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeMp3, loadMp3Encoder } from '../server/voice/mp3.js';

const RATE = 22050;
const OUT = join(import.meta.dirname, '..', 'web', 'src', 'game', 'sounds');

/** sox synthesis arguments (after `-n`) for each sound. */
const SOUNDS: Record<string, string[]> = {
  // A soft hover tick.
  hover: ['synth', '0.05', 'sine', '1800', 'fade', 'q', '0.005', '0.05', '0.04', 'gain', '-14'],
  // Recording starts: a rising two-note blip.
  record: ['synth', '0.09', 'sine', '660', ':', 'synth', '0.12', 'sine', '990', 'fade', 'q', '0.01', '0.12', '0.06', 'gain', '-6'],
  // A perfect answer: a bright major arpeggio.
  perfect: ['synth', '0.12', 'triangle', '784', ':', 'synth', '0.12', 'triangle', '988', ':', 'synth', '0.35', 'triangle', '1175', 'fade', 'q', '0.005', '0.35', '0.25', 'gain', '-8'],
  // Start: a warm swell on a fifth.
  start: ['synth', '0.9', 'sine', '220', 'sine', '330', 'remix', '-', 'fade', 'h', '0.25', '0.9', '0.5', 'gain', '-4'],
  // Lost: a falling minor line.
  lost: ['synth', '0.3', 'triangle', '392', ':', 'synth', '0.3', 'triangle', '349', ':', 'synth', '0.8', 'triangle', '311', 'fade', 'q', '0.01', '0.8', '0.6', 'gain', '-6'],
  // The menu opens / closes: a short whoosh up / down.
  opening: ['synth', '0.35', 'pinknoise', 'band', '-n', '1200', '900', 'fade', 'q', '0.05', '0.35', '0.25', 'gain', '-10'],
  closing: ['synth', '0.3', 'pinknoise', 'band', '-n', '600', '500', 'fade', 'q', '0.02', '0.3', '0.25', 'gain', '-10'],
  // Four bubbles (a character's line appears): short pitched plops.
  bubble1: ['synth', '0.08', 'sine', '520-900', 'fade', 'q', '0.005', '0.08', '0.06', 'gain', '-8'],
  bubble2: ['synth', '0.08', 'sine', '600-1040', 'fade', 'q', '0.005', '0.08', '0.06', 'gain', '-8'],
  bubble3: ['synth', '0.08', 'sine', '460-820', 'fade', 'q', '0.005', '0.08', '0.06', 'gain', '-8'],
  bubble4: ['synth', '0.08', 'sine', '700-1180', 'fade', 'q', '0.005', '0.08', '0.06', 'gain', '-8'],
  // Thinking (loops while the game processes): a soft pulsing hum, 2 s.
  thinking: ['synth', '2', 'sine', '294', 'sine', '440', 'remix', '-', 'tremolo', '2', '60', 'gain', '-14'],
  // Background music (loops at 7%): an 8 s drone on a minor chord with slow tremolo.
  background: ['synth', '8', 'sine', '110', 'sine', '164.8', 'sine', '130.8', 'remix', '-', 'tremolo', '0.25', '40', 'fade', 'q', '0.5', '8', '0.5', 'gain', '-6'],
};

function pcm(args: string[]): Int16Array {
  const raw = execFileSync('sox', ['-q', '-n', '-r', String(RATE), '-c', '1', '-b', '16', '-e', 'signed-integer', '-t', 'raw', '-', ...args], { maxBuffer: 64 << 20 });
  return new Int16Array(raw.buffer, raw.byteOffset, raw.byteLength >> 1);
}

await loadMp3Encoder();
let total = 0;
for (const [name, args] of Object.entries(SOUNDS)) {
  const bytes = encodeMp3(pcm(args), RATE, 64);
  writeFileSync(join(OUT, `${name}.mp3`), bytes);
  total += bytes.length;
  console.log(`${name}.mp3 ${bytes.length} B`);
}
console.log(`total ${total} B`);
