import { afterAll, expect, it } from 'vitest';
import { EspeakSynthesizer } from './espeak.js';
import { EspeakPool } from './espeak-pool.js';
import { speechChunks } from './sentences.js';

const pool = new EspeakPool([new EspeakSynthesizer(), new EspeakSynthesizer()]);
afterAll(async () => pool.close());

async function collect(it: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const c of it) out.push(c);
  return out;
}

it('spreads lines over its workers, each line whole and in order', async () => {
  await pool.ready;
  const lines = Array.from({ length: 8 }, (_, i) => `Line ${i + 1} begins here, and then it goes on. It ends with a second sentence.`);
  const chunks = await Promise.all(lines.map((text, i) => collect(pool.speak({ text, language: i % 2 ? 'french' : 'english', emotion: 'normal', intensity: 1, speaker: `s${i}` }))));
  chunks.forEach((c, i) => expect(c.length).toBe(speechChunks(lines[i] ?? '').length));
  // Both workers made sentences.
  expect(pool.stats.made).toBe(chunks.flat().length);
  expect(pool.size).toBe(2);
}, 60_000);
