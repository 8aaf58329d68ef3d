// The game menu's texts (game spec §2 "Menu", §5, §8) and the error dialog's: the spec's exact words.
export const MENU_TEXT = {
  loopNumber: 'Loop Number',
  remaining: 'Remaining interactions',
  highestRank: 'Highest Rank',
  endRun: 'End Current Run',
  characters: 'Characters',
  items: 'Items',
  noCharacters: 'No characters available.',
  noItems: 'No items available.',
} as const;

export const END_RUN_CONFIRM = {
  text: "⚠️ End Current Run? This will immediately end your current game and mark it as lost. You'll return to the launch screen to start a new run. Are you sure you want to end this run?",
  confirm: 'End Current Run',
  cancel: 'Cancel',
} as const;

export const ERROR_DIALOG = { title: 'An error occurred', button: 'Got it, thanks!' } as const;
