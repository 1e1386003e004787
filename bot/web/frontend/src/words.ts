// The page's own words. What the server refuses comes with its own sentence, in the page's language.

import type { Side } from "./protocol";

export function sideName(side: Side): string {
  return side === "white" ? "White" : "Black";
}

export function pieceLabel(point: string, side: Side | null, clickable: boolean): string {
  const what = side === null ? "empty" : `${side} piece`;
  return clickable ? `${point}, ${what}, selectable` : `${point}, ${what}`;
}

export const CLOSED: Readonly<Record<number, string>> = {
  4400: "The page did not start watching in time. Reload it to watch again.",
  4401: "This link has expired or is not valid. Ask for a new one with /jarmo watch.",
  4403: "Watching games is switched off in this server.",
  4408: "The page sent too many messages and was disconnected. Reload it to watch again.",
};

export const RESULT_REASONS: Readonly<Record<string, string>> = {
  finished: "the game is over",
  resigned: "by resignation",
  stopped: "the game was stopped",
  aborted: "the game was aborted",
  timeout: "on time",
};

export function resultText(winner: Side | null, reason: string): string {
  const why = RESULT_REASONS[reason] ?? reason;
  return winner === null ? `Drawn (${why})` : `${sideName(winner)} wins (${why})`;
}

export function watchingText(count: number): string {
  return count === 1 ? "1 watching" : `${count} watching`;
}

export const TEXT = {
  noToken: "This page needs a link from /jarmo watch in Discord.",
  connecting: "Connecting…",
  reconnecting: "Connection lost. Reconnecting…",
  yourTurn: "Your turn: pick a piece, then where it goes.",
  placePiece: "Now pick where the piece is placed.",
  toMove: (side: Side) => `${sideName(side)} to move`,
  you: "you",
  waitingOpponent: "Waiting for an opponent.",
  paused: "paused",
  noClock: "no time limit",
  moves: "Moves",
  score: (white: number, black: number, game: number, games: number) =>
    `Score ${white}–${black} · game ${game} of ${games}`,
  activityStarting: "Starting the Activity…",
  activityNoGame: "No game is being played in this channel yet. Start one with /jarmo play, or invite others.",
  activityWatchingOff: "Watching games is switched off in this server.",
  activityNotInInstance: "You are not in this Activity's channel.",
  activityFailed: "The Activity could not start. Close it and open it again.",
  invite: "Invite",
  here: (names: string[]) => `Here: ${names.join(", ")}`,
};
