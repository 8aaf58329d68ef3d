// The game part of the server: the GameService (engine + store), the turn pipeline (+ brain and voice) and the
// catalogue and game routes. The
// WebSocket layer is attached by server/main.ts once the HTTP server listens.
import { NoTranscriber, type Transcriber } from '../voice/transcriber.js';
import { transcriberHearing, type Hearing } from '../voice/hearing.js';
import { parseVoiceConfig } from '../voice/config.js';
import { VoiceMissRepo } from '../store/voice-misses.js';
import { createVoice } from '../voice/setup.js';
import type { Synthesizer } from '../voice/synthesizer.js';
import type { RouteModule } from '../http/app.js';
import { catalogueRoutes } from '../api/catalogue-routes.js';
import { progressRoutes } from '../api/progress-routes.js';
import { gameRoutes } from '../api/game-routes.js';
import { TicketRepo } from '../store/tickets.js';
import { createBrain } from '../brain/setup.js';
import type { Brain } from './brain.js';
import { GameService } from './service.js';
import { TurnPipeline } from './turn-pipeline.js';

declare module '../http/app.js' {
  interface Services {
    play: GameService;
    turns: TurnPipeline;
    brain: Brain;
    transcriber: Transcriber;
    /** What the turn pipeline hears audio with (words, or a miss): the configured plugin behind the Hearing port. */
    hearing: Hearing;
    voiceMisses: VoiceMissRepo;
    synthesizer: Synthesizer | null;
  }
}

export const gameModule: RouteModule = async (app, s) => {
  // BRAIN / LLM_* variables (server/brain/config.ts): the scripted brain unless an LLM is configured.
  s.brain ??= await createBrain(process.env, { db: s.db, log: s.log });
  // Voice: STT_* / TTS_* variables (server/voice/config.ts). VOICE=off keeps the server text-only (tests).
  // The scripted brain tells whether words decide something: with it, words that decide nothing are a miss.
  const gate = s.brain.name === 'scripted';
  if (process.env.VOICE === 'off') {
    s.transcriber ??= new NoTranscriber();
    s.hearing ??= transcriberHearing(s.transcriber, { gate });
    s.synthesizer ??= null;
  } else {
    const voice = await createVoice(process.env, s.log.child({ component: 'voice' }));
    // A transcriber given by the caller (tests) is heard as it is; else the voice providers' listener.
    s.hearing ??= s.transcriber ? transcriberHearing(s.transcriber, { gate }) : voice.hearing({ gate });
    s.transcriber ??= voice.transcriber;
    s.synthesizer ??= voice.synthesizer;
    s.onClose.push(() => voice.close());
    s.log.info({ voice: voice.describe() }, 'voice providers');
  }
  s.play = new GameService({ store: s.game, stories: s.stories, log: s.log.child({ component: 'game' }) });
  // What players said that was not caught: kept per moment for authors, the words for VOICE_MISS_RETENTION_DAYS.
  const vc = parseVoiceConfig(process.env);
  const retentionDays = (vc.ok ? vc.config : vc.fallback).VOICE_MISS_RETENTION_DAYS;
  s.voiceMisses ??= new VoiceMissRepo(s.db);
  const misses = s.voiceMisses;
  const purge = (): void => {
    misses.purge(retentionDays).catch((err: unknown) => s.log.warn({ err }, 'voice misses purge failed'));
  };
  purge();
  const purger = setInterval(purge, 3_600_000);
  purger.unref();
  s.onClose.push(() => clearInterval(purger));
  s.turns = new TurnPipeline({
    game: s.play, store: s.game, brain: s.brain, transcriber: s.transcriber, hearing: s.hearing, misses, missRetentionDays: retentionDays,
    synthesizer: s.synthesizer, metrics: s.metrics, log: s.log.child({ component: 'game' }),
  });
  const tickets = new TicketRepo(s.db);
  await catalogueRoutes({ stories: s.stories })(app, s);
  await gameRoutes({ play: s.play, store: s.game, stories: s.stories, tickets, allowSeed: s.config.ALLOW_RUN_SEED })(app, s);
  await progressRoutes({ catalogue: s.stories, stories: s.stories, store: s.game })(app, s);
};
