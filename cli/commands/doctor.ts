// `looptale doctor`: what this machine can do, and how to enable what is missing (speech recognition, speech
// synthesis, the LLM brain, PostgreSQL for tests). Exit 0 always: it only reports.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { llmSettings, loadBrainConfig } from '../../server/brain/config.js';
import { createLogger } from '../../server/log.js';
import { isPocketsphinxAvailable } from '../../server/voice/pocketsphinx.js';
import { describePlugins } from '../../server/voice/plugins.js';
import { createVoice } from '../../server/voice/setup.js';
import { runCommand } from '../lib/story-file.js';

export function register(program: Command): void {
  program
    .command('doctor')
    .description('show which voice and brain providers are active here, and how to enable the missing ones')
    .option('--json', 'print the report as JSON')
    .action((o: { json?: boolean }) => runCommand(async () => {
      const voice = await createVoice({ ...process.env, VOICE: 'on' }, createLogger('silent'));
      const d = voice.describe();
      await voice.close();
      let brain: string;
      try {
        const s = llmSettings(loadBrainConfig(process.env));
        brain = s ? `LLM ${s.model} at ${s.baseUrl} (falls back to the scripted brain on failure)` : 'scripted (set LLM_BASE_URL and LLM_MODEL, and LLM_API_KEY if needed, for an LLM brain)';
      } catch (e) {
        brain = `invalid LLM settings: ${(e as Error).message}`;
      }
      const sphinx = await isPocketsphinxAvailable();
      const report = {
        speech_to_text: d.stt,
        text_to_speech: d.tts,
        pocketsphinx: sphinx.ok ? 'installed' : `missing (${sphinx.missing.join(', ')}): sudo apt-get install pocketsphinx pocketsphinx-en-us`,
        brain,
        postgresql_for_tests: existsSync('/usr/lib/postgresql/15/bin/initdb') ? 'installed (/usr/lib/postgresql/15/bin)' : 'missing: sudo apt-get install postgresql-15',
      };
      if (o.json) {
        process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        return 0;
      }
      const lang = (s: typeof d.stt): string => Object.entries(s.languages).map(([k, v]) => `${k}: ${v}`).join(', ');
      process.stdout.write([
        `Speech to text:  ${d.stt.active ? d.stt.provider : 'none'} (${lang(d.stt)})`,
        ...(d.stt.missing.length ? [`  missing: ${d.stt.missing.join('; ')}`, `  ${d.stt.howToEnable}`] : []),
        ...(d.stt.engine ? [`  English decoder: ${d.stt.engine}`] : []),
        '  hearing plugins:',
        ...describePlugins(d.stt.plugins ?? []).map((l) => `    ${l}`),
        `Text to speech:  ${d.tts.active ? d.tts.provider : 'none'} (${lang(d.tts)})`,
        ...(d.tts.missing.length ? [`  missing: ${d.tts.missing.join('; ')}`, `  ${d.tts.howToEnable}`] : []),
        `pocketsphinx:    ${report.pocketsphinx}`,
        `Brain:           ${brain}`,
        `PostgreSQL:      ${report.postgresql_for_tests}`,
      ].join('\n') + '\n');
      return 0;
    }));
}
