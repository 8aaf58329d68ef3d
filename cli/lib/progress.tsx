// A progress bar for long jobs: Ink on a terminal, one plain line per 10% otherwise (CI logs, pipes).
import { Box, render, Text } from 'ink';
import React from 'react';

export type Progress = { update(done: number, note?: string): void; finish(): void };

function Bar({ done, total, label, note }: { done: number; total: number; label: string; note: string }): React.ReactElement {
  const width = 30;
  const filled = total > 0 ? Math.round((done / total) * width) : 0;
  return (
    <Box>
      <Text>{label} </Text>
      <Text color="green">{'█'.repeat(filled)}</Text>
      <Text dimColor>{'░'.repeat(width - filled)}</Text>
      <Text> {done}/{total} {note}</Text>
    </Box>
  );
}

export function progress(label: string, total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) {
    let lastTenth = -1;
    return {
      update(done) {
        const tenth = Math.floor((done / Math.max(1, total)) * 10);
        if (tenth !== lastTenth) {
          lastTenth = tenth;
          stream.write(`${label} ${done}/${total}\n`);
        }
      },
      finish() {},
    };
  }
  const app = render(<Bar done={0} total={total} label={label} note="" />, { stdout: stream, patchConsole: false });
  return {
    update(done, note = '') {
      app.rerender(<Bar done={done} total={total} label={label} note={note} />);
    },
    finish() {
      app.unmount();
    },
  };
}
