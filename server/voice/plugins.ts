// The plugins behind the Hearing port (hearing.ts), for `looptale doctor` and the start-up log: which exist, which
// one the configuration chose for each language, and how to choose another (STT_PROVIDER, server/voice/config.ts).
import type { PlayLanguage } from '../../engine/schema/enums.js';

export type HearingPluginId = 'pocketsphinx' | 'http' | 'app';

export type HearingPlugin = {
  id: HearingPluginId;
  /** What it is, in a few words. */
  what: string;
  /** The setting that chooses it. */
  choose: string;
};

export const HEARING_PLUGINS: readonly HearingPlugin[] = [
  { id: 'pocketsphinx', what: 'offline English (pocketsphinx, the stage\'s grammar and language model, verification)', choose: 'STT_PROVIDER=pocketsphinx, or auto without STT_BASE_URL' },
  { id: 'http', what: 'an OpenAI-compatible /audio/transcriptions, English and French', choose: 'STT_PROVIDER=http, or auto with STT_BASE_URL' },
  { id: 'app', what: "the native wrapper's own transcription, sent with the turn", choose: 'always on' },
];

export type HearingPluginStatus = { id: HearingPluginId; languages: PlayLanguage[] };

/** One line per plugin: its id, the languages it hears here (or "off") and how it is chosen. */
export function describePlugins(active: readonly HearingPluginStatus[]): string[] {
  return HEARING_PLUGINS.map((p) => {
    const on = active.find((a) => a.id === p.id);
    return `${p.id}: ${on && on.languages.length ? `on (${on.languages.join(', ')})` : 'off'}: ${p.what}; ${p.choose}`;
  });
}
