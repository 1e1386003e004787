// The server pages: a server's leaderboards, its recent games with a replay of each, and its
// tournaments' tables. Two POSTs carry the link's token; the page sends nothing else, and every
// position it shows is one the server computed.

import { boardElement, drawBoard } from "./board";
import { element } from "./dom";
import { postJson } from "./post";
import type {
  FinishedGame,
  Leaderboard,
  Overview,
  Player,
  Replay,
  RoundCell,
  ServerRefusal,
  Side,
  TableRow,
  Tournament,
} from "./protocol";
import { LANGUAGE, TEXT, resultText, sideName } from "./words";

const WORDS = TEXT.server;
const SIDES: readonly Side[] = ["white", "black"];
const REFUSALS: ReadonlySet<string> = new Set<ServerRefusal>([
  "bad_token",
  "expired_token",
  "web_pages_off",
  "bad_request",
  "no_game",
  "unreachable",
]);
// Endings where the points on the board decide the game; after the others they tell nothing.
const COUNTED: ReadonlySet<string> = new Set(["finished", "stopped"]);
const DATES = new Intl.DateTimeFormat(LANGUAGE, { dateStyle: "medium", timeStyle: "short" });

type Answer<T> = { ok: true; value: T } | { ok: false; code: ServerRefusal };

async function post<T>(path: string, body: Record<string, string>): Promise<Answer<T>> {
  const answer = await postJson<T>(path, body);
  if (answer.ok) {
    return answer;
  }
  return { ok: false, code: REFUSALS.has(answer.code) ? (answer.code as ServerRefusal) : "other" };
}

function dateText(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : DATES.format(time);
}

function rulesetName(ruleset: string): string {
  return ruleset.charAt(0).toUpperCase() + ruleset.slice(1);
}

/** The points on the board when the game ended, where they tell how it ended (not after a resignation, say). */
function pointsText(reason: string, points: Record<Side, number> | null): string | null {
  return points === null || !COUNTED.has(reason) ? null : WORDS.points(points.white, points.black);
}

function playerName(player: Player | null): string {
  return player?.name ?? "?";
}

/** Words only a screen reader reads (what a symbol on screen stands for). */
function unseen(text: string): HTMLSpanElement {
  return element("span", "unseen", text);
}

function heading(text: string, title?: string, className = "num"): HTMLTableCellElement {
  const cell = element("th", className);
  cell.scope = "col";
  if (title === undefined) {
    cell.textContent = text;
  } else {
    const short = element("abbr", "", text);
    short.title = title;
    cell.append(short);
  }
  return cell;
}

function numberCell(value: number): HTMLTableCellElement {
  return element("td", "num", String(value));
}

/** A table in a box that scrolls sideways on a narrow screen rather than squeezing the table. */
function table(className: string, caption: string | null, headings: HTMLTableCellElement[], rows: HTMLTableRowElement[]): HTMLElement {
  const made = element("table", className);
  if (caption !== null) {
    made.append(element("caption", "", caption));
  }
  const head = element("thead", "");
  const headRow = element("tr", "");
  headRow.append(...headings);
  head.append(headRow);
  const body = element("tbody", "");
  body.append(...rows);
  made.append(head, body);
  const box = element("div", "table-box");
  box.append(made);
  return box;
}

function section(className: string, title: string): HTMLElement {
  const made = element("section", `server-section ${className}`);
  made.append(element("h2", "", title));
  return made;
}

