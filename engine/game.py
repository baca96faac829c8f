"""The game protocol every game implements, and nothing else.

A game is two objects:

* a :class:`Game` -- the *rules* for one configuration (Nim with these piles, Shannon on
  this graph). It is built once from options with :meth:`Game.from_options` and never
  changes. It holds everything that is the same for all positions of the game (a graph,
  precomputed tables) so that positions stay small.
* a *state* -- one position, small and immutable (a tuple, an int, a frozen dataclass).
  Playing a move returns a new state; nothing is copied deeply, so the search can keep
  thousands of them in its table.

Moves have two forms. In the search's hot path a game uses whatever is fastest (an int, a
tuple): :meth:`Game.moves` and :meth:`Game.play`. Everywhere else a move is its
**notation**, a short string as ``GAMES.md`` gives it: :meth:`Game.legal_moves`,
:meth:`Game.push_notation`. ``notation``/``parse_move`` convert.

Sides are seats ``0`` and ``1``; seat 0 moves first. A state where chance decides (a card is
dealt) has ``to_move == CHANCE`` and :meth:`Game.chance_outcomes` lists the outcomes with
their probabilities.

Scores: :meth:`Game.evaluate` returns a heuristic number from **seat 0's point of view**
(positive is good for seat 0), strictly between ``-EVAL_LIMIT`` and ``EVAL_LIMIT``.
The search converts to "side to move" when it reports.

Example, with Nim::

    >>> from engine.games import get_game
    >>> nim = get_game("nim").from_options({"piles": "1,2"})
    >>> state = nim.start()
    >>> nim.legal_moves(state)
    ['1:1', '2:1', '2:2']
    >>> nim.winner(nim.push_notation(state, "2:2"))   # one stick left: seat 1 must take it
    0
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Any, ClassVar

from .options import Option, OptionError, parse_options

CHANCE = -1  # to_move of a state where chance, not a player, decides
DRAW = 2  # status() of a drawn game
EVAL_LIMIT = 100_000  # |heuristic evaluation| stays below this; proved results lie far above
WIN = 1_000_000  # value of a win at ply 0; a win at ply p is WIN - p, so a faster win is a better one
MATE_BOUND = WIN - 10_000  # |value| >= MATE_BOUND is a proved result
INF = 10 * WIN  # beyond every value: the open window's ends


class IllegalMove(ValueError):
    """A move string that is malformed or not legal in the position; the message says why.
    Raised by :meth:`Game.replay_steps`, it also names the move's ``ply`` (from 1) and the
    ``reason`` alone, so a caller can word the refusal its own way."""

    ply: int | None = None
    reason: str = ""


class Game(ABC):
    """Rules of one game configuration. Subclass it and implement the abstract (*required*)
    methods: :meth:`start`, :meth:`to_move`, :meth:`moves`, :meth:`play`, :meth:`status`,
    :meth:`notation`, :meth:`board`; a game with chance also :meth:`chance_outcomes`.

    Class attributes a game sets:

    ``name``      registry name (``"nim"``), ``title`` a display name,
    ``sides``     the two seats' names (``("Red", "Blue")``),
    ``options``   tuple of :class:`~engine.options.Option`,
    ``variants``  short descriptions of the variants its options give (for the catalog),
    ``has_chance`` True when some states have ``to_move == CHANCE``,
    ``policies``  fixed agents this game provides, name -> method name (``{"rules": "rules_move"}``).
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    sides: ClassVar[tuple[str, str]] = ("first", "second")
    options: ClassVar[tuple[Option, ...]] = ()
    variants: ClassVar[tuple[str, ...]] = ()
    has_chance: bool = False  # a class default; a variant may set it per instance (Blacksin)
    policies: ClassVar[dict[str, str]] = {}
    #: Named heuristics a depth-limited search may use instead of :meth:`evaluate`:
    #: name -> method name (``{"safe": "eval_safe_moves"}``). Agents pick one with ``eval=NAME``.
    evaluators: ClassVar[dict[str, str]] = {}
    #: For a game whose search must stop before the end: the depth the teaching views start
    #: from (the tree page, Compare); 0: searched to the end. (The lobby's AI for such a game
    #: deepens for 2 s a move, with no depth cap.)
    default_depth: int = 0
    #: Whether the search tests :meth:`futility` one ply above the horizon before it asks the
    #: table about the position: for a game whose table key costs more than its futility test,
    #: a futile position then needs no key (its bound is not stored).
    futility_before_table: ClassVar[bool] = False
    #: Whether a solve to the end (with ``scout`` on) finds the root's value in null-window
    #: passes, as MTD(f) does, and then searches the root once more around it, as a
    #: depth-limited search always does (:func:`engine.search._null_window_passes`). It pays
    #: where a solve's values crowd round a few results, so that a window one step wide cuts
    #: far more than an open one; on small trees, whose root moves the passes search again
    #: and again, it costs.
    solve_in_passes: ClassVar[bool] = False

    def __init__(self, options: dict):
        #: the validated options this game was built from (JSON-ready)
        self.settings = options

    # ----- construction -------------------------------------------------------------------
    @classmethod
    def from_options(cls, raw: dict | None = None) -> Game:
        """Validate raw options (text or JSON values) and build the game, or raise OptionError."""
        return cls(parse_options(cls.options, raw))

    @classmethod
    def describe(cls) -> dict:
        """The catalog entry: name, title, sides, variants, options with defaults."""
        return {
            "name": cls.name,
            "title": cls.title,
            "sides": list(cls.sides),
            "variants": list(cls.variants),
            "options": [opt.to_json() for opt in cls.options],
            "has_chance": cls.has_chance,
            "policies": sorted(cls.policies),
            "evaluators": sorted(cls.evaluators),
            "default_depth": cls.default_depth,
        }

    @abstractmethod
    def start(self) -> Any:
        """*Required.* The start position."""
        raise NotImplementedError

    # ----- the hot path (the search calls these millions of times) ------------------------
    @abstractmethod
    def to_move(self, state: Any) -> int:
        """*Required.* Seat to move (0 or 1), or CHANCE."""
        raise NotImplementedError

    @abstractmethod
    def moves(self, state: Any) -> list:
        """*Required.* Legal moves in internal form (empty when the game is over)."""
        raise NotImplementedError

    def search_moves(self, state: Any) -> list:
        """The moves the search tries: one per group of moves known to lead to equivalent
        positions (Nim: one of two equal piles). Default: all of :meth:`moves`."""
        return self.moves(state)

    @abstractmethod
    def play(self, state: Any, move: Any) -> Any:
        """*Required.* The state after ``move`` (internal form). Never mutates ``state``."""
        raise NotImplementedError

    @abstractmethod
    def status(self, state: Any) -> int | None:
        """*Required.* ``None`` while playing; else the winning seat (0/1) or ``DRAW``."""
        raise NotImplementedError

    def evaluate(self, state: Any) -> float:
        """Heuristic value for seat 0 at a depth-limited leaf. Default: 0 (no knowledge)."""
        return 0

    def evaluator(self, name: str | None) -> Callable[[Any], float]:
        """The heuristic called ``name`` (None: :meth:`evaluate`)."""
        if name is None:
            return self.evaluate
        if name not in self.evaluators:
            known = ", ".join(sorted(self.evaluators)) or "none"
            raise OptionError(f"{self.name} has no evaluation {name!r} (evaluations: {known})")
        evaluator: Callable[[Any], float] = getattr(self, self.evaluators[name])
        return evaluator

    def key(self, state: Any) -> Hashable:
        """Transposition-table key: equal keys must have equal values. Default: the state.

        A game may return a key canonical under its symmetries (Sim), or drop what cannot
        change the result."""
        key: Hashable = state
        return key

    def order(self, state: Any, moves: list) -> list:
        """Move-ordering hook: likely-best moves first. Default: unchanged."""
        return moves

    def futility(self, state: Any, alpha: float, beta: float, depth: int) -> float | None:
        """Futility hook, for a player's position ``depth`` plies above the search's horizon
        (1: every move leads to a leaf, its :meth:`evaluate` or the end of the game; 2: every
        move and every reply to it, asked only where the reply is the other player's best,
        not a modelled opponent's average): a bound the game proves from its moves without
        trying them, when that bound lies outside the window ``(alpha, beta)``; else ``None``. The
        bound is on the value the search to ``depth`` would find (seat 0's view, leaves
        evaluated, a finished game worth its result): a value ``<= alpha`` that the true
        value does not exceed, or one ``>= beta`` that it reaches. Typically either no move
        reaches the window (futile: the bound is the best that any move can make; a move
        that ends the game is worth its result) or a move passes it (a cut-off found without
        trying the move). The search (switch ``futility``) then returns that bound without
        trying the moves, as a bound. Default: ``None`` (no knowledge)."""
        return None

    def soonest_win(self, state: Any, seat: int) -> int | None:
        """How soon ``seat`` could win at the earliest from a position in play: the plies,
        counting the winning move (1: the side to move might win with this move), a lower
        bound that no line of play beats (for a seat that cannot win at all, any number).
        With the ``mate`` switch, the search cuts where not even that soonest win could beat
        the result already found, as mate-distance pruning does with a win on the next ply;
        asked only where the window lies among wins and losses (for the seat it would need),
        so it should be cheap rather than tight. Default: ``None`` (no knowledge beyond the
        next ply)."""
        return None

    def solved(self, state: Any) -> int | None:
        """The exact minimax value of a position in play, when the game can work it out
        cheaply without trying the moves (an endgame rule), else ``None``: seat 0's view,
        counted from here (``WIN - n``: seat 0 wins in ``n`` plies; ``n - WIN``: seat 1 does;
        0: a draw). Asked only by a search to the end (every value proved) against a perfect
        opponent, with the ``endgame`` switch (:class:`~engine.search.Techniques`); it must be
        exactly what the full search would find. Default: ``None`` (no knowledge)."""
        return None

    def exact_moves(self, state: Any, moves: list) -> list:
        """The moves of ``moves`` (those a node would try) that a search asking
        :meth:`solved` needs, asked right after :meth:`solved` gave ``None`` for this very
        ``state``: the game may leave out a move it proves no better for the mover than one
        it keeps (the value is then the same; an endgame rule, like :meth:`solved`, so only
        for searches to the end against a perfect opponent: at a depth limit, a move worse
        in truth can evaluate better). Default: ``moves`` unchanged."""
        return moves

    def chance_outcomes(self, state: Any) -> list[tuple[Any, float]]:
        """At a CHANCE state: ``[(move, probability), ...]`` summing to 1."""
        raise NotImplementedError

    # ----- information ---------------------------------------------------------------------
    def perspective(self, state: Any, seat: int) -> tuple[Game, Any]:
        """The game and state a searcher sitting in ``seat`` may see.

        Perfect-information games return ``(self, state)``. A game with hidden information
        returns a model in which what is hidden is a chance event (Blacksin's hidden deck)."""
        return self, state

    # ----- notation and presentation -------------------------------------------------------
    @abstractmethod
    def notation(self, state: Any, move: Any) -> str:
        """*Required.* The notation of an internal move."""
        raise NotImplementedError

    def parse_move(self, state: Any, text: str) -> Any:
        """The internal move for ``text`` if it is legal here, else raise IllegalMove."""
        if not isinstance(text, str):
            raise IllegalMove(f"a move must be a string, got {text!r}")
        for move in self.moves(state):
            if self.notation(state, move) == text:
                return move
        if self.status(state) is not None:
            raise IllegalMove(f"move {text!r}: the game is over")
        raise IllegalMove(f"illegal move {text!r}: legal moves are {', '.join(self.legal_moves(state))}")

    def legal_moves(self, state: Any) -> list[str]:
        """Legal moves in notation, in a stable order."""
        return [self.notation(state, m) for m in self.moves(state)]

    def push_notation(self, state: Any, text: str) -> Any:
        """The state after the move written ``text`` (raises IllegalMove)."""
        return self.play(state, self.parse_move(state, text))

    def replay(self, moves: Iterable[str], state: Any = None) -> Any:
        """Play notation moves from ``state`` (default: the start); raise IllegalMove naming
        the first bad one and its ply."""
        final = self.start() if state is None else state
        for _, _, after in self.replay_steps(moves, final):
            final = after
        return final

    def replay_steps(self, moves: Iterable[str], state: Any = None, *,
                     check_end: bool = False) -> Iterator[tuple[Any, Any, Any]]:
        """Play notation moves from ``state`` (default: the start), yielding ``(position
        before, move, position after)`` for each: the one replay every caller shares (the
        server rebuilds stored games and imports records with it). The first bad move raises
        IllegalMove ``"ply N: why"`` with its ``ply`` and ``reason``; with ``check_end``, so
        does a move after the end (a record from outside; rules need not refuse it)."""
        state = self.start() if state is None else state
        for ply, text in enumerate(moves, start=1):
            try:
                if check_end and self.status(state) is not None:
                    raise IllegalMove("the game is already over")
                move = self.parse_move(state, text)
                after = self.play(state, move)
            except IllegalMove as exc:
                error = IllegalMove(f"ply {ply}: {exc}")
                error.ply, error.reason = ply, str(exc)
                raise error from None
            yield state, move, after
            state = after

    def winner(self, state: Any) -> int | None:
        """The winning seat of a finished game, None for a draw or while playing."""
        status = self.status(state)
        return status if status in (0, 1) else None

    def explain(self, state: Any) -> str:
        """Why the game ended, in a sentence (only called on finished games)."""
        status = self.status(state)
        if status is None or status == DRAW:
            return "draw"
        return f"{self.sides[status]} wins"

    def theory(self, state: Any) -> dict | None:
        """What a known theorem says about ``state`` (JSON), or None: the default, no theory.

        A game with a theory returns at least ``name`` (the theorem), ``value`` (``"win"``,
        ``"loss"`` or ``"draw"`` for the side to move under perfect play) and
        ``explanation`` (a sentence or two); optionally ``winning_moves`` (notation: every
        move that keeps the win) and fields a page can draw (Shannon: ``trees``). The
        teaching page checks it against a search to the end and says whether they agree."""
        return None

    @abstractmethod
    def board(self, state: Any, seat: int | None = None) -> dict:
        """*Required.* The position as JSON for a viewer in ``seat`` (None: a spectator).
        Must not reveal what that viewer may not see."""
        raise NotImplementedError

    def public_settings(self) -> dict:
        """The options anyone watching may see. A game with hidden information leaves out
        what would reveal it (Blacksin's hidden deck: its order and the seed that drew it)."""
        return self.settings

    def move_details(self, state: Any, move: Any) -> dict | None:
        """What a view needs to animate ``move`` (internal form) played from ``state``: e.g.
        Cantris's removal and each chain step with its points. Default: nothing."""
        return None

    def to_move_name(self, state: Any) -> str:
        side = self.to_move(state)
        return "chance" if side == CHANCE else self.sides[side]

    def position(self, state: Any, seat: int | None = None) -> dict:
        """A position as JSON: the one place the command line's ``show`` and the server's game
        state take it from. ``seat`` is who looks (a view may hide what that seat may not see).

        >>> from engine.games import get_game
        >>> nim = get_game("nim").from_options({"piles": "1,2"})
        >>> p = nim.position(nim.start())
        >>> p["board"]["piles"], p["status"], p["to_move_seat"], p["to_move_name"], p["legal_moves"]
        ([1, 2], 'playing', 0, 'first', ['1:1', '2:1', '2:2'])
        """
        over = self.status(state) is not None
        return {
            "board": self.board(state, seat),
            "status": "over" if over else "playing",
            "result": self.result(state),
            "to_move_seat": None if over else self.to_move(state),
            "to_move_name": None if over else self.to_move_name(state),
            "legal_moves": [] if over else self.legal_moves(state),
        }

    def result(self, state: Any) -> dict | None:
        """``None`` while playing, else ``{"winner": seat or None, "reason": text}``."""
        if self.status(state) is None:
            return None
        return {"winner": self.winner(state), "reason": self.explain(state)}

    def policy(self, name: str) -> Callable[[Any], Any]:
        """The game's fixed agent ``name`` as ``state -> internal move``."""
        if name not in self.policies:
            raise OptionError(f"{self.name} has no agent {name!r}")
        policy: Callable[[Any], Any] = getattr(self, self.policies[name])
        return policy


__all__ = ["CHANCE", "DRAW", "EVAL_LIMIT", "INF", "MATE_BOUND", "WIN", "Game", "IllegalMove", "Option", "OptionError"]
