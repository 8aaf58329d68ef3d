// The launch screen in the terminal (accounts spec §2 "Launch screen"): the story, the language toggle, the
// choices of its state (FRESH / ONGOING / COMPLETED) and the 'Reset All Progress?' confirmation.
import { Box, Text } from 'ink';
import React from 'react';
import { RESET_PROGRESS_CONFIRM } from '../../../engine/catalogue/launch.js';
import type { PlayLanguage } from '../../../engine/schema/enums.js';
import type { Launch } from '../session.js';
import { Choices, hexColor } from './parts.js';

export const RESET_CHOICES = [RESET_PROGRESS_CONFIRM.cancel, RESET_PROGRESS_CONFIRM.confirm] as const;

export type LaunchScreenProps = {
  storyName: string;
  titleColor?: string | undefined;
  launch: Launch | null;
  selected: number;
  language: PlayLanguage;
  confirmingReset: boolean;
  busy: boolean;
  error: string | null;
};

export function LaunchScreen(p: LaunchScreenProps): React.ReactElement {
  const color = hexColor(p.titleColor);
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={2} paddingY={1}>
      <Text bold {...(color ? { color } : {})}>{p.storyName}</Text>
      {p.launch ? <Text dimColor>{p.launch.state}{p.launch.best_rank ? ` · best rank ${p.launch.best_rank}` : ''}</Text> : <Text dimColor>Loading...</Text>}
      <Text>
        <Text inverse={p.language === 'english'}> English </Text>
        <Text> </Text>
        <Text inverse={p.language === 'french'}> Français </Text>
        <Text dimColor>  (Tab)</Text>
      </Text>
      <Box marginTop={1} flexDirection="column">
        {p.confirmingReset ? (
          <Box flexDirection="column">
            <Text bold color="yellow">{RESET_PROGRESS_CONFIRM.title}</Text>
            <Text>{RESET_PROGRESS_CONFIRM.body}</Text>
            <Choices labels={RESET_CHOICES} selected={p.selected} />
          </Box>
        ) : p.launch ? <Choices labels={p.launch.buttons.map((b) => b.label)} selected={p.selected} /> : null}
      </Box>
      {p.busy ? <Text dimColor>…</Text> : <Text dimColor>↑/↓ choose · Enter · q quit</Text>}
      {p.error ? <Text color="red">{p.error}</Text> : null}
    </Box>
  );
}
