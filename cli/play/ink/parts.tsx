// Small Ink pieces of the game screen: cards, the battle indicator, notifications, popups and dialogs.
import { Box, Text } from 'ink';
import React from 'react';
import { BATTLE_INDICATOR_TEXT, type BattleIndicator } from '../../../engine/client/battle-indicator.js';
import { GOLDEN_TICKET_TEXT, type GoldenTicketPopup } from '../../../engine/client/golden-ticket-popup.js';
import { displayNotification, type NotificationQueue } from '../../../engine/client/notification-queue.js';
import type { OutputOpponent } from '../../../engine/schema/game-output.js';
import type { AvailableItem } from '../../../engine/schema/views.js';
import { ERROR_DIALOG } from '../../../engine/client/game-screen/menu-text.js';
import type { DialogueLine, TeamCard } from '../../../engine/client/game-screen/model.js';
import { speakerLabel } from '../../../engine/client/game-screen/text.js';

/** 'rgba(255,190,84,1)' as '#ffbe54' for Ink; undefined when it does not parse (the terminal's colour is used). */
export function hexColor(rgba: string | null | undefined): string | undefined {
  const m = /rgba?\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)/.exec(rgba ?? '');
  if (!m) return undefined;
  return `#${[m[1], m[2], m[3]].map((v) => Math.min(255, Number(v)).toString(16).padStart(2, '0')).join('')}`;
}

export function Bar({ value, max, width = 10, color }: { value: number; max: number; width?: number; color?: string | undefined }): React.ReactElement {
  const filled = max > 0 ? Math.max(0, Math.min(width, Math.round((value / max) * width))) : 0;
  return (
    <Text>
      <Text {...(color ? { color } : {})}>{'█'.repeat(filled)}</Text>
      <Text dimColor>{'░'.repeat(width - filled)}</Text>
    </Text>
  );
}

export function CharacterCard({ card, accent }: { card: TeamCard; accent?: string | undefined }): React.ReactElement {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={card.burnedOut ? 'gray' : accent ?? 'cyan'} paddingX={1} marginRight={1} minWidth={18}>
      <Text bold strikethrough={card.burnedOut}>{card.name}</Text>
      <Text>♥ {card.health}/{card.maxHealth} <Bar value={card.health} max={card.maxHealth} width={6} color="red" /></Text>
      <Text>⚔ {card.attack}  <Text dimColor>{card.cardType}</Text></Text>
      {card.items.map((i) => <Text key={i} color="yellow">+ {i}</Text>)}
      {card.burnedOut ? <Text color="gray">burned out</Text> : null}
    </Box>
  );
}

export function ItemCard({ item }: { item: AvailableItem }): React.ReactElement {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1} marginRight={1}>
      <Text bold>{item.available_item_name}</Text>
      <Text>{item.available_item_attack_bonus ? `⚔ +${item.available_item_attack_bonus} ` : ''}{item.available_item_defense_bonus ? `🛡 +${item.available_item_defense_bonus}` : ''}</Text>
      {item.available_item_properties.length ? <Text dimColor>{item.available_item_properties.join(', ')}</Text> : null}
    </Box>
  );
}

export function OpponentCard({ o }: { o: OutputOpponent }): React.ReactElement {
  const down = o.current_health <= 0;
  return (
    <Box flexDirection="column" borderStyle="double" borderColor={down ? 'gray' : 'red'} paddingX={1} marginRight={1}>
      <Text bold strikethrough={down}>{o.opponent_name}</Text>
      <Text>♥ {Math.max(0, o.current_health)}/{o.base_health} <Bar value={o.current_health} max={o.base_health} width={8} color="red" /></Text>
      {o.current_attack ? <Text>⚔ {o.current_attack}</Text> : null}
    </Box>
  );
}

export function Indicator({ value }: { value: BattleIndicator }): React.ReactElement {
  const attack = value === BATTLE_INDICATOR_TEXT.attack;
  return <Text bold inverse color={attack ? 'red' : 'blue'}> {value} </Text>;
}

export function Dialogue({ lines, max = 8, textColor }: { lines: readonly DialogueLine[]; max?: number; textColor?: string | undefined }): React.ReactElement {
  return (
    <Box flexDirection="column">
      {lines.slice(-max).map((l, i) => (l.who === 'player'
        ? <Text key={i} dimColor={l.pending} color="green">{'> you: '}{l.text}{l.pending ? ' …' : ''}</Text>
        : <Text key={i} {...(textColor ? { color: textColor } : {})}><Text bold>{speakerLabel(l.name, l.emotion, l.intensity)}:</Text> {l.text}</Text>))}
    </Box>
  );
}

export function Notifications({ queue }: { queue: NotificationQueue }): React.ReactElement | null {
  const current = queue.current;
  if (!current && !queue.banner) return null;
  const d = current ? displayNotification(current.notification) : null;
  return (
    <Box flexDirection="column">
      {queue.banner ? <Text color="magenta" bold>{displayNotification(queue.banner).text}</Text> : null}
      {d && current ? (
        <Box borderStyle="round" borderColor="green" paddingX={1} flexDirection="column">
          <Text bold dimColor={current.phase === 'exiting'}>{d.text}{d.badge ? <Text color="yellow"> {d.badge}</Text> : null}</Text>
          {d.details.map((x) => <Text key={x} dimColor>{x}</Text>)}
        </Box>
      ) : null}
    </Box>
  );
}

export function GoldenTicket({ state }: { state: GoldenTicketPopup }): React.ReactElement | null {
  if (state === 'hidden') return null;
  const fading = state === 'fading';
  return (
    <Box borderStyle="double" borderColor="yellow" paddingX={2} flexDirection="column" alignItems="center">
      <Text bold color="yellow" dimColor={fading}>🎫 {GOLDEN_TICKET_TEXT.title}</Text>
      <Text dimColor={fading}>{GOLDEN_TICKET_TEXT.body}</Text>
      <Text dimColor>{GOLDEN_TICKET_TEXT.hint}</Text>
    </Box>
  );
}

export function ErrorDialog({ message }: { message: string }): React.ReactElement {
  return (
    <Box borderStyle="round" borderColor="red" paddingX={1} flexDirection="column">
      <Text bold color="red">{ERROR_DIALOG.title}</Text>
      <Text>{message}</Text>
      <Text inverse> {ERROR_DIALOG.button} </Text>
    </Box>
  );
}

/** A row of choices; the selected one is drawn inverted. */
export function Choices({ labels, selected, color }: { labels: readonly string[]; selected: number; color?: string | undefined }): React.ReactElement {
  return (
    <Box flexDirection="column">
      {labels.map((l, i) => (
        <Text key={l} inverse={i === selected} {...(color ? { color } : {})}>{i === selected ? '› ' : '  '}{l}</Text>
      ))}
    </Box>
  );
}
