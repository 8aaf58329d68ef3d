// Voice benchmark: recognition accuracy and latency over the audio fixtures (both recogniser modes), false accepts
// on out-of-story speech, eSpeak time per sentence, MP3 encoding time. Prints JSON.
//   npx tsx server/voice/bench.ts [--dir fixtures/audio] [--modes long-lived,per-request]
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { momentSentences, momentVocabulary } from '../game/vocabulary.js';
import { resample, toFloat32, toInt16 } from './audio.js';
import { EspeakSynthesizer } from './espeak.js';
import { EspeakEngine } from './espeak-engine.js';
import { decisionKey, loadFixtureStory, stateBeforeLine } from './fixture-lines.js';
import { encodeMp3 } from './mp3.js';
import { PocketsphinxTranscriber } from './pocketsphinx.js';
import { encodeWav } from './wav.js';

type Clip = { file: string; format: 'wav' | 'mp3'; voice: string; text: string; story: string; plan: string; line: number };

const OUT_OF_STORY = ['Banana pancakes tomorrow', 'I like to watch football on television', 'My cat is sleeping on the sofa', 'Can you play some music please', 'Turn off the computer'];

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? 0);
};

function clips(dir: string): Clip[] {
  const out: Clip[] = [];
  for (const story of readdirSync(dir).sort()) {
    const en = join(dir, story, 'en');
    let files: string[];
    try {
      files = readdirSync(en).filter((f) => f.endsWith('.json')).sort();
    } catch {
      continue;
    }
    for (const f of files) {
      const meta = JSON.parse(readFileSync(join(en, f), 'utf8')) as { text: string; plan: string; line: number; voice: { id: string }; files: Record<string, string> };
      for (const format of ['wav', 'mp3'] as const) {
        const file = meta.files[format];
        if (file) out.push({ file: join(en, file), format, voice: meta.voice.id, text: meta.text, story, plan: meta.plan, line: meta.line });
      }
    }
  }
  return out;
}