export class ServerPage {
  private readonly replayBox = element("div", "replay-box");
  private replay: ReplayView | null = null;
  private chosen: HTMLButtonElement | null = null;
  private asked = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly token: string,
    private readonly say: (text: string) => void,
  ) {
    this.replayBox.hidden = true;
    document.addEventListener("keydown", (event) => this.key(event));
  }

  async start(): Promise<void> {
    this.say(WORDS.loading);
    const answer = await post<Overview>("/api/server/overview", { token: this.token, lang: LANGUAGE });
    if (!answer.ok) {
      this.say(WORDS.refusals[answer.code]);
      document.body.classList.add("refused");
      return;
    }
    this.say("");
    const overview = answer.value;
    this.root.append(
      this.leaderboards(overview.leaderboards),
      this.games(overview.games),
      this.tournaments(overview.tournaments),
    );
  }

  private leaderboards(leaderboards: Leaderboard[]): HTMLElement {
    const made = section("leaderboards", WORDS.leaderboards);
    const rated = leaderboards.filter((board) => board.rows.length > 0);
    if (rated.length === 0) {
      made.append(element("p", "empty", WORDS.noRatings));
      return made;
    }
    const boards = element("div", "boards");
    for (const board of rated) {
      const headings = [
        heading(WORDS.rank),
        heading(WORDS.player, undefined, ""),
        heading(WORDS.rating),
        heading(WORDS.games),
        heading(WORDS.record.short, WORDS.record.long),
      ];
      const rows = board.rows.map((row) => {
        const line = element("tr", "");
        const name = element("th", "name", row.player.name);
        name.scope = "row";
        line.append(
          numberCell(row.rank),
          name,
          numberCell(row.rating),
          numberCell(row.games),
          element("td", "num", `${row.wins}–${row.losses}–${row.draws}`),
        );
        return line;
      });
      const box = table("leaderboard", rulesetName(board.ruleset), headings, rows);
      box.dataset["ruleset"] = board.ruleset;
      boards.append(box);
    }
    made.append(boards);
    return made;
  }

  private games(games: FinishedGame[]): HTMLElement {
    const made = section("games", WORDS.recentGames);
    made.append(this.replayBox);
    if (games.length === 0) {
      made.append(element("p", "empty", WORDS.noGames));
      return made;
    }
    const list = element("ol", "game-list");
    for (const game of games) {
      const button = element("button", "game");
      button.type = "button";
      button.dataset["game"] = game.id;
      button.dataset["ruleset"] = game.ruleset;
      const names = element("span", "names");
      for (const side of SIDES) {
        if (side === "black") {
          names.append(" – ");
        }
        const dot = element("span", `dot dot-${side}`);
        dot.setAttribute("aria-hidden", "true");
        names.append(dot, unseen(`${sideName(side, game.ruleset)}: `), element("span", `name name-${side}`, playerName(game.players[side])));
      }
      const result = [resultText(game.winner, game.reason, game.ruleset), pointsText(game.reason, game.points)];
      const meta = [rulesetName(game.ruleset), WORDS.plies(game.plies), dateText(game.finished_at)];
      button.append(names, element("span", "result", result.filter((part) => part !== null).join(" · ")), element("span", "meta", meta.join(" · ")));
      button.addEventListener("click", () => void this.open(game, button));
      const item = element("li", "");
      item.append(button);
      list.append(item);
    }
    made.append(list);
    return made;
  }

  private async open(game: FinishedGame, button: HTMLButtonElement): Promise<void> {
    // Only the game clicked last is shown, whichever answer comes back first.
    const asked = ++this.asked;
    this.chosen?.removeAttribute("aria-current");
    this.chosen = button;
    button.setAttribute("aria-current", "true");
    this.replay = null;
    this.replayBox.hidden = false;
    this.replayBox.replaceChildren(element("p", "loading", WORDS.loading));
    const answer = await post<Replay>("/api/server/game", { token: this.token, game_id: game.id });
    if (asked !== this.asked) {
      return;
    }
    if (!answer.ok) {
      const notice = element("p", "notice", WORDS.refusals[answer.code]);
      notice.setAttribute("role", "alert");
      this.replayBox.replaceChildren(notice, this.closeButton());
      return;
    }
    const replay = new ReplayView(answer.value, this.closeButton());
    this.replay = replay;
    this.replayBox.replaceChildren(replay.element);
    replay.element.focus({ preventScroll: true });
    this.replayBox.scrollIntoView({ block: "start" });
  }

  private closeButton(): HTMLButtonElement {
    const button = element("button", "close", WORDS.close);
    button.type = "button";
    button.addEventListener("click", () => this.close());
    return button;
  }

  private close(): void {
    this.asked += 1;
    this.replay = null;
    this.replayBox.hidden = true;
    this.replayBox.replaceChildren();
    const chosen = this.chosen;
    this.chosen = null;
    chosen?.removeAttribute("aria-current");
    chosen?.focus();
  }

  /** The arrow keys step the open replay, unless the focus is on something of its own elsewhere. */
  private key(event: KeyboardEvent): void {
    const replay = this.replay;
    if (replay === null || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    const target = event.target;
    if (target !== document.body && !(target instanceof Node && replay.element.contains(target))) {
      return;
    }
    if (replay.key(event.key)) {
      event.preventDefault();
    }
  }

  private tournaments(tournaments: Tournament[]): HTMLElement {
    const made = section("tournaments", WORDS.tournaments);
    if (tournaments.length === 0) {
      made.append(element("p", "empty", WORDS.noTournaments));
      return made;
    }
    for (const tournament of tournaments) {
      made.append(this.tournament(tournament));
    }
    if (tournaments.some((tournament) => tournament.table.length > 0)) {
      made.append(element("p", "legend", WORDS.legend));
    }
    return made;
  }

  private tournament(tournament: Tournament): HTMLElement {
    const made = element("article", "tournament");
    made.dataset["tournament"] = tournament.id;
    const state =
      tournament.status === "signup"
        ? WORDS.signup
        : tournament.status === "running"
          ? WORDS.running(tournament.round, tournament.rounds)
          : tournament.status === "finished"
            ? tournament.finished_at === null
              ? WORDS.finished
              : WORDS.finishedOn(dateText(tournament.finished_at))
            : tournament.status;
    const format = WORDS.formats[tournament.format] ?? tournament.format;
    made.append(
      element("h3", "", tournament.name),
      element("p", "meta", [format, rulesetName(tournament.ruleset), state].join(" · ")),
    );
    if (tournament.table.length === 0) {
      made.append(element("p", "empty", WORDS.noEntrants));
      return made;
    }
    const rounds = Math.max(...tournament.table.map((row) => row.rounds.length));
    const headings = [
      heading(WORDS.rank),
      heading(WORDS.player, undefined, ""),
      heading(WORDS.matchPoints.short, WORDS.matchPoints.long),
      heading(WORDS.gamePoints.short, WORDS.gamePoints.long),
      heading(WORDS.buchholz.short, WORDS.buchholz.long),
      heading(WORDS.sonnebornBerger.short, WORDS.sonnebornBerger.long),
    ];
    for (let round = 1; round <= rounds; round += 1) {
      const name = WORDS.round(round);
      headings.push(heading(name.short, name.long, ""));
    }
    const rows = tournament.table.map((row) => this.tableRow(row, rounds));
    made.append(table("standings", null, headings, rows));
    return made;
  }

  private tableRow(row: TableRow, rounds: number): HTMLTableRowElement {
    const line = element("tr", row.withdrawn ? "withdrawn" : "");
    const name = element("th", "name", row.player.name);
    name.scope = "row";
    if (row.withdrawn) {
      name.append(element("span", "muted", ` (${WORDS.withdrawn})`));
    }
    line.append(
      numberCell(row.rank),
      name,
      numberCell(row.match_points),
      numberCell(row.game_points),
      numberCell(row.buchholz),
      numberCell(row.sonneborn_berger),
    );
    for (let index = 0; index < rounds; index += 1) {
      line.append(roundCell(row.rounds[index] ?? null));
    }
    return line;
  }
}

