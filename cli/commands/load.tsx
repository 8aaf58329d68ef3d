// `looptale load`: N concurrent virtual players against a server, by text or recorded audio, with socket drops;
// a live view, then a report; exit 1 on errors, lost or doubled turns, or a p99 over budget.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { Box, render, Text } from 'ink';
import React from 'react';
import { parsePlan } from '../../engine/story/testplan.js';
import { Api } from '../lib/game-client.js';
import { numberOption } from '../lib/options.js';
import { CliError, runCommand } from '../lib/story-file.js';
import { loadClips, LoadRunner, type LoadReport, type LoadSnapshot } from '../load/runner.js';
import { formatServerMetrics } from '../load/server-metrics.js';
import { isLoopback } from '../load/stats.js';

type Options = {
  url: string; clients: string; ramp: string; duration: string; thinkTime: string; audio?: string; text?: boolean; dropRate: string;
  maxP99Ms?: string; json?: string; allowRemote?: boolean; story: string; plan?: string; password: string; seed: string;
};

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
    `${r.options.clients} clients, ${r.options.duration_s} s, ${r.options.mode}, drop rate ${r.options.drop_rate}`,
    `turns ${r.turns} (${r.turns_per_second}/s), runs ${r.runs}, drops ${r.drops}, reconnects ${r.reconnects}, audio not caught (then typed) ${r.stt_not_caught}`,
    `GAME_OUTPUT first: ${lat('game_output_first')}`,
    `GAME_OUTPUT final: ${lat('game_output_final')}`,
    `AUDIO_ANSWER first: ${lat('audio_answer_first')}`,
    ...Object.entries(r.server_stages_ms).map(([k, s]) => `server ${k}: p50 ${s.p50} ms, p99 ${s.p99} ms (n ${s.n})`),
    ...formatServerMetrics(r.server_metrics, r.server_metrics_error),
    `errors: ${Object.keys(r.errors).length ? JSON.stringify(r.errors) : 'none'}`,
    `checked ${v.runs_checked} runs, ${v.acknowledged_turns} acknowledged turns: ${v.lost_turns} lost, ${v.doubled_turns} doubled, ${v.count_mismatches} count mismatches`,
    ...v.problems.map((p) => `  ${p}`),
    `load generator: ${r.load_generator.cpu_cores} cores, event-loop delay p99 ${r.load_generator.event_loop_delay_p99_ms} ms`,
  ].join('\n');
}

export function register(program: Command): void {
  program
    .command('load')
    .description('load-test a server with N virtual players (text or recorded audio), socket drops, and checks that no turn was lost or doubled')
    .requiredOption('--url <url>', 'server URL (loopback only unless --allow-remote)')
    .option('--clients <n>', 'concurrent virtual players', '10')
    .option('--ramp <s>', 'seconds over which players join', '5')
    .option('--duration <s>', 'seconds of play', '30')
    .option('--think-time <s>', 'seconds between a player\'s turns (randomised 0.5x-1.5x)', '1')
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
Exit codes: 0 pass; 1 errors, lost or doubled turns, or p99 over budget; 2 bad usage.
The server must allow many sign-ups and requests from one address: start it with AUTH_RATE_LIMIT_SCALE=100 and
HTTP_RATE_LIMIT=100000 (requests the server still rate-limits are retried with back-off).

Examples:
  looptale load --url http://localhost:8787 --clients 50 --duration 30 --drop-rate 0.1
  looptale load --url http://localhost:8787 --clients 200 --ramp 20 --duration 60 --audio fixtures/audio --json load.json`)
    .action((o: Options) => runCommand(async () => {
      if (!o.allowRemote && !isLoopback(o.url)) throw new CliError(`${o.url} is not a loopback address: load tests target this machine unless --allow-remote.`);
      const planFile = o.plan ?? join(o.story, 'win.en.testplan');
      const parsed = parsePlan(readFileSync(planFile, 'utf8'));
      if (!parsed.ok) throw new CliError(`${planFile}: ${parsed.error}`);
      const storyRaw = JSON.parse(readFileSync(join(o.story, 'story.json'), 'utf8')) as { id: string };
      try {
        await new Api(o.url).request('GET', '/healthz');
      } catch (e) {
        throw new CliError((e as Error).message, 1);
      }
      const clips = o.audio ? loadClips(o.audio) : new Map<string, { file: string; format: 'wav' | 'mp3' }>();
      if (o.audio && clips.size === 0) throw new CliError(`No audio clips with sidecars found in ${o.audio}`);
      const runner = new LoadRunner({
        url: o.url, clients: numberOption('clients', o.clients, { min: 1, max: 10_000 }), rampS: numberOption('ramp', o.ramp, { min: 0 }), durationS: numberOption('duration', o.duration, { min: 1 }),
        thinkTimeS: numberOption('think-time', o.thinkTime, { min: 0 }), dropRate: numberOption('drop-rate', o.dropRate, { min: 0, max: 1 }), storyId: storyRaw.id, plan: parsed.steps,
        clips, password: o.password, seed: numberOption('seed', o.seed, { min: 0 }),
      });
      const tty = Boolean(process.stderr.isTTY);
      const view = tty ? render(<Live s={runner.snapshot()} clients={runner.o.clients} />, { stdout: process.stderr, patchConsole: false }) : null;
      const tick = setInterval(() => {
        const s = runner.snapshot();
        if (view) view.rerender(<Live s={s} clients={runner.o.clients} />);
        else process.stderr.write(`${s.elapsedS}s connected ${s.connected} turns ${s.turns} (${s.turnsPerSecond}/s) errors ${s.errors} p99 ${s.latency.p99 ?? '-'} ms\n`);
      }, tty ? 500 : 5000);
      const report = await runner.run().finally(() => {
        clearInterval(tick);
        view?.unmount();
      });
      process.stdout.write(`${formatLoadReport(report)}\n`);
      if (o.json) writeFileSync(o.json, `${JSON.stringify(report, null, 2)}\n`);
      const v = report.verification;
      const errors = Object.values(report.errors).reduce((a, b) => a + b, 0);
      const p99 = report.latency_ms.game_output_final?.p99 ?? 0;
      const overBudget = o.maxP99Ms !== undefined && p99 > numberOption('max-p99-ms', o.maxP99Ms, { min: 0 });
      const failed = errors > 0 || v.lost_turns > 0 || v.doubled_turns > 0 || v.count_mismatches > 0 || overBudget;
      process.stdout.write(failed ? `FAIL${overBudget ? ` (p99 ${p99} ms over ${o.maxP99Ms ?? ''} ms)` : ''}\n` : 'PASS\n');
      return failed ? 1 : 0;
    }));
}
