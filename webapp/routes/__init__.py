"""The HTTP routes, one blueprint per resource: a route goes where the thing its URL names
lives (a game's lifecycle, a search that explains a position, an arena run, a page to play).

- :mod:`.games`: the catalog and a game's life (create, state, record, delete).
- :mod:`.teaching`: every search run to show or explain a position (trace, Compare, minimax,
  theory, perfect play, verdicts), the tree page and the lessons.
- :mod:`.arena`: arena runs (start, presets, list, cancel, CSV) and the arena page.
- :mod:`.pages`: the lobby, a game's page and its replay.
- :mod:`.common`: what several of them read (the position at ``?ply=``, tokens, budgets).

A class's routes live with the classes (:mod:`webapp.classes.routes`).
"""

from __future__ import annotations

from flask import Flask

from engine.game import INF, MATE_BOUND, WIN

from . import arena, games, pages, teaching

#: How the engine scores a proved result and an open window's ends (engine/game.py), for the
#: pages that write values (static/js/teach-common.js reads it from every page's
#: ``score-scale`` block, and writes values as engine.search_result.value_text does).
SCORE_SCALE = {"win": WIN, "mate_bound": MATE_BOUND, "inf": INF}


def register(app: Flask) -> None:
    for module in (pages, games, teaching, arena):
        app.register_blueprint(module.bp)
    app.context_processor(lambda: {"score_scale": SCORE_SCALE})
