// The shapes the server sends and takes over the WebSocket (the shared contract's protocol).

export type Side = "white" | "black";

export interface BoardPoint {
  name: string;
  x: number;
  y: number;
}

export interface GameAction {
  text: string;
  from: string | null;
  to: string | null;
  place: string | null;
}

export interface Player {
  id: string;
  name: string;
}

export interface Game {
  id: string;
  version: number;
  ruleset: string;
  status: string;
  board: { points: BoardPoint[]; lines: [string, string][] };
  colors: {
    background: string;
    line: string;
    white: string;
    black: string;
    last_move: string;
    camp_white: string;
    camp_black: string;
  };
  pieces: { point: string; side: Side }[];
  reserve: Record<Side, number>;
  camps: Record<Side, string[]>;
  players: Record<Side, Player | null>;
  you: Side | null;
  turn: Side | null;
  last_move: GameAction | null;
  moves: string[];
  legal: GameAction[];
  clock: { deadline: string | null; per_move_seconds: number | null; paused: boolean };
  score: { white: number; black: number; game: number; games: number } | null;
  result: { winner: Side | null; reason: string } | null;
  watchers: number;
}

export type ServerFrame =
  | { type: "state"; game: Game }
  | { type: "watchers"; count: number }
  | { type: "refused"; code: string; text: string }
  | { type: "pong" };

export type ClientFrame =
  | { type: "watch"; token: string; lang: string }
  | { type: "move"; move: string; version: number }
  | { type: "ping" };

/** Close codes after which reconnecting cannot help: each has its own message. */
export const FINAL_CLOSE_CODES: ReadonlySet<number> = new Set([4400, 4401, 4403, 4408]);
