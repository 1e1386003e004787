// The board as SVG, and the clicks that make a move out of the legal actions the server lists.
// The live page and the server pages' replay draw with the one function here.

import type { BoardScene, Game, GameAction, Side } from "./protocol";
import { TEXT, pieceLabel } from "./words";

const SVG = "http://www.w3.org/2000/svg";
const SPACING = 100;
const MARGIN = 60;
const POINT_RADIUS = 30;
const PIECE_RADIUS = 24;

/** What a click on a point does, and whether it picks where a piece goes (drawn apart from the pieces to pick). */
interface Click {
  target: boolean;
  run: () => void;
}

/** Where a move being made by clicks stands: nothing picked, a piece picked, or a step waiting for its place. */
type Choice =
  | { stage: "idle" }
  | { stage: "origin"; origin: string }
  | { stage: "place"; origin: string; target: string };

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) {
    element.setAttribute(name, String(value));
  }
  return element;
}

function centre(x: number, y: number): [number, number] {
  return [MARGIN + x * SPACING, MARGIN + y * SPACING];
}

export class BoardView {
  readonly element: SVGSVGElement;
  private game: Game | null = null;
  private choice: Choice = { stage: "idle" };
  private waiting = false;

  constructor(
    private readonly send: (action: GameAction, version: number) => void,
    private readonly placing: (asked: boolean) => void,
  ) {
    this.element = boardElement();
  }

  /** Draws a new state; a choice in progress is dropped, since the legal actions changed. */
  show(game: Game): void {
    this.game = game;
    this.choice = { stage: "idle" };
    this.waiting = false;
    this.draw();
  }

  /** The server refused the move sent: let the player choose again. */
  refused(): void {
    this.choice = { stage: "idle" };
    this.waiting = false;
    this.draw();
  }

  private playable(): GameAction[] {
    const game = this.game;
    if (game === null || this.waiting || game.you === null || game.turn !== game.you) {
      return [];
    }
    return game.legal;
  }

  /** The points a click may use now, each with what a click on it does. */
  private clickable(): Map<string, Click> {
    const actions = this.playable();
    const targets = new Map<string, Click>();
    const choice = this.choice;
    if (choice.stage === "place") {
      for (const action of actions) {
        if (action.from === choice.origin && action.to === choice.target && action.place !== null) {
          targets.set(action.place, { target: true, run: () => this.play(action) });
        }
      }
      return targets;
    }
    if (choice.stage === "origin") {
      targets.set(choice.origin, { target: false, run: () => this.choose({ stage: "idle" }) });
      for (const action of actions) {
        if (action.from === choice.origin && action.to !== null) {
          const target = action.to;
          const withPlace = action.place !== null;
          targets.set(target, {
            target: true,
            run: () => (withPlace ? this.choose({ stage: "place", origin: choice.origin, target }) : this.play(action)),
          });
        }
      }
    }
    for (const action of actions) {
      if (action.from !== null && !targets.has(action.from)) {
        const origin = action.from;
        targets.set(origin, { target: false, run: () => this.choose({ stage: "origin", origin }) });
      } else if (action.from === null && action.place !== null && choice.stage === "idle") {
        targets.set(action.place, { target: true, run: () => this.play(action) });
      }
    }
    return targets;
  }

  private choose(choice: Choice): void {
    this.choice = choice;
    this.placing(choice.stage === "place");
    this.draw();
  }

  private play(action: GameAction): void {
    const game = this.game;
    if (game === null) {
      return;
    }
    this.waiting = true;
    this.choice = { stage: "idle" };
    this.draw();
    this.send(action, game.version);
  }

  private draw(): void {
    const game = this.game;
    if (game === null) {
      this.element.replaceChildren();
      return;
    }
    const chosen = this.choice.stage === "idle" ? null : this.choice.origin;
    drawBoard(this.element, game, { clickable: this.clickable(), chosen });
  }
}

/** An empty board's SVG element, for ``drawBoard`` to draw in. */
export function boardElement(): SVGSVGElement {
  const size = 2 * MARGIN + 4 * SPACING;
  return svg("svg", { viewBox: `0 0 ${size} ${size}`, class: "board", role: "group", "aria-label": TEXT.board });
}

interface DrawOptions {
  /** The points a click may use, each with what a click does; none on a board only looked at. */
  clickable?: Map<string, Click>;
  chosen?: string | null;
}

/**
 * Draws ``scene`` into ``root`` (from ``boardElement``), replacing what was there. With
 * ``clickable`` given the points are buttons (disabled where no click applies); without, they
 * are pictures with the same names, since nothing can be done with them.
 */