/** Each outcome's sign, and the class that colours it. */
const OUTCOMES: Readonly<Record<string, readonly [string, string]>> = {
  win: ["+", "win"],
  "forfeit-win": ["+", "win"],
  loss: ["−", "loss"],
  "forfeit-loss": ["−", "loss"],
  draw: ["=", "draw"],
};

function roundCell(cell: RoundCell | null): HTMLTableCellElement {
  const made = element("td", "round");
  if (cell === null) {
    return made;
  }
  const [sign, kind] = OUTCOMES[cell.outcome] ?? ["", ""];
  if (cell.opponent === null || kind === "") {
    made.classList.add("bye");
    made.textContent = WORDS.bye;
    return made;
  }
  made.classList.add(kind);
  const shown = element("span", "sign", sign);
  shown.setAttribute("aria-hidden", "true");
  made.append(shown, unseen(WORDS.outcomes[cell.outcome] ?? cell.outcome), ` ${cell.opponent.name}`);
  if (cell.outcome.startsWith("forfeit")) {
    const forfeit = element("abbr", "score", WORDS.forfeit.short);
    forfeit.title = WORDS.forfeit.long;
    made.append(" ", forfeit);
  } else if (cell.points !== null) {
    made.append(" ", element("span", "score", `${cell.points[0]}–${cell.points[1]}`));
  }
  return made;
}

/** One finished game, position by position as the server sent them, stepped by buttons, keys and its move list. */
class ReplayView {
  readonly element = element("div", "replay-view");
  private at = 0;
  private readonly board = boardElement();
  private readonly place = element("p", "place");
  private readonly reserve = element("p", "reserve");
  private readonly outcome = element("p", "result");
  private readonly moves = element("ol", "moves");
  private readonly steps: HTMLButtonElement[] = [];
  private readonly controls: Record<"start" | "back" | "forward" | "end", HTMLButtonElement>;

