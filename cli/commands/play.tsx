// `looptale play`: play a story on a game server, in the terminal (Ink) or unattended (scripts, test plans, clips).
// The work is in cli/play/; this file declares the options and the help.
import type { Command } from 'commander';
import { runCommand } from '../lib/story-file.js';
import { parsePlayOptions, type RawPlayOptions } from '../play/options.js';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function register(program: Command): void {
  program
    .command('play')
    .description('play a story on a game server: in a terminal with arrow keys and typed lines, or unattended from a script')
    .option('--url <url>', 'game server', process.env.LOOPTALE_URL ?? 'http://127.0.0.1:8787')
    .option('--story <id or name>', 'story id or name (a unique part of the name will do)')
    .option('--email <email>', 'account email (signs up when the account does not exist); env LOOPTALE_EMAIL')
    .option('--password <password>', 'account password; env LOOPTALE_PASSWORD')
    .option('--token <token>', 'an access token instead of email and password; env LOOPTALE_TOKEN')
    .option('--language <en|fr>', 'language of a new run (default en; a continued run keeps its own)')
    .option('--script <file>', 'unattended: one turn per line (words, @audio <clip>, /end), or a story .testplan')
    .option('--audio <file>', 'unattended: send this clip as one turn (.wav, .mp3, .pcm16); repeat for more turns', collect)
    .option('--mic', 'speak: record from the default input (needs sox `rec` or `arecord`); stops after 3 s of silence')
    .option('--save-audio <dir>', "save the characters' audio, one .mp3 per chunk")
    .option('--mute', "do not play the characters' audio")
    .option('--new-run', 'start a new run even when one is ongoing (unattended)')
    .option('--reset-progress', 'reset all progress of the story and start a new run (unattended)')
    .option('--plain', 'plain lines even in a terminal (no Ink)')
    .option('--json', 'print one JSON object per turn (the outputs); messages go to stderr')
    .addHelpText('after', `
In a terminal: arrow keys and Enter on the launch screen; type a line and Enter to speak; Esc (or /menu) opens the
menu with End Current Run; with --mic, Enter on an empty line records. Without a terminal (a pipe, CI) the lines
come from --script, --audio, --mic or standard input, and the screen is printed as plain lines.

A script has one turn per line; blank lines and # comments are skipped:
  When does the light go dark?
  @audio clips/answer.wav        (sent as audio; the format comes from the extension: wav, mp3, pcm16)
  /end                           (End Current Run)

Exit codes: 0 played, 1 a failure (server unreachable, sign-in refused, story not found, a turn or a test plan
expectation failed), 2 bad usage or input.

Examples:
  looptale play --url http://127.0.0.1:8787 --story "The Lantern Keeper" --email me@example.com --password '...'
  looptale play --story "lantern" --email me@example.com --password '...' \\
      --script fixtures/stories/lantern-keeper/win.en.testplan
  printf 'When does the light go dark?\\n' | looptale play --story "The Lantern Keeper" --token "$TOKEN" --json
  looptale play --story "The Clockwork Siege" --token "$TOKEN" --audio a.wav --audio b.mp3 --save-audio ./voices
  looptale play --story "The Lantern Keeper" --token "$TOKEN" --mic --language fr`)
    .action((raw: RawPlayOptions) => runCommand(async () => {
      const options = parsePlayOptions(raw);
      // Loaded on use: the other commands do not pay for the game client, Ink screens and audio.
      const { runPlay } = await import('../play/run.js');
      return runPlay(options, { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });
    }));
}
