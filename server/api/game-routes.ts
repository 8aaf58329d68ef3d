// Launch, runs, the game's read models, tickets and redemption. Writes go through the GameService (the engine);
// every route on user data answers 401 without a token and 404 for another user's rows.
import { z } from 'zod';
import { launchState } from '../../engine/catalogue/launch.js';
import { rankToLetter } from '../../engine/rules/rank.js';
import { bestRankOf, runCount, type GameState } from '../../engine/run/state.js';
import { gameView, momentView, storyGraph, ticketCards } from '../../engine/run/views.js';
import { PlayLanguage } from '../../engine/schema/enums.js';
import { GameView, type ImageDetails, MomentView, StoryGraph, TicketCards } from '../../engine/schema/views.js';
import { DialogueEntry, PermanentCharacter, PermanentCharacterItem, PlayerStory, TicketWithStory } from '../../engine/schema/player.js';
import { toJsonl } from '../../engine/sim/transcript.js';
import type { RouteModule } from '../http/app.js';
import { HttpError, notFound } from '../http/errors.js';
import { route } from '../http/route.js';
import { publicImageUrl } from '../media/urls.js';
import { GameError, type GameService } from '../game/service.js';
import type { GameStorePort, RunOwner, StoryStorePort } from '../game/ports.js';

export interface TicketStorePort {
  ticketsWithStory(userId: string): Promise<z.infer<typeof TicketWithStory>[]>;
  permanentCharacters(userId: string): Promise<(z.infer<typeof PermanentCharacter> & { items: z.infer<typeof PermanentCharacterItem>[]; media: { media_url: string }[] })[]>;
}

const Id = z.object({ id: z.uuid({ message: 'must be a UUID' }) });
const CreateRun = z.object({
  blueprint_story_id: z.uuid(),
  language: PlayLanguage.default('english'),
  reset_progress: z.boolean().default(false),
  /** ALLOW_RUN_SEED=true only: the random seed of the player's first state in this story (to replay a transcript). */
  seed: z.number().int().min(0).max(0xffffffff).optional(),
}).strict();
const Redeem = z.object({ card: z.object({ kind: z.enum(['character', 'item']), id: z.uuid() }).strict() }).strict();

const Launch = z.object({
  state: z.enum(['FRESH', 'ONGOING', 'COMPLETED']),
  continue_player_story_id: z.string().nullable(),
  buttons: z.array(z.object({ action: z.string(), label: z.string() })),
  best_rank: z.string().nullable(),
  runs: z.number().int(),
});

function http(e: unknown): never {
  if (e instanceof GameError) throw new HttpError(e.status, e.code, e.message);
  throw e;
}

