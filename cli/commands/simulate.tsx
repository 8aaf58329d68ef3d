// `looptale simulate <file>`: N whole runs for one player, bots speaking through the scripted brain.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { BOT_NAMES, type BotName } from '../../engine/sim/bots.js';
import { Simulation, type SimulationReport } from '../../engine/sim/simulate.js';
import { toJsonl } from '../../engine/sim/transcript.js';
import { CliError, loadStory, runCommand } from '../lib/story-file.js';
import { numberOption } from '../lib/options.js';
import { progress } from '../lib/progress.js';

type Options = { runs: string; seed: string; bot: string; json?: boolean; saveTranscripts?: string; language: string; maxTurns: string };

export function formatReport(r: SimulationReport): string {
  const pct = (n: number): string => `${((n / Math.max(1, r.runs)) * 100).toFixed(1)}%`;
  const reached = r.coverage.moments.filter((m) => m.played + m.skipped > 0).length;
  const taken = r.coverage.transitions.filter((t) => t.taken > 0).length;
  const lines = [
    `Simulated ${r.runs} runs of "${r.story_name}" with the ${r.bot} bot (seed ${r.seed})`,
    `Ranks:        ${Object.entries(r.ranks).map(([k, v]) => `${k} ${v}`).join('  ')}`,
    `Won / lost:   ${r.won} (${pct(r.won)}) / ${r.lost} (${pct(r.lost)})${r.aborted_runs ? `, ${r.aborted_runs} ended for running too long` : ''}`,
    `Interactions: ${r.mean_interactions_used.toFixed(2)} used per run on average (${r.mean_turns.toFixed(2)} player turns)`,
    `Rank A:       ${r.runs_until_first_rank_a === null ? 'never reached' : `first reached in run ${r.runs_until_first_rank_a}`}; golden tickets earned: ${r.tickets_earned}`,
    `Coverage:     ${reached}/${r.coverage.moments.length} moments reached, ${taken}/${r.coverage.transitions.length} transitions taken`,
    '',
    'Moments (played / skipped):',
    ...r.coverage.moments.map((m) => `  ${String(m.played).padStart(6)} ${String(m.skipped).padStart(6)}  ${m.name} (${m.type})`),
    'Transitions (taken):',
    ...r.coverage.transitions.map((t) => {
      const name = (id: string): string => r.coverage.moments.find((m) => m.id === id)?.name ?? id;
      return `  ${String(t.taken).padStart(6)}  ${name(t.from)} -> ${name(t.to)}${t.label ? ` [${t.label}]` : ''}`;
    }),
  ];
  if (r.coverage.never_reached.length) lines.push(`Never reached: ${r.coverage.never_reached.join(', ')}`);
  if (r.coverage.never_taken.length) lines.push(`Never taken: ${r.coverage.never_taken.join('; ')}`);
  return lines.join('\n');
}

export function register(program: Command): void {
  program
    .command('simulate')
    .description('play N whole runs of a story offline, for one player, with a bot; report ranks, win rate and coverage')
    .argument('<file>', 'story JSON file')
    .option('--runs <n>', 'number of runs, played in sequence by one player', '100')
    .option('--seed <n>', 'random seed (same seed, same report)', '1')
    .option('--bot <name>', `bot: ${BOT_NAMES.join(' | ')}`, 'optimal')
    .option('--language <lang>', 'english | french', 'english')
    .option('--max-turns <n>', 'end a run after this many player turns', '500')
    .option('--json', 'print the report as JSON')
    .option('--save-transcripts <dir>', 'write one JSONL transcript per run (replayable with looptale replay)')
    .addHelpText('after', `
Examples:
  looptale simulate fixtures/stories/lantern-keeper/story.json --runs 1000 --bot optimal
  looptale simulate fixtures/stories/clockwork-siege/story.json --runs 200 --bot random --seed 7 --json
  looptale simulate story.json --runs 5 --save-transcripts ./transcripts`)
    .action((file: string, o: Options) => runCommand(async () => {
      const runs = numberOption('runs', o.runs, { min: 1, integer: true });
      const seed = numberOption('seed', o.seed, { min: 0, integer: true });
      const maxTurns = numberOption('max-turns', o.maxTurns, { min: 1, integer: true });
      if (!(BOT_NAMES as readonly string[]).includes(o.bot)) throw new CliError(`--bot must be one of ${BOT_NAMES.join(', ')} (got '${o.bot}')`);
      if (o.language !== 'english' && o.language !== 'french') throw new CliError(`--language must be english or french (got '${o.language}')`);
      const story = loadStory(file);
      const dir = o.saveTranscripts;
      if (dir) mkdirSync(dir, { recursive: true });
      const sim = new Simulation(story, {
        runs, seed, bot: o.bot as BotName, language: o.language, maxTurnsPerRun: maxTurns, transcripts: Boolean(dir),
        onRun: (i, _s, log) => {
          if (dir && log) writeFileSync(join(dir, `run-${String(i + 1).padStart(5, '0')}.jsonl`), toJsonl(log));
        },
      });
      const bar = progress('simulating', runs);
      // Chunks keep the terminal responsive (the bar redraws between them).
      while (sim.done < runs) {
        const end = Math.min(runs, sim.done + 50);
        while (sim.done < end) sim.playRun();
        bar.update(sim.done, `won ${sim.summaries.filter((s) => s.status === 'loopStatusWon').length}`);
        await new Promise((r) => setImmediate(r));
      }
      bar.finish();
      const report = sim.report();
      process.stdout.write(o.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report)}\n`);
      if (dir) process.stderr.write(`transcripts: ${runs} files in ${dir}\n`);
      return 0;
    }));
}
