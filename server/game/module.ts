// The game part of the server: the GameService (engine + store), the turn pipeline (+ brain and voice) and the
// catalogue and game routes. The
// WebSocket layer is attached by server/main.ts once the HTTP server listens.
import { NoTranscriber, type Transcriber } from '../voice/transcriber.js';
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
    synthesizer: Synthesizer | null;
  }
}

export const gameModule: RouteModule = async (app, s) => {
  // BRAIN / LLM_* variables (server/brain/config.ts): the scripted brain unless an LLM is configured.
  s.brain ??= await createBrain(process.env, { db: s.db, log: s.log });
  // Voice: STT_* / TTS_* variables (server/voice/config.ts). VOICE=off keeps the server text-only (tests).
  if (process.env.VOICE === 'off') {
    s.transcriber ??= new NoTranscriber();
    s.synthesizer ??= null;
  } else {
    const voice = await createVoice(process.env, s.log.child({ component: 'voice' }));
    s.transcriber ??= voice.transcriber;
    s.synthesizer ??= voice.synthesizer;
    s.onClose.push(() => voice.close());
    s.log.info({ voice: voice.describe() }, 'voice providers');
  }
  s.play = new GameService({ store: s.game, stories: s.stories, log: s.log.child({ component: 'game' }) });
  s.turns = new TurnPipeline({
    game: s.play, store: s.game, brain: s.brain, transcriber: s.transcriber, synthesizer: s.synthesizer, metrics: s.metrics,
    log: s.log.child({ component: 'game' }),
  });
  const tickets = new TicketRepo(s.db);
  await catalogueRoutes({ stories: s.stories })(app, s);
  await gameRoutes({ play: s.play, store: s.game, stories: s.stories, tickets, allowSeed: s.config.ALLOW_RUN_SEED })(app, s);
  await progressRoutes({ catalogue: s.stories, stories: s.stories, store: s.game })(app, s);
};