export function gameRoutes(deps: { play: GameService; store: GameStorePort; stories: StoryStorePort; tickets: TicketStorePort; allowSeed: boolean }): RouteModule {
  /** The user's state for the story of one of their runs; 404 when the run is not theirs. */
  async function ownedState(userId: string, playerStoryId: string): Promise<{ state: GameState; owner: RunOwner }> {
    const owner = await deps.store.playerStoryOwner(playerStoryId);
    if (!owner || owner.user_id !== userId) throw notFound('Player story not found.');
    const loaded = await deps.store.loadState(userId, owner.blueprint_story_id);
    if (!loaded) throw notFound('Player story not found.');
    return { state: loaded.state, owner };
  }
  /** The run's state and the story version it plays. */
  async function currentRunState(userId: string, playerStoryId: string) {
    const { state, owner } = await ownedState(userId, playerStoryId);
    if (state.run?.id !== playerStoryId) throw new HttpError(409, 'run/not_current', 'This run is not the current run of its story: start or continue the latest run.');
    const story = await deps.play.storyOfRun(owner).catch(http);
    return { state, story };
  }

  return (app, services) => {
    route(app, { method: 'GET', url: '/api/stories/:id/launch', summary: 'Launch state FRESH / ONGOING / COMPLETED with its choices and the best rank', tags: ['launch'], auth: 'user', params: Id, response: Launch },
      async ({ params, user }) => {
        const loaded = await deps.store.loadState(user?.id ?? '', params.id);
        // The latest run decides (earlier ones are never ongoing: starting a run ends the one before); the state sums
        // the earlier ones up for the best rank and the count.
        const s = loaded?.state;
        const choice = launchState(s?.run ? [s.run] : []);
        const best = s ? bestRankOf(s) : null;
        return { state: choice.state, continue_player_story_id: choice.continueRunId, buttons: [...choice.buttons], best_rank: best === null ? null : rankToLetter(best), runs: s ? runCount(s) : 0 };
      });
    route(app, { method: 'POST', url: '/api/player-stories', summary: 'Start a run (the run creation plan, in one transaction)', tags: ['launch'], auth: 'user', body: CreateRun, response: PlayerStory, status: 201 },
      async ({ body, user }) => {
        if (body.seed !== undefined && !deps.allowSeed) throw new HttpError(400, 'seed_not_allowed', 'seed is accepted only by servers started with ALLOW_RUN_SEED=true (online replays).');
        return deps.play.createRun(user?.id ?? '', body.blueprint_story_id, body).catch(http);
      });
    route(app, { method: 'POST', url: '/api/stories/:id/reset-progress', summary: 'Reset all progress of the story and start a new run', tags: ['launch'], auth: 'user', params: Id, body: z.object({ language: PlayLanguage.default('english') }).strict(), response: PlayerStory, status: 201 },
      async ({ params, body, user }) => deps.play.createRun(user?.id ?? '', params.id, { language: body.language, reset_progress: true }).catch((e: unknown) => {
        if (e instanceof GameError && e.status >= 500) throw new HttpError(500, 'reset_failed', 'Failed to reset progress');
        return http(e);
      }));
    route(app, { method: 'GET', url: '/api/player-stories/:id', summary: 'A player story (run) row', tags: ['game'], auth: 'user', params: Id, response: PlayerStory },
      async ({ params, user }) => {
        const owner = await deps.store.playerStoryOwner(params.id);
        const row = owner?.user_id === user?.id ? await deps.store.playerStory(params.id) : null;
        if (!row) throw notFound('Player story not found.');
        return row;
      });
    route(app, { method: 'GET', url: '/api/player-stories/:id/game-view', summary: 'The game engine view of the run', tags: ['game'], auth: 'user', params: Id, response: GameView },
      async ({ params, user }) => {
        const { state, story } = await currentRunState(user?.id ?? '', params.id);
        const v = gameView(state, story);
        if (!v) throw notFound('This run has no current moment.');
        // Story files name their media relative to themselves: the view carries public URLs, as the catalogue does.
        const url = (path: string) => publicImageUrl(services.config, story.id, path);
        const details = (d: ImageDetails[]) => d.map((x) => ({ ...x, media_url: url(x.media_url) }));
        return {
          ...v, place_image_details: details(v.place_image_details), moment_image_details: details(v.moment_image_details),
          character_image_details: details(v.character_image_details),
          card_images: Object.fromEntries(Object.entries(v.card_images).map(([id, path]) => [id, url(path)])),
        };
      });
    route(app, { method: 'GET', url: '/api/player-stories/:id/story-graph', summary: "The run so far as moment nodes (the game screen's story graph)", tags: ['game'], auth: 'user', params: Id, response: StoryGraph },
      async ({ params, user }) => {
        const { state, story } = await currentRunState(user?.id ?? '', params.id);
        const g = storyGraph(state, story);
        if (!g) throw notFound('This run has no current moment.');
        return g;
      });
    route(app, { method: 'GET', url: '/api/player-stories/:id/moment-view', summary: 'The current moment of the run', tags: ['game'], auth: 'user', params: Id, response: MomentView },
      async ({ params, user }) => {
        const { state, story } = await currentRunState(user?.id ?? '', params.id);
        const v = momentView(state, story);
        if (!v) throw notFound('This run has no current moment.');
        return v;
      });
    route(app, { method: 'GET', url: '/api/player-stories/:id/dialogue', summary: 'Dialogue history of every moment of the run, in order', tags: ['game'], auth: 'user', params: Id,
      response: z.array(z.object({ player_moment_id: z.string(), blueprint_moment_id: z.string(), dialogue_history: z.array(DialogueEntry) })) },
      async ({ params, user }) => {
        const { state } = await currentRunState(user?.id ?? '', params.id);
        return state.moments.map((m) => ({ player_moment_id: m.id, blueprint_moment_id: m.blueprint_moment_id, dialogue_history: m.dialogue_history }));
      });
    route(app, { method: 'POST', url: '/api/player-stories/:id/end', summary: 'End Current Run: the run is lost, its rank stored', tags: ['game'], auth: 'user', params: Id, response: PlayerStory },
      async ({ params, user }) => deps.play.endRun(user?.id ?? '', params.id).catch(http));
    route(app, { method: 'GET', url: '/api/player-stories/:id/transcript', summary: 'The run transcript as JSONL (the format of simulate --save-transcripts)', tags: ['game'], auth: 'user', params: Id, produces: 'application/x-ndjson' },
      async ({ params, user, reply }) => {
        const owner = await deps.store.playerStoryOwner(params.id);
        if (!owner || owner.user_id !== user?.id) throw notFound('Player story not found.');
        const lines = (await deps.store.transcript(params.id)).map((l, i) => (l.kind === 'event' ? { ...l, index: i - 1 } : l));
        await reply.header('content-type', 'application/x-ndjson').send(lines.length ? toJsonl(lines) : '');
        return undefined;
      });
    route(app, { method: 'GET', url: '/api/tickets', summary: "The user's golden tickets with their story, newest first", tags: ['tickets'], auth: 'user', response: z.array(TicketWithStory) },
      // The joined story's logo as a public URL, as the catalogue gives it (stored: a story-relative path).
      async ({ user }) => (await deps.tickets.ticketsWithStory(user?.id ?? '')).map((t) => ({ ...t, story: { ...t.story, story_logo_image: publicImageUrl(services.config, t.story.id, t.story.story_logo_image) } })));
    route(app, { method: 'GET', url: '/api/tickets/:id/cards', summary: "The cards a ticket can make permanent: characters and items of the latest run of the ticket's story", tags: ['tickets'], auth: 'user', params: Id, response: TicketCards },
      async ({ params, user }) => {
        const ticket = (await deps.tickets.ticketsWithStory(user?.id ?? '')).find((t) => t.id === params.id);
        if (!ticket || ticket.is_redeemed) throw new HttpError(404, 'ticket/invalid', 'Invalid ticket or ticket already redeemed');
        const loaded = await deps.store.loadState(user?.id ?? '', ticket.blueprint_story_id);
        return loaded ? ticketCards(loaded.state) : { player_story_id: null, characters: [], items: [] };
      });
    route(app, { method: 'POST', url: '/api/tickets/:id/redeem', summary: 'Redeem a ticket for a character or an item of the latest run of its story (one transaction)', tags: ['tickets'], auth: 'user', params: Id, body: Redeem,
      response: z.object({ permanent_character: PermanentCharacter.nullable(), permanent_items: z.array(PermanentCharacterItem) }) },
      async ({ params, body, user }) => {
        const ticket = (await deps.tickets.ticketsWithStory(user?.id ?? '')).find((t) => t.id === params.id);
        if (!ticket || ticket.is_redeemed) throw new HttpError(404, 'ticket/invalid', 'Invalid ticket or ticket already redeemed');
        const r = await deps.play.redeem(user?.id ?? '', ticket.blueprint_story_id, params.id, body.card).catch(http);
        return { permanent_character: r.permanent_character, permanent_items: r.permanent_items };
      });
    route(app, { method: 'GET', url: '/api/permanent-characters', summary: "The user's permanent cards with their items and media", tags: ['tickets'], auth: 'user' },
      async ({ user }) => deps.tickets.permanentCharacters(user?.id ?? ''));
  };
}