  constructor(
    private readonly replay: Replay,
    close: HTMLButtonElement,
  ) {
    this.element.tabIndex = -1;
    this.element.dataset["game"] = replay.id;
    this.element.dataset["ruleset"] = replay.ruleset;
    this.element.setAttribute("role", "region");
    const white = playerName(replay.players.white);
    const black = playerName(replay.players.black);
    this.element.setAttribute("aria-label", WORDS.replayTitle(white, black));
    this.controls = {
      start: this.control("«", WORDS.toStart, () => this.go(0)),
      back: this.control("‹", WORDS.back, () => this.go(this.at - 1)),
      forward: this.control("›", WORDS.forward, () => this.go(this.at + 1)),
      end: this.control("»", WORDS.toEnd, () => this.go(this.last)),
    };
    this.place.setAttribute("aria-live", "polite");
    replay.moves.forEach((text, index) => {
      const step = element("button", "step", text);
      step.type = "button";
      step.addEventListener("click", () => this.go(index + 1));
      const item = element("li", "move");
      item.append(step);
      this.moves.append(item);
      this.steps.push(step);
    });

    const title = element("div", "replay-title");
    title.append(element("h3", "", WORDS.replayTitle(white, black)), close);
    const players = element("p", "replay-players");
    for (const side of SIDES) {
      const dot = element("span", `dot dot-${side}`);
      dot.setAttribute("aria-hidden", "true");
      const name = element("span", `player player-${side}`);
      name.append(dot, `${sideName(side, replay.ruleset)}: `, element("span", "name", playerName(replay.players[side])));
      players.append(name, " ");
    }
    const result = [resultText(replay.winner, replay.reason, replay.ruleset), pointsText(replay.reason, replay.points)];
    this.outcome.textContent = result.filter((part) => part !== null).join(" · ");
    const buttons = element("div", "controls");
    buttons.append(this.controls.start, this.controls.back, this.controls.forward, this.controls.end);
    const panel = element("div", "panel");
    panel.append(
      title,
      players,
      element("p", "meta", rulesetName(replay.ruleset)),
      this.outcome,
      buttons,
      this.place,
      this.reserve,
      element("h4", "moves-title", TEXT.moves),
      this.moves,
      element("p", "keys", WORDS.keys),
    );
    const boardBox = element("div", "board-box");
    boardBox.append(this.board);
    this.element.append(boardBox, panel);
    this.draw();
  }

  private get last(): number {
    return this.replay.positions.length - 1;
  }

  /** Steps for a key; whether the key was one of the replay's. */
  key(key: string): boolean {
    const moves: Record<string, number> = { ArrowLeft: this.at - 1, ArrowRight: this.at + 1, Home: 0, End: this.last };
    const to = moves[key];
    if (to === undefined) {
      return false;
    }
    this.go(to);
    return true;
  }

  private control(symbol: string, label: string, run: () => void): HTMLButtonElement {
    const button = element("button", "control", symbol);
    button.type = "button";
    button.title = label;
    button.setAttribute("aria-label", label);
    button.addEventListener("click", run);
    return button;
  }

  private go(index: number): void {
    const to = Math.max(0, Math.min(this.last, index));
    if (to !== this.at) {
      this.at = to;
      this.draw();
    }
  }

  private draw(): void {
    const replay = this.replay;
    const position = replay.positions[this.at];
    if (position === undefined) {
      return;
    }
    drawBoard(this.board, { ...replay, pieces: position.pieces, last_move: position.last_move });
    this.element.dataset["at"] = String(this.at);
    const move = replay.moves[this.at - 1];
    this.place.textContent = move === undefined ? WORDS.start : WORDS.atMove(this.at, replay.moves.length, move);
    const reserves = replay.positions.some((each) => each.reserve.white > 0 || each.reserve.black > 0);
    this.reserve.textContent = reserves
      ? WORDS.reserve(sideName("white", replay.ruleset), position.reserve.white, sideName("black", replay.ruleset), position.reserve.black)
      : "";
    this.reserve.hidden = !reserves;
    // A button that stops applying is disabled; the focus it had goes to the replay, so the keys still step.
    const disable = (button: HTMLButtonElement, disabled: boolean): void => {
      if (disabled && document.activeElement === button) {
        this.element.focus({ preventScroll: true });
      }
      button.disabled = disabled;
    };
    disable(this.controls.start, this.at === 0);
    disable(this.controls.back, this.at === 0);
    disable(this.controls.forward, this.at === this.last);
    disable(this.controls.end, this.at === this.last);
    this.steps.forEach((step, index) => {
      const current = index === this.at - 1;
      step.classList.toggle("current", current);
      if (current) {
        step.setAttribute("aria-current", "step");
        this.keepInView(step);
      } else {
        step.removeAttribute("aria-current");
      }
    });
    if (this.at === 0) {
      this.moves.scrollTop = 0;
    }
  }

  /** Scrolls the move list (only it, never the page) so that the current move shows. */
  private keepInView(step: HTMLElement): void {
    const list = this.moves;
    const item = step.parentElement ?? step;
    const top = item.offsetTop;
    const bottom = top + item.offsetHeight;
    if (top < list.scrollTop) {
      list.scrollTop = top;
    } else if (bottom > list.scrollTop + list.clientHeight) {
      list.scrollTop = bottom - list.clientHeight;
    }
  }
}
