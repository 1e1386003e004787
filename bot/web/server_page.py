"""A server's web page: its ratings, latest games (each with every position, for a step-through
replay) and tournament tables, read with a server token from a link's fragment. The page posts
the token in a JSON body, so it never reaches a URL or a log."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from bot.jarmo.position import Position, Side
from bot.service import JarmoService, errors
from bot.service.server_pages import EndedGame, GameReplay, ServerOverview
from bot.service.stats_models import shown
from bot.service.tournaments.views import TableView
from bot.service.watching import SIDES, last_move_shape
from bot.web.game_json import (
    board_json,
    camps_json,
    colors,
    iso_time,
    json_object,
    json_refusal,
    move_json,
)
from bot.web.tokens import BadToken, ServerGrant, read_server_token

log = logging.getLogger(__name__)


def _player(user_id: int, name: str) -> dict[str, str]:
    return {"id": str(user_id), "name": name}


def _game(game: EndedGame) -> dict[str, Any]:
    result = game.result
    ids: dict[Side, int] = {"white": result.white_id, "black": result.black_id}
    return {
        "id": str(result.id),
        "ruleset": result.ruleset,
        "players": {side: _player(ids[side], game.names[side]) for side in SIDES},
        "winner": result.winner,
        "reason": result.status,
        "points": dict(result.points),
        "plies": result.plies,
        "finished_at": iso_time(result.finished_at),
    }


def _table(view: TableView) -> dict[str, Any]:
    tournament, names = view.tournament, view.names
    rows = [
        {
            "rank": row.rank,
            "player": _player(row.player, names.get(row.player, str(row.player))),
            "match_points": row.match_points,
            "game_points": row.game_points,
            "buchholz": row.buchholz,
            "sonneborn_berger": row.sonneborn_berger,
            "withdrawn": row.withdrawn,
            "rounds": [
                None
                if cell is None
                else {
                    "round": cell.round,
                    "outcome": cell.outcome,
                    "opponent": None
                    if cell.opponent is None
                    else _player(cell.opponent, names.get(cell.opponent, str(cell.opponent))),
                    "points": list(cell.points),
                }
                for cell in row.rounds
            ],
        }
        for row in view.standings.rows
    ]
    return {
        "id": str(tournament.id),
        "name": tournament.name,
        "status": tournament.status,
        "format": tournament.format,
        "ruleset": tournament.ruleset,
        "rounds": view.rounds,
        "round": tournament.current_round,
        "finished_at": iso_time(tournament.finished_at),
        "table": rows,
    }


def overview_json(overview: ServerOverview) -> dict[str, Any]:
    """The OVERVIEW object of the server page."""
    return {
        "leaderboards": [
            {
                "ruleset": board.ruleset,
                "rows": [
                    {
                        "rank": row.rank,
                        "player": _player(row.user_id, row.name),
                        "rating": shown(row.rating.skill.rating),
                        "games": row.rating.games,
                        "wins": row.rating.wins,
                        "losses": row.rating.losses,
                        "draws": row.rating.draws,
                    }
                    for row in board.rows
                ],
            }
            for board in overview.leaderboards
        ],
        "games": [_game(game) for game in overview.games],
        "tournaments": [_table(view) for view in overview.tournaments],
    }


def _position(position: Position) -> dict[str, Any]:
    return {
        "pieces": [{"point": piece.point, "side": piece.side} for piece in position.pieces],
        "reserve": dict(position.reserve),
        "last_move": move_json(last_move_shape(position)),
        "turn": None if position.outcome is not None else position.turn,
    }


def replay_json(replay: GameReplay) -> dict[str, Any]:
    """The REPLAY object of the server page: every position, drawn as the live board draws."""
    game = _game(replay.game)
    return {
        "id": game["id"],
        "ruleset": game["ruleset"],
        "board": board_json(replay.positions[0].lines),
        "colors": colors(game["ruleset"]),
        "camps": camps_json(),
        "players": game["players"],
        "winner": game["winner"],
        "reason": game["reason"],
        "points": game["points"],
        "moves": list(replay.moves),
        "positions": [_position(position) for position in replay.positions],
    }


class ServerPage:
    """The server page's two reads, each with the token in its body."""

    def __init__(self, service: JarmoService, secret: Callable[[], Awaitable[bytes]]) -> None:
        self._service = service
        self._secret = secret

    async def _grant(self, request: web.Request) -> tuple[ServerGrant, dict[str, Any]]:
        body = await json_object(request)
        if body is None or not isinstance(body.get("token"), str):
            raise json_refusal(web.HTTPBadRequest, "bad_request")
        try:
            now = self._service.now()
            return read_server_token(await self._secret(), body["token"], now=now), body
        except BadToken as bad:
            raise json_refusal(web.HTTPUnauthorized, bad.code) from None

    async def overview(self, request: web.Request) -> web.Response:
        grant, _ = await self._grant(request)
        try:
            overview = await self._service.server_pages.overview(grant.guild_id)
        except errors.NotAllowed:
            raise json_refusal(web.HTTPForbidden, "web_pages_off") from None
        return web.json_response(overview_json(overview), headers={"Cache-Control": "no-store"})

    async def game(self, request: web.Request) -> web.Response:
        grant, body = await self._grant(request)
        game_id = body.get("game_id")
        if not isinstance(game_id, str) or not game_id.isdigit() or len(game_id) > 20:
            raise json_refusal(web.HTTPBadRequest, "bad_request")
        try:
            replay = await self._service.server_pages.replay(grant.guild_id, int(game_id))
        except errors.NotAllowed:
            raise json_refusal(web.HTTPForbidden, "web_pages_off") from None
        except errors.NoStats:
            raise json_refusal(web.HTTPNotFound, "no_game") from None
        except errors.GameDamaged as damaged:
            log.warning(
                "game %d of the server page cannot be loaded: %s", damaged.game_id, damaged.reason
            )
            raise json_refusal(web.HTTPNotFound, "no_game") from None
        return web.json_response(replay_json(replay), headers={"Cache-Control": "no-store"})
