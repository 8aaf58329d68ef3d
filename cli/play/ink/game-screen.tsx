// The game screen in the terminal (game spec §2): one of the five sub-screens, chosen by engine/client/sub-screen.ts,
// with the menu, the connection overlay and the popups on top. Presentational only: App (app.tsx) owns the keys.
import { Box, Text } from 'ink';
import React from 'react';
import { connectionOverlay } from '../../../engine/client/connection.js';
import { SUB_SCREEN_TEXT } from '../../../engine/client/sub-screen.js';
import { remainingFraction } from '../../../engine/catalogue/display.js';
import { beatRankLabel, runLabel } from '../../../engine/catalogue/launch.js';
import { rankLetterOrDefault } from '../../../engine/catalogue/rank-letter.js';
import { momentDateText, rankText, remainingText } from '../../../engine/client/game-screen/text.js';
import { END_RUN_CONFIRM, MENU_TEXT } from '../../../engine/client/game-screen/menu-text.js';
import { beatRank, indicatorOf, type PlayModel, subScreenOf } from '../../../engine/client/game-screen/model.js';
import {
  Bar, CharacterCard, Choices, Dialogue, ErrorDialog, GoldenTicket, hexColor, Indicator, ItemCard, Notifications, OpponentCard,
} from './parts.js';

export type MenuState = { open: boolean; selected: number; confirming: boolean };
export const MENU_CLOSED: MenuState = { open: false, selected: 0, confirming: false };
export const MENU_CHOICES = [MENU_TEXT.endRun, 'Close'] as const;
export const CONFIRM_CHOICES = [END_RUN_CONFIRM.cancel, END_RUN_CONFIRM.confirm] as const;

export type GameScreenProps = {
  model: PlayModel;
  /** The line being typed. */
  input?: string;
  busy?: boolean;
  recording?: boolean;
  mic?: boolean;
  menu?: MenuState;
};

function Header({ model }: { model: PlayModel }): React.ReactElement {
  const v = model.view;
  const indicator = indicatorOf(model);
  return (
    <Box justifyContent="space-between">
      <Text>
        <Text bold color={hexColor(v?.control_rgba_color)}>{model.storyName}</Text>
        {v ? <Text> · {v.moment_name} <Text dimColor>({v.moment_type})</Text></Text> : null}
      </Text>
      <Text>
        {indicator ? <Indicator value={indicator} /> : null}
        <Text> {runLabel(v?.loop_number)} · {remainingText(model.maxInteractions, model.interactions)} left</Text>
      </Text>
    </Box>
  );
}

function Team({ model }: { model: PlayModel }): React.ReactElement {
  const accent = hexColor(model.view?.control_rgba_color);
  return (
    <Box flexDirection="column">
      <Box flexWrap="wrap">{model.team.map((c) => <CharacterCard key={c.id} card={c} accent={accent} />)}</Box>
      {model.items.length ? <Box flexWrap="wrap">{model.items.map((i) => <ItemCard key={i.available_item_id} item={i} />)}</Box> : null}
    </Box>
  );
}

function StartScreen({ model }: { model: PlayModel }): React.ReactElement {
  const v = model.view;
  const control = hexColor(v?.control_rgba_color);
  return (
    <Box flexDirection="column" alignItems="center" paddingY={1}>
      {v ? <Text dimColor>{momentDateText(v.moment_date, v.language)}</Text> : <Text dimColor>Loading...</Text>}
      <Text bold color={hexColor(v?.text_rgba_color)}>{v?.moment_name ?? ''}</Text>
      <Box marginY={1}><Text inverse bold {...(control ? { color: control } : {})}> {SUB_SCREEN_TEXT.start} </Text></Box>
      <Text>{runLabel(v?.loop_number)}</Text>
      <Text>{beatRankLabel(beatRank(model))}</Text>
      <Text dimColor>Enter: {SUB_SCREEN_TEXT.start} · Esc: menu</Text>
    </Box>
  );
}

function InGame({ model, input, busy, recording, mic }: Required<Omit<GameScreenProps, 'menu'>>): React.ReactElement {
  const textColor = hexColor(model.view?.text_rgba_color);
  return (
    <Box flexDirection="column">
      {model.opponents.length ? <Box flexWrap="wrap">{model.opponents.map((o) => <OpponentCard key={o.opponent_id} o={o} />)}</Box> : null}
      <Box marginY={1} flexDirection="column">
        <Dialogue lines={model.lines} textColor={textColor} />
        {model.awards.map((a) => <Text key={a} color="yellow">★ {a}</Text>)}
      </Box>
      <Notifications queue={model.notifications} />
      <Team model={model} />
      <Box>
        {recording
          ? <Text color="red" bold>● REC  (speak; stops after 3 s of silence; Enter stops)</Text>
          : busy
            ? <Text dimColor>…</Text>
            : <Text><Text color="green">{'> '}</Text>{input}<Text inverse> </Text><Text dimColor>   Enter: say{mic ? ' (empty: record)' : ''} · Esc: menu</Text></Text>}
      </Box>
    </Box>
  );
}

