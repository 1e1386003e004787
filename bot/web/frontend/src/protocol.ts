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

// The server pages: two POSTs with the token in the body (the server pages' contract).

/** What the board shows: the same for a live game and a replayed position. */
export interface BoardScene {
  board: Game["board"];
  colors: Game["colors"];
  camps: Game["camps"];
  pieces: Game["pieces"];
  last_move: GameAction | null;
}

export interface RatingRow {
  rank: number;
  player: Player;
  rating: number;
  games: number;
  wins: number;
  losses: number;
  draws: number;
}

export interface Leaderboard {
  ruleset: string;
  rows: RatingRow[];
}

export interface FinishedGame {
  id: string;
  ruleset: string;
  players: Record<Side, Player | null>;
  winner: Side | null;
  reason: string;
  points: Record<Side, number> | null;
  plies: number;
  finished_at: string;
}

export interface RoundCell {
  round: number;
  /** "win", "loss", "draw", "forfeit-win", "forfeit-loss" or "bye" (no opponent). */
  outcome: string;
  opponent: Player | null;
  points: [number, number] | null;
}

export interface TableRow {
  rank: number;
  player: Player;
  match_points: number;
  game_points: number;
  buchholz: number;
  sonneborn_berger: number;
  withdrawn: boolean;
  rounds: (RoundCell | null)[];
}

export interface Tournament {
  id: string;
  name: string;
  status: string;
  format: string;
  ruleset: string;
  rounds: number;
  round: number;
  finished_at: string | null;
  table: TableRow[];
}

export interface Overview {
  leaderboards: Leaderboard[];
  games: FinishedGame[];
  tournaments: Tournament[];
}

export interface ReplayPosition {
  pieces: Game["pieces"];
  reserve: Record<Side, number>;
  last_move: GameAction | null;
  turn: Side | null;
}

export interface Replay {
  id: string;
  ruleset: string;
  board: Game["board"];
  colors: Game["colors"];
  camps: Game["camps"];
  players: Record<Side, Player | null>;
  winner: Side | null;
  reason: string;
  points: Record<Side, number> | null;
  moves: string[];
  positions: ReplayPosition[];
}

/** The refusals the server pages answer with, and the page's own for a failed request. */
export type ServerRefusal =
  | "bad_token"
  | "expired_token"
  | "web_pages_off"
  | "bad_request"
  | "no_game"
  | "unreachable"
  | "other";
