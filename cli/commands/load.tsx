// `looptale load`: N concurrent virtual players against a server, by text or recorded audio, with socket drops;
// a live view, then a report; exit 1 on errors, lost or doubled turns, or a p99 over budget.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Command } from 'commander';
import { Box, render, Text } from 'ink';
import React from 'react';
import { parsePlan } from '../../engine/story/testplan.js';
import { Api } from '../lib/game-client.js';
import { numberOption } from '../lib/options.js';
import { CliError, runCommand } from '../lib/story-file.js';
import { type Clip, loadClips, LoadRunner, type LoadReport, type LoadSnapshot, type Pace } from '../load/runner.js';
import { SpawnedServer } from '../load/server-spawn.js';
import { formatServerMetrics } from '../load/server-metrics.js';
import { isLoopback } from '../load/stats.js';
import { formatStall } from '../load/timeline.js';

type Options = {
  url?: string; spawnServer?: boolean; killEvery?: string; dataDir?: string; stallS: string; patienceS: string; clients: string; ramp: string; duration: string; thinkTime: string; audio?: string; text?: boolean; dropRate: string;
  maxP99Ms?: string; json?: string; allowRemote?: boolean; story: string; plan?: string; password: string; seed: string; pace: string;
};

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function Live({ s, clients }: { s: LoadSnapshot; clients: number }): React.ReactElement {
  return (
    <Box flexDirection="column">
      <Text>connected {s.connected}/{clients}  turns {s.turns} ({s.turnsPerSecond}/s)  errors {s.errors}  drops {s.drops}  {s.elapsedS}s</Text>
      <Text>GAME_OUTPUT p50 {s.latency.p50 ?? '-'} ms  p95 {s.latency.p95 ?? '-'} ms  p99 {s.latency.p99 ?? '-'} ms</Text>
    </Box>
  );
}

export function formatLoadReport(r: LoadReport): string {
  const lat = (k: string): string => {
    const s = r.latency_ms[k];
    return s && s.n ? `n ${s.n}, p50 ${s.p50} ms, p95 ${s.p95} ms, p99 ${s.p99} ms, max ${s.max} ms` : 'none';
  };
  const v = r.verification;
  return [
    `${r.options.clients} clients, ${r.options.duration_s} s, ${r.options.mode}, drop rate ${r.options.drop_rate}, pace ${r.options.pace}`,
    `turns ${r.turns} (${r.turns_per_second}/s), runs ${r.runs}, drops ${r.drops}, reconnects ${r.reconnects}, audio not caught (then typed) ${r.stt_not_caught}`,
    `GAME_OUTPUT first: ${lat('game_output_first')}`,
    `GAME_OUTPUT final: ${lat('game_output_final')}`,
    `AUDIO_ANSWER first: ${lat('audio_answer_first')}`,
    ...(r.options.pace === 'player' ? [`listening to a reply (its text, then its speech to the end): ${lat('listening')}`] : []),
    ...Object.entries(r.server_stages_ms).map(([k, s]) => `server ${k}: p50 ${s.p50} ms, p99 ${s.p99} ms (n ${s.n})`),
    ...formatServerMetrics(r.server_metrics, r.server_metrics_error),
    `errors: ${Object.keys(r.errors).length ? JSON.stringify(r.errors) : 'none'}`,
    `stalls ${r.stalls.count} over ${r.stalls.threshold_s} s (longest wait ${Math.round(r.stalls.longest_wait_ms / 100) / 10} s)`,
    ...r.stalls.examples.flatMap((x) => formatStall(x, r.restarts)),
    ...(r.restarts ? [`server killed with SIGKILL and restarted ${r.restarts.length} times: ${r.restarts.map((x) => `at ${x.at_s} s, down ${x.down_ms} ms`).join('; ') || 'none'}`] : []),
    `checked ${v.runs_checked} runs, ${v.acknowledged_turns} acknowledged turns: ${v.lost_turns} lost, ${v.doubled_turns} doubled, ${v.count_mismatches} count mismatches`,
    ...v.problems.map((p) => `  ${p}`),
    `load generator: ${r.load_generator.cpu_cores} cores, event-loop delay p99 ${r.load_generator.event_loop_delay_p99_ms} ms`,
  ].join('\n');
}