export function drawBoard(root: SVGSVGElement, scene: BoardScene, options: DrawOptions = {}): void {
  const interactive = options.clickable !== undefined;
  const clickable = options.clickable ?? new Map<string, Click>();
  // Redrawing replaces the points: the one a keyboard user was on keeps the focus.
  const focused = root.contains(document.activeElement) ? document.activeElement?.getAttribute("data-point") : null;
  root.replaceChildren();
  const colors = scene.colors;
  const where = new Map(scene.board.points.map((p) => [p.name, centre(p.x, p.y)] as const));
  const size = 2 * MARGIN + 4 * SPACING;
  root.append(svg("rect", { x: 0, y: 0, width: size, height: size, fill: colors.background }));

  const camps: [Side, string][] = [
    ["white", colors.camp_white],
    ["black", colors.camp_black],
  ];
  for (const [side, color] of camps) {
    for (const name of scene.camps[side]) {
      const at = where.get(name);
      if (at !== undefined) {
        root.append(svg("circle", { cx: at[0], cy: at[1], r: POINT_RADIUS + 8, fill: color, class: `camp camp-${side}` }));
      }
    }
  }

  const lines = svg("g", { class: "lines", stroke: colors.line, "stroke-width": 4 });
  for (const [a, b] of scene.board.lines) {
    const from = where.get(a);
    const to = where.get(b);
    if (from !== undefined && to !== undefined) {
      lines.append(svg("line", { x1: from[0], y1: from[1], x2: to[0], y2: to[1] }));
    }
  }
  root.append(lines);

  const last = scene.last_move;
  if (last !== null && last.from !== null && last.to !== null) {
    const from = where.get(last.from);
    const to = where.get(last.to);
    if (from !== undefined && to !== undefined) {
      root.append(
        svg("line", {
          x1: from[0], y1: from[1], x2: to[0], y2: to[1],
          stroke: colors.last_move, "stroke-width": 12, "stroke-linecap": "round", class: "last-move",
        }),
      );
    }
  }

  const pieces = new Map(scene.pieces.map((piece) => [piece.point, piece.side] as const));
  const lastPoints = new Set([last?.from, last?.to, last?.place].filter((p): p is string => typeof p === "string"));
  for (const point of scene.board.points) {
    const [cx, cy] = centre(point.x, point.y);
    const side = pieces.get(point.name) ?? null;
    const click = clickable.get(point.name);
    const action = click?.run;
    const group = svg("g", { class: "point", "data-point": point.name, "aria-label": pieceLabel(point.name, side, action !== undefined) });
    if (interactive) {
      group.setAttribute("role", "button");
      group.setAttribute("tabindex", "0");
      group.setAttribute("aria-disabled", action === undefined ? "true" : "false");
    } else {
      group.setAttribute("role", "img");
    }
    if (side !== null) {
      group.setAttribute("data-piece", side);
    }
    if (click !== undefined) {
      group.classList.add("legal", click.target ? "target" : "origin");
    }
    if (options.chosen === point.name) {
      group.classList.add("chosen");
    }
    if (lastPoints.has(point.name)) {
      group.append(svg("circle", { cx, cy, r: POINT_RADIUS + 4, fill: "none", stroke: colors.last_move, "stroke-width": 6, class: "last" }));
    }
    group.append(svg("circle", { cx, cy, r: POINT_RADIUS, class: "hit", fill: "transparent" }));
    group.append(svg("circle", { cx, cy, r: 7, fill: colors.line }));
    if (side !== null) {
      group.append(
        svg("circle", { cx, cy, r: PIECE_RADIUS, fill: colors[side], stroke: colors.line, "stroke-width": 3, class: "piece" }),
      );
    }
    if (click?.target === true) {
      group.append(svg("circle", { cx, cy, r: POINT_RADIUS, class: "mark", fill: colors.last_move, "fill-opacity": 0.35, stroke: colors.last_move, "stroke-width": 4 }));
    } else if (click !== undefined) {
      group.append(svg("circle", { cx, cy, r: POINT_RADIUS, class: "mark", fill: "none", stroke: colors.last_move, "stroke-width": 4, "stroke-dasharray": "8 6" }));
    }
    if (action !== undefined) {
      group.addEventListener("click", action);
      group.addEventListener("keydown", (event: KeyboardEvent) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          action();
        }
      });
    }
    root.append(group);
    if (point.name === focused) {
      group.focus();
    }
  }
}
