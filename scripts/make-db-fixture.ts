// Plays as two players against a running server, to fill a database that then becomes a fixture
// (fixtures/db/README.md): Ada wins The Lantern Keeper (Rank A, a golden ticket), redeems the ticket for a permanent
// card and redeems a waitlist invite; Ben starts a French run and plays its first steps.
//
//   npx tsx scripts/make-db-fixture.ts http://127.0.0.1:8805
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Api, GameSocket } from '../cli/lib/game-client.js';
import { runPlanRemote } from '../cli/lib/remote-plan.js';
import { parsePlan, type PlanStep } from '../engine/story/testplan.js';

const STORY = join(import.meta.dirname, '../fixtures/stories/lantern-keeper');

function plan(file: string): PlanStep[] {
  const p = parsePlan(readFileSync(join(STORY, file), 'utf8'));
  if (!p.ok) throw new Error(p.error);
  return p.steps;
}

async function main(url: string): Promise<void> {
  const ada = new Api(url);
  await ada.signUp('ada@example.com', 'ada-legacy-password-1');
  const stories = await ada.request<{ id: string; name: string }[]>('GET', '/api/stories');
  const story = stories.find((s) => s.name === 'The Lantern Keeper')?.id;
  if (!story) throw new Error('The Lantern Keeper is not in the catalogue');
  const run = await ada.request<{ id: string }>('POST', '/api/player-stories', { blueprint_story_id: story, language: 'english' });
  const socket = await GameSocket.connect(url, ada.token ?? '');
  const won = await runPlanRemote(ada, socket, run.id, plan('win.en.testplan'));
  await socket.close();
  if (won.failure) throw new Error(`Ada's run: ${JSON.stringify(won.failure)}`);
  const tickets = await ada.request<{ id: string }[]>('GET', '/api/tickets');
  const view = await ada.request<{ enrolled_characters: { character_id: string }[] }>('GET', `/api/player-stories/${run.id}/game-view`);
  const card = view.enrolled_characters[0]?.character_id;
  if (!tickets[0] || !card) throw new Error('no ticket or card after a won run');
  await ada.request('POST', `/api/tickets/${tickets[0].id}/redeem`, { card: { kind: 'character', id: card } });
  const invite = await fetch(`${url}/marketing/waitlist_redeem`, {
    method: 'POST', headers: { authorization: `Bearer ${ada.token ?? ''}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: 'ada@example.com', invite_token: 'legacy-invite' }),
  });
  if (!invite.ok) throw new Error(`waitlist_redeem answered ${invite.status}`);

  const ben = new Api(url);
  await ben.signUp('ben@example.com', 'ben-legacy-password-1');
  const benRun = await ben.request<{ id: string }>('POST', '/api/player-stories', { blueprint_story_id: story, language: 'french' });
  const benSocket = await GameSocket.connect(url, ben.token ?? '');
  const started = await runPlanRemote(ben, benSocket, benRun.id, plan('win.fr.testplan').slice(0, 5));
  await benSocket.close();
  if (started.failure) throw new Error(`Ben's run: ${JSON.stringify(started.failure)}`);
  console.log(JSON.stringify({ ada: run.id, ben: benRun.id }));
}

const url = process.argv[2];
if (!url) {
  console.error('usage: npx tsx scripts/make-db-fixture.ts SERVER_URL');
  process.exit(2);
}
main(url).catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
