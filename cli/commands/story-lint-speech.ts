// `looptale story lint-speech <file> [--language en|fr] [--json] [--min-score P]`: at every stage of every moment,
// checks that each decision the engine accepts has a sentence a player can say (the story's `say`, or generated from
// its team, opponents, items and words), speaks those sentences in three synthetic voices, hears them as the server
// would, and reports decisions no sentence reaches, sentences not recognised or confused, and a score per stage.
// Exit codes: 0 clean, 1 an unspeakable decision, a sentence heard as another decision (confused) or the score under
// --min-score, 2 unreadable story or no recogniser for the language.
import { Option, type Command } from 'commander';
import type { PlayLanguage } from '../../engine/schema/enums.js';
import { parseVoiceConfig } from '../../server/voice/config.js';
import { HttpTranscriber } from '../../server/voice/http-stt.js';
import { formatSpeechLint, lintSpeech } from '../../server/voice/lint-speech.js';
import { transcriberHearing, understandingHearing, type Hearing } from '../../server/voice/hearing.js';
import { engineOption } from '../../server/voice/native-asr.js';
import { isPocketsphinxAvailable } from '../../server/voice/pocketsphinx.js';
import { SpeechUnderstanding } from '../../server/voice/understanding.js';
import { numberOption } from '../lib/options.js';
import { CliError, loadStory, runCommand } from '../lib/story-file.js';

type Options = { language: 'en' | 'fr'; json?: boolean; minScore: number; coverageOnly?: boolean };

async function recogniser(language: PlayLanguage): Promise<{ hearing: Hearing; close: () => Promise<void> }> {
  const parsed = parseVoiceConfig(process.env);
  if (!parsed.ok) throw new CliError(`Bad voice settings: ${parsed.problems.join('; ')}`);
  const c = parsed.config;
  if (c.STT_BASE_URL && c.STT_PROVIDER !== 'pocketsphinx') {
    const http = new HttpTranscriber({ baseUrl: c.STT_BASE_URL, model: c.STT_MODEL, timeoutMs: c.STT_TIMEOUT_MS, maxSeconds: c.VOICE_MAX_AUDIO_SECONDS, ...(c.STT_API_KEY ? { apiKey: c.STT_API_KEY } : {}) });
    return { hearing: transcriberHearing(http, { gate: true }), close: () => Promise.resolve() };
  }
  if (language === 'french') {
    throw new CliError('No offline French recogniser exists: set STT_BASE_URL (and STT_API_KEY, STT_MODEL) to an OpenAI-compatible transcription server to lint French.');
  }
  const ok = await isPocketsphinxAvailable(c.POCKETSPHINX_MODEL_DIR);
  if (!ok.ok) throw new CliError(`Offline English recognition needs pocketsphinx: sudo apt-get install pocketsphinx pocketsphinx-en-us (missing: ${ok.missing.join(', ')})`);
  // No deadline worth the name: a lint is not played live, and a decode cut short on a busy machine would be
  // reported as a sentence not recognised.
  // The engine the server uses (POCKETSPHINX_ENGINE; auto: the persistent decoders when built), so that the lint hears
  // as players are heard.
  const native = await engineOption(process.env);
  const u = new SpeechUnderstanding({ modelDir: c.POCKETSPHINX_MODEL_DIR, concurrency: 4, timeoutMs: 120_000, ...(native ? { native } : {}) });
  return { hearing: understandingHearing(u), close: () => u.close() };
}

export function addLintSpeech(story: Command): void {
  story
    .command('lint-speech')
    .description('check every decision has a sentence a player can say; speak them in several voices and check each is heard as the same decision')
    .argument('<file>', 'story JSON file')
    .addOption(new Option('--language <lang>', 'language to lint').choices(['en', 'fr']).default('en'))
    .option('--json', 'print the report as JSON')
    .option('--coverage-only', 'only check that every decision has a sentence a player can say (fast, no speech, no recogniser)')
    .option('--min-score <percent>', 'exit 1 when the overall score is below this', (v: string) => numberOption('min-score', v, { min: 0, max: 100 }), 90)
    .addHelpText('after', `
At every stage of every moment the bots reach (a battle's attack and each fighter's defence, an upgrade's bet and
each riddle), every decision the engine accepts must have a sentence a player can say: one of the story's say
sentences, or one generated from the team, the opponents, the items and the story's words (battle verbs and styles,
difficulty words, riddle answers, answer phrases, names). The story's sentences, and one generated sentence per
decision they leave out (up to 6 per stage), are spoken by eSpeak NG in three voices (clean; female with noise at
20 dB SNR; fast and low) and heard as the server hears them (pocketsphinx offline for English with the stage's models
and verification; STT_BASE_URL when set). Right means the brain decides the same from what was heard as from the typed
sentence. Problems reported: UNSPEAKABLE (a decision no sentence reaches: add a say sentence or words to the story),
CONFUSED (heard as another decision: reword it), NOT RECOGNISED (a miss: the player would be asked again), MATCHES
NOTHING (a say sentence that decides nothing where the bots reached the moment), and as a warning SMALL TALK TAKEN
(everyday talk, "Hold on", "Oh well", that typed decides something here: reword, or add the word to decoys). Exit 1
on an unspeakable decision, a confusion, or a score under --min-score (default 90).

Examples:
  $ looptale story lint-speech fixtures/stories/lantern-keeper/story.json
  $ looptale story lint-speech my-story.json --coverage-only
  $ looptale story lint-speech fixtures/stories/clockwork-siege/story.json --json > lint.json
  $ STT_BASE_URL=http://localhost:9000/v1 looptale story lint-speech my-story.json --language fr`)
    .action((file: string, o: Options) => runCommand(async () => {
      const s = loadStory(file);
      const language: PlayLanguage = o.language === 'fr' ? 'french' : 'english';
      const { hearing, close } = o.coverageOnly ? { hearing: null, close: () => Promise.resolve() } : await recogniser(language);
      try {
        const progress = process.stderr.isTTY && !o.json;
        const report = await lintSpeech(s, {
          hearing, language, coverageOnly: o.coverageOnly === true,
          onProgress: progress ? (done, total) => process.stderr.write(`\rlistening ${done}/${total}`) : undefined,
        });
        if (progress) process.stderr.write('\r\x1b[K');
        process.stdout.write(o.json ? `${JSON.stringify(report, null, 2)}\n` : formatSpeechLint(report));
        return report.confused > 0 || report.unspeakable > 0 || (!o.coverageOnly && report.score < o.minScore) ? 1 : 0;
      } finally {
        await close();
      }
    }));
}