async function main(argv: string[]): Promise<void> {
  const arg = (name: string, dflt: string): string => {
    const i = argv.indexOf(name);
    return i >= 0 ? (argv[i + 1] ?? dflt) : dflt;
  };
  const dir = resolve(arg('--dir', 'fixtures/audio'));
  const storiesDir = resolve('fixtures/stories');
  const modes = arg('--modes', 'long-lived,per-request').split(',') as ('long-lived' | 'per-request')[];
  const all = clips(dir);
  const stories = new Map(['lantern-keeper', 'clockwork-siege'].map((s) => [s, loadFixtureStory(storiesDir, s)]));
  const contexts = all.map((c) => {
    const story = stories.get(c.story);
    if (!story) throw new Error(`unknown story ${c.story}`);
    const state = stateBeforeLine(storiesDir, story, c.story, c.plan, c.line);
    return { clip: c, story, state, sentences: momentSentences(story, state, 'english'), vocabulary: momentVocabulary(story, state, 'english'), decoys: story.decoys?.en ?? [] };
  });
  const report: Record<string, unknown> = { clips: all.length, dir };

  // Out-of-story sentences, spoken by the clean fixture voice, tried in every moment the clips are said in.
  const engine = await EspeakEngine.create();
  const oos = OUT_OF_STORY.map((text) => {
    const pcm = toFloat32(engine.synth(text, { voice: 'en-us+m3', rate: 175, pitch: 50, range: 50, volume: 100 }));
    const padded = new Float32Array(pcm.length + 22050);
    padded.set(pcm, 11025);
    return { text, wav: encodeWav(toInt16(resample(padded, 22050, 16000)), 16000) };
  });
  const moments = [...new Map(contexts.map((c) => [JSON.stringify(c.vocabulary), c])).values()];

  for (const mode of modes) {
    const stt = new PocketsphinxTranscriber({ mode, poolSize: 2 });
    for (const m of moments) await stt.prepare(m.vocabulary, m.decoys, m.sentences);
    const latency: number[] = [];
    const byVoice: Record<string, { n: number; right: number }> = {};
    let right = 0;
    for (const c of contexts) {
      const bytes = readFileSync(c.clip.file);
      const t0 = performance.now();
      const r = await stt.transcribe({ audio: { bytes, format: c.clip.format }, language: 'english', sentences: c.sentences, vocabulary: c.vocabulary, decoys: c.decoys });
      latency.push(performance.now() - t0);
      const ok = decisionKey(c.story, c.state, c.clip.text) === decisionKey(c.story, c.state, r.ok ? r.text : '');
      const k = `${c.clip.voice}.${c.clip.format}`;
      byVoice[k] ??= { n: 0, right: 0 };
      byVoice[k].n++;
      if (ok) {
        right++;
        byVoice[k].right++;
      }
    }
    let falseAccepts = 0;
    let tries = 0;
    for (const o of oos) {
      for (const m of moments) {
        const r = await stt.transcribe({ audio: { bytes: o.wav, format: 'wav' }, language: 'english', sentences: m.sentences, vocabulary: m.vocabulary, decoys: m.decoys });
        tries++;
        // A false accept: the words heard make the brain match something (an answer, branch, name...).
        const heard = r.ok ? r.text : '';
        const matched = (JSON.parse(decisionKey(m.story, m.state, heard)) as unknown[])[0];
        if (matched !== '' && decisionKey(m.story, m.state, heard) !== decisionKey(m.story, m.state, '')) falseAccepts++;
      }
    }
    report[mode] = {
      accuracy: Math.round((right / contexts.length) * 1000) / 1000,
      by_voice: Object.fromEntries(Object.entries(byVoice).map(([k, v]) => [k, `${v.right}/${v.n}`])),
      latency_ms: { p50: pct(latency, 0.5), p90: pct(latency, 0.9), max: pct(latency, 1) },
      out_of_story_false_accepts: `${falseAccepts}/${tries}`,
      processes_started: stt.spawned,
    };
    await stt.close();
  }

  // Text to speech: warm eSpeak in its worker, per sentence.
  const tts = new EspeakSynthesizer();
  await tts.ready;
  const lines = contexts.slice(0, 20).map((c) => c.clip.text);
  const firstChunk: number[] = [];
  for (const text of [...lines, ...lines]) {
    const t0 = performance.now();
    for await (const _chunk of tts.speak({ text, language: 'english', emotion: 'normal', intensity: 1, speaker: text })) {
      firstChunk.push(performance.now() - t0);
      break;
    }
  }
  const warm = tts.timings.slice(-20);
  report.tts = {
    synth_ms_per_sentence: { p50: pct(warm.map((t) => t.synthMs), 0.5), p90: pct(warm.map((t) => t.synthMs), 0.9) },
    mp3_encode_ms_per_sentence: { p50: pct(warm.map((t) => t.encodeMs), 0.5), p90: pct(warm.map((t) => t.encodeMs), 0.9) },
    first_chunk_ms: { p50: pct(firstChunk.slice(-20), 0.5), p90: pct(firstChunk.slice(-20), 0.9) },
    sentence_seconds_p50: Math.round(pct(warm.map((t) => t.seconds * 1000), 0.5)) / 1000,
  };
  await tts.close();

  // MP3 encoding on this thread, 5 s of speech-like audio at 22,050 Hz, warm.
  const speech = toInt16(toFloat32(engine.synth(lines.join(' '), { voice: 'en-us+m3', rate: 175, pitch: 50, range: 50, volume: 100 })).subarray(0, 5 * 22050));
  for (let i = 0; i < 3; i++) encodeMp3(speech, 22050, 64);
  const enc: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    encodeMp3(speech, 22050, 64);
    enc.push(performance.now() - t0);
  }
  report.mp3_encode_ms_per_5s = pct(enc, 0.5);
  console.log(JSON.stringify(report, null, 2));
}

await main(process.argv.slice(2));
