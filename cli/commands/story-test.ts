// `looptale story test <story> <testplan...>`: plays each test plan through the scripted brain and the engine,
// and reports the first mismatch of each. Exit 1 when any plan fails.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { parsePlan, runPlan } from '../../engine/story/testplan.js';
import { CliError, loadStory, runCommand } from '../lib/story-file.js';

export function addTest(story: Command): void {
  story
    .command('test')
    .description('play test plans (player lines and expectations) against a story; report the first mismatch')
    .argument('<story>', 'story JSON file')
    .argument('<testplan...>', 'one or more .testplan files')
    .option('--json', 'print results as JSON')
    .option('--verbose', 'print every line said and the reply')
    .addHelpText('after', `
A test plan is a text file, one step per line:
  language english|french   say <words>   start   defend <Name>: <words> | <Name>: <words>
  select <name>, <name>     end           expect moment|type|line|complete|not complete|perfect|award|ticket|status|rank|interactions|remaining|characters|item ...

Example:
  looptale story test fixtures/stories/lantern-keeper/story.json fixtures/stories/lantern-keeper/*.testplan`)
    .action((file: string, plans: string[], o: { json?: boolean; verbose?: boolean }) => runCommand(() => {
      const s = loadStory(file);
      const results = plans.map((plan) => {
        let text: string;
        try {
          text = readFileSync(plan, 'utf8');
        } catch {
          throw new CliError(`Cannot read test plan ${plan}`);
        }
        const parsed = parsePlan(text);
        if (!parsed.ok) throw new CliError(`${plan}: ${parsed.error}`);
        const r = runPlan(s, parsed.steps);
        return { plan, ok: r.ok, steps: parsed.steps.length, failure: r.failure, log: r.log };
      });
      if (o.json) {
        process.stdout.write(`${JSON.stringify({ story: file, plans: results.map(({ log: _l, ...r }) => r) }, null, 2)}\n`);
      } else {
        for (const r of results) {
          if (o.verbose) {
            for (const l of r.log) process.stdout.write(`  [${l.moment ?? ''}] ${l.said !== undefined ? `> ${l.said}\n    ` : ''}${l.reply ?? ''}\n`);
          }
          if (r.ok) process.stdout.write(`PASS ${r.plan} (${r.steps} steps)\n`);
          else {
            const f = r.failure;
            process.stdout.write(`FAIL ${r.plan}:${f?.line ?? 0}: ${f?.step ?? ''}\n     expected ${f?.expected ?? ''}\n     but got  ${f?.actual ?? ''}\n`);
          }
        }
        const failed = results.filter((r) => !r.ok).length;
        process.stdout.write(`${results.length - failed} passed, ${failed} failed\n`);
      }
      return results.every((r) => r.ok) ? 0 : 1;
    }));
}
