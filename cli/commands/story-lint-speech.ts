// `looptale story lint-speech <file> [--language en|fr] [--json] [--min-score P]`: speaks every sentence each moment
// expects (its `say`) in three synthetic voices, recognises it as the server would, and reports sentences not
// recognised or confused with another answer, answers no sentence reaches, and a score per moment.
// Exit codes: 0 clean, 1 a sentence was heard as another answer (confused) or the score is under --min-score,
// 2 unreadable story or no recogniser for the language.
import { Option, type Command } from 'commander';
import type { PlayLanguage } from '../../engine/schema/enums.js';
import { parseVoiceConfig } from '../../server/voice/config.js';
import { HttpTranscriber } from '../../server/voice/http-stt.js';
import { formatSpeechLint, lintSpeech } from '../../server/voice/lint-speech.js';
import { isPocketsphinxAvailable, PocketsphinxTranscriber } from '../../server/voice/pocketsphinx.js';
import type { Transcriber } from '../../server/voice/transcriber.js';
import { numberOption } from '../lib/options.js';
import { CliError, loadStory, runCommand } from '../lib/story-file.js';

type Options = { language: 'en' | 'fr'; json?: boolean; minScore: number };

async function recogniser(language: PlayLanguage): Promise<Transcriber & { close?: () => Promise<void> }> {
  const parsed = parseVoiceConfig(process.env);
  if (!parsed.ok) throw new CliError(`Bad voice settings: ${parsed.problems.join('; ')}`);
  const c = parsed.config;
  if (c.STT_BASE_URL && c.STT_PROVIDER !== 'pocketsphinx') {
    return new HttpTranscriber({ baseUrl: c.STT_BASE_URL, model: c.STT_MODEL, timeoutMs: c.STT_TIMEOUT_MS, maxSeconds: c.VOICE_MAX_AUDIO_SECONDS, ...(c.STT_API_KEY ? { apiKey: c.STT_API_KEY } : {}) });
  }
  if (language === 'french') {
    throw new CliError('No offline French recogniser exists: set STT_BASE_URL (and STT_API_KEY, STT_MODEL) to an OpenAI-compatible transcription server to lint French.');
  }
  const ok = await isPocketsphinxAvailable(c.POCKETSPHINX_MODEL_DIR);
  if (!ok.ok) throw new CliError(`Offline English recognition needs pocketsphinx: sudo apt-get install pocketsphinx pocketsphinx-en-us (missing: ${ok.missing.join(', ')})`);
  return new PocketsphinxTranscriber({ modelDir: c.POCKETSPHINX_MODEL_DIR, poolSize: 2, mode: 'per-request' });
}

export function addLintSpeech(story: Command): void {
  story
    .command('lint-speech')
    .description('speak every expected sentence (say) of every moment in several voices and check it is heard as the same answer')
    .argument('<file>', 'story JSON file')
    .addOption(new Option('--language <lang>', 'language to lint').choices(['en', 'fr']).default('en'))
    .option('--json', 'print the report as JSON')
    .option('--min-score <percent>', 'exit 1 when the overall score is below this', (v: string) => numberOption('min-score', v, { min: 0, max: 100 }), 90)
    .addHelpText('after', `
Each sentence is spoken by eSpeak NG in three voices (clean; female with noise at 20 dB SNR; fast and low), recognised
with the moment's grammar (pocketsphinx offline for English; STT_BASE_URL when set), and given to the scripted brain.
Right means the brain decides the same from the recognised words as from the typed sentence.
Problems reported: CONFUSED (heard as another answer: reword it), NOT RECOGNISED (heard as a decoy or nothing),
MATCHES NOTHING (typed, the sentence matches no answer at the states the bots reached), UNCOVERED (an answer or
branch no sentence reaches). Exit 1 when a sentence is confused or the score is under --min-score (default 90).

Examples:
  $ looptale story lint-speech fixtures/stories/lantern-keeper/story.json
  $ looptale story lint-speech fixtures/stories/clockwork-siege/story.json --json > lint.json
  $ STT_BASE_URL=http://localhost:9000/v1 looptale story lint-speech my-story.json --language fr`)
    .action((file: string, o: Options) => runCommand(async () => {
      const s = loadStory(file);
      const language: PlayLanguage = o.language === 'fr' ? 'french' : 'english';
      const transcriber = await recogniser(language);
      try {
        const progress = process.stderr.isTTY && !o.json;
        const report = await lintSpeech(s, {
          transcriber, language,
          onProgress: progress ? (done, total) => process.stderr.write(`\rlistening ${done}/${total}`) : undefined,
        });
        if (progress) process.stderr.write('\r\x1b[K');
        process.stdout.write(o.json ? `${JSON.stringify(report, null, 2)}\n` : formatSpeechLint(report));
        return report.confused > 0 || report.score < o.minScore ? 1 : 0;
      } finally {
        await transcriber.close?.();
      }
    }));
}