export function register(program: Command): void {
  program
    .command('load')
    .description('load-test a server with N virtual players (text or recorded audio), socket drops, and checks that no turn was lost or doubled')
    .option('--url <url>', 'server URL (loopback only unless --allow-remote)')
    .option('--spawn-server', 'run the server here (looptale serve in a child process, its own data and port) instead of --url')
    .option('--kill-every <s>', 'with --spawn-server: kill the server with SIGKILL every this many seconds and start it again (same port and data)')
    .option('--data-dir <dir>', 'with --spawn-server: the server\'s DATA_DIR (default: a temporary folder, removed after)')
    .option('--stall-s <s>', 'a player kept waiting longer than this (a turn until acknowledged, reconnects included; a request) is a stall, and fails the run', '10')
    .option('--patience-s <s>', 'how long a player keeps trying to reach a server that is down before giving up', '60')
    .option('--clients <n>', 'concurrent virtual players', '10')
    .option('--ramp <s>', 'seconds over which players join', '5')
    .option('--duration <s>', 'seconds of play', '30')
    .option('--think-time <s>', 'seconds between a player\'s turns (randomised 0.5x-1.5x)', '1')
    .option('--pace <mode>', 'player: say each recorded line in its real length and hear each reply\'s speech out before thinking (as people play); flat-out: the next line a think time after each reply\'s text (a capacity test)', 'player')
    .option('--audio <dir>', 'send recorded clips (fixtures/audio) instead of text where a clip of the line exists')
    .option('--text', 'send text (the default)')
    .option('--drop-rate <p>', 'probability that a turn\'s socket is killed mid-turn (0..1)', '0')
    .option('--max-p99-ms <ms>', 'fail when the final GAME_OUTPUT p99 exceeds this')
    .option('--json <file>', 'also write the report as JSON to this file')
    .option('--story <dir>', 'fixture story folder to play', 'fixtures/stories/lantern-keeper')
    .option('--plan <file>', 'test plan each player follows (default: <story>/win.en.testplan)')
    .option('--password <pw>', 'password of the generated accounts', 'load-test-password-1')
    .option('--seed <n>', 'seed of drops and think times', '1')
    .option('--allow-remote', 'allow a non-loopback server')
    .addHelpText('after', `
Exit codes: 0 pass; 1 errors, stalls, lost or doubled turns, or p99 over budget; 2 bad usage.
The server must allow many sign-ups and requests from one address: start it with AUTH_RATE_LIMIT_SCALE=100 and
HTTP_RATE_LIMIT=100000 (requests the server still rate-limits are retried with back-off); --spawn-server does so.
Players reconnect at once when their socket closes (between turns too) and replay the pending input; a server that is
down (a restart) is waited for, up to --patience-s, and the wait counts towards the stall threshold.

Examples:
  looptale load --url http://localhost:8787 --clients 50 --duration 30 --drop-rate 0.1
  looptale load --url http://localhost:8787 --clients 200 --ramp 20 --duration 60 --audio fixtures/audio --json load.json
  looptale load --spawn-server --kill-every 10 --clients 30 --duration 30      # kill -9 and restart, 3 times
  looptale load --url http://localhost:8787 --clients 50 --audio fixtures/audio --pace flat-out   # capacity`)
    .action((o: Options) => runCommand(async () => {
      if (o.spawnServer === Boolean(o.url)) throw new CliError('Give either --url <server> or --spawn-server.');
      if (o.killEvery !== undefined && !o.spawnServer) throw new CliError('--kill-every needs --spawn-server (the harness restarts the server it runs).');
      if (o.url && !o.allowRemote && !isLoopback(o.url)) throw new CliError(`${o.url} is not a loopback address: load tests target this machine unless --allow-remote.`);
      const killEveryS = o.killEvery === undefined ? null : numberOption('kill-every', o.killEvery, { min: 1 });
      const stallS = numberOption('stall-s', o.stallS, { min: 0.1 });
      const patienceS = numberOption('patience-s', o.patienceS, { min: 1 });
      const planFile = o.plan ?? join(o.story, 'win.en.testplan');
      const parsed = parsePlan(readFileSync(planFile, 'utf8'));
      if (!parsed.ok) throw new CliError(`${planFile}: ${parsed.error}`);
      const storyRaw = JSON.parse(readFileSync(join(o.story, 'story.json'), 'utf8')) as { id: string };
      let spawned: SpawnedServer | null = null;
      if (o.spawnServer) {
        process.stderr.write('starting the server (looptale serve)...\n');
        spawned = await SpawnedServer.start({ ...(o.dataDir ? { dataDir: o.dataDir } : {}) }).catch((e: unknown) => {
          throw new CliError((e as Error).message, 1);
        });
      }
      const url = spawned?.url ?? o.url ?? '';
      try {
        await new Api(url).request('GET', '/healthz');
      } catch (e) {
        await spawned?.stop();
        throw new CliError((e as Error).message, 1);
      }
      if (o.pace !== 'player' && o.pace !== 'flat-out') throw new CliError(`--pace must be player or flat-out, not ${o.pace}`);
      const pace: Pace = o.pace;
      const clips = o.audio ? loadClips(o.audio) : new Map<string, Clip>();
      if (o.audio && clips.size === 0) throw new CliError(`No audio clips with sidecars found in ${o.audio}`);
      const runner = new LoadRunner({
        url, stallMs: stallS * 1000, patienceMs: patienceS * 1000, clients: numberOption('clients', o.clients, { min: 1, max: 10_000 }), rampS: numberOption('ramp', o.ramp, { min: 0 }), durationS: numberOption('duration', o.duration, { min: 1 }),
        thinkTimeS: numberOption('think-time', o.thinkTime, { min: 0 }), dropRate: numberOption('drop-rate', o.dropRate, { min: 0, max: 1 }), storyId: storyRaw.id, plan: parsed.steps,
        clips, password: o.password, seed: numberOption('seed', o.seed, { min: 0 }), pace,
      });
      const tty = Boolean(process.stderr.isTTY);
      const view = tty ? render(<Live s={runner.snapshot()} clients={runner.o.clients} />, { stdout: process.stderr, patchConsole: false }) : null;
      const tick = setInterval(() => {
        const s = runner.snapshot();
        if (view) view.rerender(<Live s={s} clients={runner.o.clients} />);
        else process.stderr.write(`${s.elapsedS}s connected ${s.connected} turns ${s.turns} (${s.turnsPerSecond}/s) errors ${s.errors} p99 ${s.latency.p99 ?? '-'} ms\n`);
      }, tty ? 500 : 5000);
      // kill -9 every --kill-every seconds, then the same server again; players reconnect and replay.
      const started = performance.now();
      let killing = true;
      // The next kill comes --kill-every seconds after the server is back, so that players play in between.
      const killer = spawned && killEveryS !== null ? (async () => {
        const server = spawned;
        const deadline = started + runner.o.durationS * 1000;
        let next = started + killEveryS * 1000;
        while (killing) {
          while (killing && performance.now() < next) await sleep(Math.min(250, next - performance.now()));
          if (!killing || performance.now() >= deadline) return;
          const r = await server.killAndRestart(started);
          process.stderr.write(`killed the server with SIGKILL at ${r.at_s} s; serving again after ${r.down_ms} ms\n`);
          next = performance.now() + killEveryS * 1000;
        }
      })() : null;
      let report: LoadReport;
      try {
        report = await runner.run();
      } finally {
        killing = false;
        await killer?.catch((e: unknown) => process.stderr.write(`restarting the server failed: ${(e as Error).message}\n`));
        clearInterval(tick);
        view?.unmount();
        await spawned?.stop();
      }
      if (spawned) report.restarts = spawned.restarts;
      process.stdout.write(`${formatLoadReport(report)}\n`);
      if (o.json) writeFileSync(o.json, `${JSON.stringify(report, null, 2)}\n`);
      const v = report.verification;
      const errors = Object.values(report.errors).reduce((a, b) => a + b, 0);
      const p99 = report.latency_ms.game_output_final?.p99 ?? 0;
      const overBudget = o.maxP99Ms !== undefined && p99 > numberOption('max-p99-ms', o.maxP99Ms, { min: 0 });
      const stalled = report.stalls.count > 0;
      const failed = errors > 0 || stalled || v.lost_turns > 0 || v.doubled_turns > 0 || v.count_mismatches > 0 || overBudget;
      const why = [overBudget ? `p99 ${p99} ms over ${o.maxP99Ms ?? ''} ms` : '', stalled ? `${report.stalls.count} stall${report.stalls.count === 1 ? '' : 's'} over ${stallS} s` : ''].filter(Boolean).join('; ');
      process.stdout.write(failed ? `FAIL${why ? ` (${why})` : ''}\n` : 'PASS\n');
      return failed ? 1 : 0;
    }));
}
