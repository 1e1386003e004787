// The live page: one WebSocket to the game, its state drawn, moves sent, drops survived.

import { BoardView } from "./board";
import { element } from "./dom";
import { FINAL_CLOSE_CODES } from "./protocol";
import type { ClientFrame, Game, GameAction, ServerFrame, Side } from "./protocol";
import { LANGUAGE, TEXT, resultText, sideName } from "./words";

const PING_MS = 25_000;
const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 30_000;

/** Sent up from the page's root, once, when the game it shows has ended (the Activity offers
 * to share its final position then). */
export const GAME_ENDED = "jarmo-game-ended";

function clockText(milliseconds: number): string {
  const seconds = Math.max(0, Math.ceil(milliseconds / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

export class LivePage {
  private socket: WebSocket | null = null;
  private game: Game | null = null;
  private retryMs = FIRST_RETRY_MS;
  private pinger = 0;
  private ticker = 0;
  private stopped = false;
  private ended = false;
  private readonly board: BoardView;
  private readonly status = element("p", "status");
  private readonly notice = element("p", "notice");
  private readonly players = element("div", "players");
  private readonly clock = element("p", "clock");
  private readonly score = element("p", "score");
  private readonly result = element("p", "result");
  private readonly watchers = element("p", "watchers");
  private readonly moves = element("ol", "moves");

  constructor(
    private readonly root: HTMLElement,
    private readonly token: string,
  ) {
    this.board = new BoardView(
      (action, version) => this.sendMove(action, version),
      (asked) => {
        this.status.textContent = asked ? TEXT.placePiece : TEXT.yourTurn;
      },
    );
    this.status.setAttribute("role", "status");
    this.notice.setAttribute("role", "alert");
    const side = element("section", "panel");
    const movesTitle = element("h2", "moves-title", TEXT.moves);
    side.append(this.players, this.status, this.clock, this.score, this.result, this.watchers, this.notice, movesTitle, this.moves);
    const boardBox = element("section", "board-box");
    boardBox.append(this.board.element);
    root.append(boardBox, side);
  }

  start(): void {
    this.status.textContent = TEXT.connecting;
    this.connect();
    this.ticker = window.setInterval(() => this.drawClock(), 1000);
  }

  private connect(): void {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/ws`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.send({ type: "watch", token: this.token, lang: LANGUAGE });
      this.pinger = window.setInterval(() => this.send({ type: "ping" }), PING_MS);
    });
    socket.addEventListener("message", (event: MessageEvent) => {
      if (typeof event.data === "string") {
        this.receive(JSON.parse(event.data) as ServerFrame);
      }
    });
    socket.addEventListener("close", (event: CloseEvent) => this.closed(event.code));
  }

  private closed(code: number): void {
    window.clearInterval(this.pinger);
    this.socket = null;
    if (this.stopped) {
      return;
    }
    if (FINAL_CLOSE_CODES.has(code)) {
      this.stopped = true;
      window.clearInterval(this.ticker);
      this.notice.textContent = TEXT.closed[code] ?? "";
      this.root.classList.add("closed");
      this.status.textContent = "";
      return;
    }
    this.status.textContent = TEXT.reconnecting;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, LAST_RETRY_MS);
    window.setTimeout(() => this.connect(), wait + Math.random() * 250);
  }

  private send(frame: ClientFrame): void {
    if (this.socket !== null && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(frame));
    }
  }

  private sendMove(action: GameAction, version: number): void {
    this.notice.textContent = "";
    this.send({ type: "move", move: action.text, version });
  }

  private receive(frame: ServerFrame): void {
    switch (frame.type) {
      case "state":
        this.retryMs = FIRST_RETRY_MS;
        this.game = frame.game;
        this.notice.textContent = "";
        this.board.show(frame.game);
        this.draw(frame.game);
        break;
      case "watchers":
        if (this.game !== null) {
          this.game.watchers = frame.count;
        }
        this.watchers.textContent = TEXT.watching(frame.count);
        break;
      case "refused":
        this.notice.textContent = frame.text;
        this.board.refused();
        break;
      case "pong":
        break;
    }
  }

  private draw(game: Game): void {
    this.players.replaceChildren(this.player(game, "white"), this.player(game, "black"));
    const yourTurn = game.you !== null && game.turn === game.you && game.result === null;
    if (game.result !== null) {
      this.status.textContent = "";
      this.result.textContent = resultText(game.result.winner, game.result.reason, game.ruleset);
    } else {
      this.result.textContent = "";
      this.status.textContent = yourTurn ? TEXT.yourTurn : game.turn !== null ? TEXT.toMove(sideName(game.turn, game.ruleset)) : "";
    }
    this.root.classList.toggle("your-turn", yourTurn);
    this.root.classList.toggle("finished", game.result !== null);
    const score = game.score;
    this.score.textContent = score === null ? "" : TEXT.score(score.white, score.black, score.game, score.games);
    this.watchers.textContent = TEXT.watching(game.watchers);
    this.moves.replaceChildren(...game.moves.map((text) => element("li", "move", text)));
    this.drawClock();
    if (game.result !== null && !this.ended) {
      this.ended = true;
      this.root.dispatchEvent(new CustomEvent(GAME_ENDED, { bubbles: true }));
    }
  }

  private player(game: Game, side: Side): HTMLElement {
    const box = element("p", `player player-${side}`);
    const player = game.players[side];
    const name = player === null ? TEXT.waitingOpponent : player.name;
    box.append(element("span", "side", `${sideName(side, game.ruleset)}: `), element("span", "name", name));
    if (game.you === side) {
      box.append(element("span", "you", ` (${TEXT.you})`));
    }
    if (game.turn === side && game.result === null) {
      box.classList.add("to-move");
    }
    return box;
  }

  private drawClock(): void {
    const game = this.game;
    if (game === null) {
      return;
    }
    const clock = game.clock;
    if (game.result !== null) {
      this.clock.textContent = "";
    } else if (clock.paused) {
      this.clock.textContent = TEXT.paused;
    } else if (clock.deadline === null) {
      this.clock.textContent = TEXT.noClock;
    } else {
      this.clock.textContent = clockText(Date.parse(clock.deadline) - Date.now());
    }
  }
}