function EndOfMoment({ model }: { model: PlayModel }): React.ReactElement {
  return (
    <Box flexDirection="column">
      <Dialogue lines={model.lines} max={3} textColor={hexColor(model.view?.text_rgba_color)} />
      {model.awards.map((a) => <Text key={a} color="yellow">★ {a}</Text>)}
      <Notifications queue={model.notifications} />
      <Box flexDirection="column" alignItems="center" marginY={1}>
        <Text bold color="green">{SUB_SCREEN_TEXT.momentComplete}</Text>
        <Text inverse> {SUB_SCREEN_TEXT.startNextMoment} </Text>
        <Text dimColor>Enter</Text>
      </Box>
    </Box>
  );
}

function GameOver({ model, won }: { model: PlayModel; won: boolean }): React.ReactElement {
  return (
    <Box flexDirection="column">
      <Dialogue lines={model.lines} max={3} textColor={hexColor(model.view?.text_rgba_color)} />
      <Notifications queue={model.notifications} />
      <GoldenTicket state={model.goldenTicket} />
      <Box flexDirection="column" alignItems="center" marginY={1}>
        <Text bold color={won ? 'green' : 'red'}>{won ? SUB_SCREEN_TEXT.won : SUB_SCREEN_TEXT.lost}</Text>
        <Text>{rankText(model.rank)}</Text>
        <Text inverse> {SUB_SCREEN_TEXT.restart} </Text>
        <Text dimColor>Enter: restart · q: quit</Text>
      </Box>
    </Box>
  );
}

export function MenuScreen({ model, menu }: { model: PlayModel; menu: MenuState }): React.ReactElement {
  const v = model.view;
  const best = v?.best_rank ?? model.bestRank;
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text>{MENU_TEXT.loopNumber}: {v?.loop_number ?? 1}</Text>
      <Text>{MENU_TEXT.remaining}: {remainingText(model.maxInteractions, model.interactions)} <Bar value={remainingFraction(model.maxInteractions, model.interactions)} max={1} width={12} color="green" /></Text>
      <Text>{MENU_TEXT.highestRank}: {best === null ? '-' : rankLetterOrDefault(best)}</Text>
      <Box marginY={1}>
        {menu.confirming
          ? <Box flexDirection="column"><Text color="yellow">{END_RUN_CONFIRM.text}</Text><Choices labels={CONFIRM_CHOICES} selected={menu.selected} /></Box>
          : <Choices labels={MENU_CHOICES} selected={menu.selected} />}
      </Box>
      <Text bold>{MENU_TEXT.characters}</Text>
      {model.team.length === 0 ? <Text dimColor>{MENU_TEXT.noCharacters}</Text> : model.team.map((c) => (
        <Text key={c.id}>  {c.name} <Text dimColor>{c.properties.join(', ')}</Text>{c.items.length ? <Text color="yellow"> [{c.items.join(', ')}]</Text> : null} ⚔ {c.attack} ♥ {c.health}/{c.maxHealth}</Text>
      ))}
      <Text bold>{MENU_TEXT.items}</Text>
      {model.items.length === 0 ? <Text dimColor>{MENU_TEXT.noItems}</Text> : model.items.map((i) => (
        <Text key={i.available_item_id}>  {i.available_item_name} <Text dimColor>{i.available_item_properties.join(', ')}</Text> ⚔ +{i.available_item_attack_bonus} 🛡 +{i.available_item_defense_bonus}</Text>
      ))}
    </Box>
  );
}

export function GameScreen({ model, input = '', busy = false, recording = false, mic = false, menu = MENU_CLOSED }: GameScreenProps): React.ReactElement {
  const screen = subScreenOf(model);
  const overlay = connectionOverlay({ status: model.connection, attempts: 0, waiting: false, pending: null });
  return (
    <Box flexDirection="column">
      <Header model={model} />
      {overlay ? <Text inverse color="yellow"> {overlay} </Text> : null}
      {model.error ? <ErrorDialog message={model.error} /> : null}
      {screen !== 'game_won' && screen !== 'game_lost' ? <GoldenTicket state={model.goldenTicket} /> : null}
      {menu.open ? <MenuScreen model={model} menu={menu} /> : (() => {
        switch (screen) {
          case 'start': return <StartScreen model={model} />;
          case 'in_game': return <InGame model={model} input={input} busy={busy} recording={recording} mic={mic} />;
          case 'end_of_moment': return <EndOfMoment model={model} />;
          case 'game_won': return <GameOver model={model} won />;
          case 'game_lost': return <GameOver model={model} won={false} />;
        }
      })()}
    </Box>
  );
}
