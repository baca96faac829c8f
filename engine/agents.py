"""Agents: one class per kind of player behind one protocol, and the one parser of their spec
strings (CLI, HTTP API and lobby alike).

Every agent answers :meth:`Agent.choose` (its move, as a SearchResult), :attr:`Agent.spec` (its
canonical spec), :attr:`Agent.is_human` and :meth:`Agent.describe` (the player in words); each
kind keeps only its own settings. :data:`KINDS` is the table from a spec's name to its class.

A spec is ``NAME[:key=value,...]``:

>>> a = parse_agent("alphabeta:depth=6,tt=off")
>>> type(a).__name__, a.depth, a.techniques.tt, a.techniques.order, a.techniques.sym, a.techniques.mate
('AlphaBetaAgent', 6, False, True, True, True)
>>> parse_agent("minimax:depth=-1")
Traceback (most recent call last):
...
engine.agents.AgentError: agent 'minimax:depth=-1': depth must be 0 (to the end) or more, got -1
>>> parse_agent("model:opponent=random").opponent.name
'random'
"""

from __future__ import annotations

import functools
import random as _random
import time as _time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from . import mcts
from . import strength as levels
from .game import Game
from .options import OptionError
from .search import Cancel, SearchResult, Stats, TranspositionTable, search_root
from .search_techniques import MINIMAX, SWITCHES, Techniques, ladder_order, technique

MAX_TIME = 600.0
MAX_KEPT_ENTRIES = 1_000_000  # a kept table larger than this starts afresh (memory)
SOLVE_FIRST_SECONDS = 0.25  # how long a capped search first tries to solve the position outright


class AgentError(OptionError):
    """A malformed or unsuitable agent spec; the message names the spec and the problem."""


# keys each agent accepts, with their parsers
def _whole(v: str, what: str) -> int:
    try:
        return int(v)
    except ValueError:
        raise ValueError(f"{what} must be a whole number, got {v!r}") from None


def _depth(v: str) -> int:
    d = _whole(v, "depth")
    if d < 0:
        raise ValueError(f"depth must be 0 (to the end) or more, got {d}")
    return d


def _seconds(v: str) -> float:
    t = float(v)
    if not 0 < t <= MAX_TIME:
        raise ValueError(f"time must be between 0 and {MAX_TIME:g} seconds, got {v}")
    return t


def _switch(v: str) -> bool:
    if v in ("on", "true", "yes", "1"):
        return True
    if v in ("off", "false", "no", "0"):
        return False
    raise ValueError(f"expected on or off, got {v!r}")


def _seed(v: str) -> int:
    return int(v)


def _strength(v: str) -> int:
    level = _whole(v, "strength")
    if level not in levels.LEVELS:
        raise ValueError(f"strength must be 1 (beginner) to 10 (the full engine), got {level}")
    return level


#: the switches of the techniques alpha-beta adds to the textbook (:class:`Techniques`)
_TECHNIQUES: dict[str, Callable] = {name: _switch for name in SWITCHES}


#: The textbook's four switches (CONTRACT): the ones the help's alpha-beta line names.
_TEXTBOOK_SWITCHES = tuple(name for name in SWITCHES if technique(name).noun)


def _in_words(items: list[str]) -> str:
    """``a, b and c``."""
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


#: Agents only the command line offers, name -> (spec -> Agent): ``play --agents file:PATH``
#: registers a student's file (engine.grade) while it plays; the server registers none, so no
#: student code runs there.
LOCAL_AGENTS: dict[str, Callable[[str], Agent]] = {}

#: For people choosing an agent (the lobby, ``--help``): spec -> what it does.
AGENT_HELP = {
    "human": "a person at the page",
    "random": "uniform over legal moves; seed=N makes it repeatable",
    "minimax:depth=D": "the textbook minimax: every legal move, no pruning (the reference); depth 0 = to the end",
    "alphabeta:depth=D,time=S," + ",".join(f"{name}=on|off" for name in _TEXTBOOK_SWITCHES) + ",eval=NAME":
        "alpha-beta with " + _in_words([technique(name).noun for name in _TEXTBOOK_SWITCHES])
        + " (all off: the textbook alpha-beta); time=S deepens within S seconds",
    **{f"alphabeta:{name}=on|off": technique(name).help for name in SWITCHES if technique(name).help},
    "alphabeta:strength=1..10,seed=N":
        "a level a person can beat: 1 beginner ... 9 expert look ahead less and make mistakes; "
        "10 is the full engine; equally good moves are chosen at random (seed=N repeats)",
    "expecti:depth=D": "expectiminimax: chance (hidden cards) averaged, players searched",
    "model:opponent=SPEC": "searches against a known opponent (random, rules) instead of a perfect one",
    "mcts:sims=N,time=S,c=C,solver=on|off,seed=N":
        "Monte Carlo tree search (UCT, random playouts; default 1000 simulations, c=1.414); solver=on proves "
        "wins and losses (MCTS-Solver); plays the most visited move",
    "rules": "Blacksin only: the seed's rule-based opponent; it reads the deck, even a hidden one "
             "(it sees the next cards)",
}


@dataclass
class Agent:
    """A player, as its spec made it (the protocol every kind answers). ``choose`` plays;
    ``distribution`` describes it as an opponent; ``describe`` names it for people.

    A kind is a subclass with its name in :data:`KINDS`, its settings in ``KEYS`` (key ->
    parser of the value's text) and ``configure`` storing one parsed setting."""

    spec: str
    name: str
    seed: int | None = None  # makes its random choices repeatable (random, alphabeta, mcts)
    time: float | None = None  # the seconds a move its spec gives (searchers), None: none
    _rng: _random.Random | None = field(default=None, init=False, repr=False, compare=False)

    KEYS: ClassVar[dict[str, Callable[[str], Any]]] = {}
    is_human: ClassVar[bool] = False
    searches: ClassVar[bool] = False  # its moves come from a search (the server's workers run them)

    def describe(self) -> str:
        """The player in the words the pages show (:func:`agent_words`)."""
        return agent_words(self.spec)

    def to_json(self) -> dict:
        return {"spec": self.spec, "name": self.name, "human": self.is_human}

    def configure(self, key: str, value: Any, game_cls: type[Game] | Game | None) -> Any:
        """Store the setting ``key`` (its value parsed by ``KEYS[key]``); return it as the
        canonical spec writes it."""
        setattr(self, key, value)
        return value

    def complete(self) -> None:
        """Raise AgentError if a setting the kind needs is missing (after every setting is read)."""

    def check_game(self, game_cls: type[Game] | Game) -> Agent:
        """Raise AgentError if this agent cannot play ``game_cls`` (a game class, or a
        configured game); else return it."""
        return self

    @property
    def rng(self) -> _random.Random:
        """Its random choices' generator, made at its first draw: a Mersenne Twister's state is
        2.5 kB, and most agents never draw (a human; every player of the server's games, whose
        searches run in worker processes).

        >>> agent = parse_agent("random:seed=7")
        >>> agent.rng.random() == _random.Random(7).random()
        True
        """
        if self._rng is None:
            self._rng = _random.Random(self.seed)
        return self._rng

    def reseed(self, seed: int | None) -> None:
        """Make a random agent repeatable (the arena seeds it from its run seed); its own
        ``seed`` setting wins. With neither, its next draw starts from fresh entropy."""
        chosen = self.seed if self.seed is not None else seed
        self._rng = None if chosen is None else _random.Random(chosen)

    @property
    def kept_entries(self) -> int:
        """The entries of the table it keeps between moves (0: it keeps none)."""
        return 0

    def distribution(self, game: Game, state: Any) -> list[tuple[Any, float]]:
        """This agent's moves with probabilities: the model of it used by ``model``."""
        raise AgentError(f"agent {self.spec!r} cannot be modelled: use random or a fixed agent like rules")

    def choose(self, game: Game, state: Any, *, cancel: Cancel | None = None,
               progress: Callable[[dict], None] | None = None, time_cap: float | None = None,
               trace_limit: int | None = None, budget: float | None = None) -> SearchResult:
        """Pick a move for the side to move. Returns a SearchResult (``best_move`` in notation).
        ``time_cap`` bounds the time (the server's limit); ``budget`` stops a search after so
        many seconds whatever its depth (the result is then not ``completed``)."""
        move = self._move(game, state)
        text = game.notation(state, move)
        return SearchResult(game.name, game.to_move_name(state), text, 0, None, [text], [],
                            Stats(), False, algorithm=self.name)

    def _move(self, game: Game, state: Any) -> Any:
        """A fixed agent's move (no search)."""
        raise NotImplementedError


class HumanAgent(Agent):
    """``human``: a person at the page; the server waits for their moves."""

    is_human = True

    def _move(self, game: Game, state: Any) -> Any:
        raise AgentError("a human seat does not choose by itself")


class RandomAgent(Agent):
    """``random``: uniform over the legal moves (``seed=`` repeats)."""

    KEYS = {"seed": _seed}

    def _move(self, game: Game, state: Any) -> Any:
        return self.rng.choice(game.moves(state))

    def distribution(self, game: Game, state: Any) -> list[tuple[Any, float]]:
        moves = game.moves(state)
        return [(m, 1.0 / len(moves)) for m in moves]


class PolicyAgent(Agent):
    """One of a game's own fixed players (``Game.policies``: Blacksin's ``rules``)."""

    def check_game(self, game_cls: type[Game] | Game) -> Agent:
        if self.name not in game_cls.policies:
            raise AgentError(f"agent {self.spec!r}: {game_cls.name} has no agent {self.name!r}")
        return self

    def _move(self, game: Game, state: Any) -> Any:
        return game.policy(self.name)(state)

    def distribution(self, game: Game, state: Any) -> list[tuple[Any, float]]:
        return [(game.policy(self.name)(state), 1.0)]


@dataclass
class TreeSearchAgent(Agent):
    """A game-tree search to ``depth`` plies (0: to the end) or deepening within ``time``, with
    the game's evaluation ``eval`` at its horizon. It keeps its table between moves."""

    depth: int = 0
    eval: str | None = None
    # The table outlives one move: the next search of the same game and seat starts from
    # what this one proved (a Blacksin game costs about half the nodes so).
    _table: TranspositionTable | None = field(default=None, repr=False)
    _table_owner: tuple | None = field(default=None, repr=False)
    _table_game: Game | None = field(default=None, repr=False)  # keeps id() of the owner unique

    KEYS = {"depth": _depth, "time": _seconds, "eval": str}
    searches = True

    @property
    def kept_entries(self) -> int:
        return len(self._table) if self._table is not None else 0

    def check_game(self, game_cls: type[Game] | Game) -> Agent:
        if self.eval is not None and self.eval not in game_cls.evaluators:
            known = ", ".join(sorted(game_cls.evaluators)) or "none"
            raise AgentError(f"agent {self.spec!r}: {game_cls.name} has no evaluation {self.eval!r} "
                             f"(evaluations: {known})")
        return self

    def search_techniques(self) -> Techniques:
        """The switches its search runs with."""
        return MINIMAX

    def search_options(self) -> dict:
        """The :func:`~engine.search.search_root` arguments this agent's search uses."""
        return {"techniques": self.search_techniques(), "depth": self.depth, "time_limit": self.time}

    def _table_for(self, game: Game, seat: int) -> TranspositionTable:
        """The table kept for ``game`` and ``seat``: a new one for another game or seat, or
        when the kept one has grown past MAX_KEPT_ENTRIES."""
        if (self._table is None or self._table_owner != (id(game), seat)
                or len(self._table) > MAX_KEPT_ENTRIES):
            self._table, self._table_owner, self._table_game = TranspositionTable(), (id(game), seat), game
        return self._table

    def solves_first(self) -> bool:
        """Whether a capped search first tries to solve the position (see :meth:`choose`)."""
        return False

    def choose(self, game: Game, state: Any, *, cancel: Cancel | None = None,
               progress: Callable[[dict], None] | None = None, time_cap: float | None = None,
               trace_limit: int | None = None, budget: float | None = None) -> SearchResult:
        """:meth:`Agent.choose`. A search with neither depth nor time deepens within
        ``time_cap``; one that :meth:`solves_first` first tries to solve the position outright
        for :data:`SOLVE_FIRST_SECONDS` (at most a quarter of the cap): a solve to the end
        stores proved entries that answer at any depth, so the kept table answers the game's
        later positions almost at once (Sim: ~40 nodes a move instead of ~3,800 deepening again
        every move). A position too big to solve so soon is then deepened within what is left
        of the cap, from what the attempt proved; the result's statistics count both searches.
        """
        if time_cap is None or budget is not None or trace_limit is not None or not self.solves_first():
            return self._search(game, state, cancel=cancel, progress=progress, time_cap=time_cap,
                                trace_limit=trace_limit, budget=budget)
        started = _time.monotonic()
        attempt = self._search(game, state, cancel=cancel, progress=progress,
                               budget=min(SOLVE_FIRST_SECONDS, time_cap / 4))
        if attempt.completed or (cancel is not None and cancel.is_set()):
            return attempt
        left = max(time_cap - (_time.monotonic() - started), 0.001)
        return counting_both(attempt, self._search(game, state, cancel=cancel, progress=progress, time_cap=left))

    def _search(self, game: Game, state: Any, *, cancel: Cancel | None = None,
                progress: Callable[[dict], None] | None = None, time_cap: float | None = None,
                trace_limit: int | None = None, budget: float | None = None) -> SearchResult:
        """One search, as the side to move sees the game: :meth:`choose` without the solving attempt."""
        seat = game.to_move(state)
        view_game, view_state = game.perspective(state, seat)
        result = search_root(
            view_game, view_state, techniques=self.search_techniques(), depth=self.depth,
            time_limit=self._time_limit(time_cap), budget=budget, cancel=cancel, progress=progress,
            trace_limit=trace_limit, model=self._model(view_game, seat), evaluate=view_game.evaluator(self.eval),
            table=None if trace_limit is not None else self._table_for(game, seat))
        result.algorithm = self.name
        return result

    def _time_limit(self, time_cap: float | None) -> float | None:
        """Its own time, capped by ``time_cap``."""
        if time_cap is None:
            return self.time
        return min(self.time, time_cap) if self.time else time_cap

    def _model(self, game: Game, seat: int) -> dict | None:
        """The known opponents' moves, seat -> (state -> moves with probabilities), or None."""
        return None


class MinimaxAgent(TreeSearchAgent):
    """``minimax``: the textbook minimax, every legal move of every node, no pruning."""


@dataclass
class AlphaBetaAgent(TreeSearchAgent):
    """``alphabeta``: alpha-beta with its :class:`Techniques` (all on: the full engine); below
    ``strength`` 10, a level a person can beat (:mod:`engine.strength`)."""

    techniques: Techniques = field(default_factory=Techniques)
    strength: int = levels.FULL

    KEYS = {**TreeSearchAgent.KEYS, **_TECHNIQUES, "strength": _strength, "seed": _seed}

    def configure(self, key: str, value: Any, game_cls: type[Game] | Game | None) -> Any:
        if key in SWITCHES:
            self.techniques = replace(self.techniques, **{key: value})
            return value
        return super().configure(key, value, game_cls)

    def search_techniques(self) -> Techniques:
        return self.techniques

    def solves_first(self) -> bool:
        """Alpha-beta with its table, at full strength, with neither depth nor time of its own."""
        return not self.depth and self.time is None and self.strength >= levels.FULL and self.techniques.tt

    def _search(self, game: Game, state: Any, *, cancel: Cancel | None = None,
                progress: Callable[[dict], None] | None = None, time_cap: float | None = None,
                trace_limit: int | None = None, budget: float | None = None) -> SearchResult:
        if self.strength >= levels.FULL or trace_limit is not None:
            return super()._search(game, state, cancel=cancel, progress=progress, time_cap=time_cap,
                                   trace_limit=trace_limit, budget=budget)
        view_game, view_state = game.perspective(state, game.to_move(state))
        return levels.play_at_level(view_game, view_state, self.strength, self.rng, cancel=cancel,
                                    time_limit=self._time_limit(time_cap))


class ExpectiAgent(AlphaBetaAgent):
    """``expecti``: expectiminimax, chance (hidden cards) averaged, players searched with
    alpha-beta's techniques."""

    KEYS = {**TreeSearchAgent.KEYS, **_TECHNIQUES}


@dataclass
class ModelAgent(AlphaBetaAgent):
    """``model``: searches against a known ``opponent`` (random, or a fixed agent like rules)
    instead of a perfect one: the opponent's nodes follow that agent's moves."""

    opponent: Agent | None = None

    KEYS = {**TreeSearchAgent.KEYS, **_TECHNIQUES, "opponent": str}

    def configure(self, key: str, value: Any, game_cls: type[Game] | Game | None) -> Any:
        if key != "opponent":
            return super().configure(key, value, game_cls)
        opponent = parse_agent(value, game_cls)
        if opponent.is_human or opponent.searches:
            raise AgentError(f"agent {self.spec!r}: the opponent must be random or a fixed agent like rules")
        self.opponent = opponent
        return opponent.spec

    def complete(self) -> None:
        if self.opponent is None:
            raise AgentError(f"agent {self.spec!r}: model needs opponent=SPEC, e.g. model:opponent=random")

    def check_game(self, game_cls: type[Game] | Game) -> Agent:
        """Also: given a configured game, the opponent must be an agent the searcher can
        predict in the game as it sees it (Blacksin's hidden deck hides what ``rules`` reads)."""
        super().check_game(game_cls)
        opponent = self.opponent
        assert opponent is not None  # complete() requires it
        opponent.check_game(game_cls)
        if not isinstance(game_cls, type) and opponent.name in game_cls.policies:
            # Ask the searcher's view of the start once: a policy that reads what the view
            # hides refuses there (OptionError naming why), and would at every move.
            start = game_cls.start()
            view, view_state = game_cls.perspective(start, game_cls.to_move(start))
            try:
                opponent.distribution(view, view_state)
            except OptionError as exc:
                raise AgentError(f"agent {self.spec!r}: {exc}") from None
        return self

    def _model(self, game: Game, seat: int) -> dict | None:
        opponent = self.opponent
        assert opponent is not None  # complete() requires it
        return {1 - seat: lambda s: opponent.distribution(game, s)}


@dataclass
class MCTSAgent(Agent):
    """``mcts``: Monte Carlo tree search (:mod:`engine.mcts`): ``sims`` simulations (0:
    mcts.DEFAULT_SIMS, or none when ``time`` is given) or ``time`` seconds, exploration
    constant ``c``, the MCTS-Solver's proofs with ``solver``."""

    sims: int = 0
    c: float = mcts.EXPLORATION
    solver: bool = False

    KEYS = {**mcts.SETTINGS, "time": _seconds, "solver": _switch, "seed": _seed}
    searches = True

    def choose(self, game: Game, state: Any, *, cancel: Cancel | None = None,
               progress: Callable[[dict], None] | None = None, time_cap: float | None = None,
               trace_limit: int | None = None, budget: float | None = None) -> SearchResult:
        """:meth:`Agent.choose`: its simulations, or its time, capped by ``time_cap`` and ``budget``."""
        view_game, view_state = game.perspective(state, game.to_move(state))
        limits = [t for t in (self.time, time_cap, budget) if t]
        sims = self.sims or (None if self.time else mcts.DEFAULT_SIMS)
        return mcts.search(view_game, view_state, sims=sims, time_limit=min(limits) if limits else None,
                           c=self.c, solver=self.solver, rng=self.rng, cancel=cancel, progress=progress,
                           trace_limit=trace_limit)


#: The kinds of agent, by the name a spec starts with (a game's own policies are PolicyAgent).
KINDS: dict[str, type[Agent]] = {
    "human": HumanAgent, "random": RandomAgent, "minimax": MinimaxAgent, "alphabeta": AlphaBetaAgent,
    "expecti": ExpectiAgent, "model": ModelAgent, "mcts": MCTSAgent,
}
#: settings whose parser's message is shown as it is (the others: "bad KEY 'VALUE'")
_TOLD = frozenset(("depth", "time", "strength", "solver", *SWITCHES, *mcts.SETTINGS))


def counting_both(attempt: SearchResult, result: SearchResult) -> SearchResult:
    """``result`` with the work of the unfinished ``attempt`` before it added to its counts
    (nodes, leaves, evaluations, cut-offs, table answers and time)."""
    first, stats = attempt.stats, result.stats
    return replace(result, stats=replace(
        stats, nodes=first.nodes + stats.nodes, leaves=first.leaves + stats.leaves, evals=first.evals + stats.evals,
        cutoffs=first.cutoffs + stats.cutoffs, tt_hits=first.tt_hits + stats.tt_hits,
        elapsed_ms=first.elapsed_ms + stats.elapsed_ms))


def parse_agent(spec: Any, game_cls: type[Game] | Game | None = None) -> Agent:
    """Parse ``NAME[:key=value,...]`` into its kind's agent; with ``game_cls`` (a game class
    or a configured game) also check the agent fits the game."""
    if not isinstance(spec, str) or not spec.strip():
        raise AgentError(f"an agent must be a spec string like 'alphabeta:depth=6', got {spec!r}")
    spec = spec.strip()
    name, _, rest = spec.partition(":")
    name = name.strip()
    if name in LOCAL_AGENTS:
        return LOCAL_AGENTS[name](spec)
    kind = KINDS.get(name) or (PolicyAgent if game_cls is None or name in game_cls.policies else None)
    if kind is None:
        known = set(KINDS) | (set(game_cls.policies) if game_cls else set())
        raise AgentError(f"unknown agent {name!r} (agents: {', '.join(sorted(known))})")
    agent = kind(spec=spec, name=name)
    given: dict[str, Any] = {}
    for part in rest.split(",") if rest.strip() else ():
        key, sep, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key:
            raise AgentError(f"agent {spec!r}: expected key=value, got {part!r}")
        if key not in kind.KEYS:
            raise AgentError(f"agent {spec!r}: unknown setting {key!r} (settings: {', '.join(kind.KEYS) or 'none'})")
        try:
            parsed = kind.KEYS[key](value)
        except ValueError as exc:
            raise AgentError(f"agent {spec!r}: {exc if key in _TOLD else f'bad {key} {value!r}'}") from None
        given[key] = agent.configure(key, parsed, game_cls)
    agent.complete()
    agent.spec = canonical_spec(name, given)
    agent.reseed(None)
    if game_cls is not None:
        agent.check_game(game_cls)
    return agent


def tree_search(spec: str, game_cls: type[Game] | Game | None = None) -> TreeSearchAgent:
    """:func:`parse_agent` where only a game-tree search will do (a rung, a tree to deepen)."""
    agent = parse_agent(spec, game_cls)
    if not isinstance(agent, TreeSearchAgent):
        raise AgentError(f"agent {agent.spec!r} searches no game tree: pick minimax, alphabeta, expecti or model")
    return agent


#: each search algorithm (and the seed's rule-based player) as a player reads it
ALGORITHM_WORDS = {"alphabeta": "alpha-beta", "minimax": "minimax", "expecti": "expectiminimax",
                   "random": "random moves", "rules": "rule-based", "mcts": "Monte Carlo tree search"}


@functools.lru_cache(maxsize=512)
def agent_words(spec: str) -> str:
    """A player, named by its spec, in the words the pages show (the one place that names them):
    the lobby's levels by name, any other agent by what it does.

    >>> agent_words("human")
    'Human'
    >>> agent_words("alphabeta:strength=5")
    'Computer (club)'
    >>> agent_words("alphabeta:time=2")   # the lobby's perfect level where a game is too big to solve
    'Computer (perfect)'
    >>> agent_words("minimax:depth=3")
    'Computer (minimax, depth 3)'
    >>> agent_words("alphabeta:depth=0,tt=off")
    'Computer (alpha-beta, to the end)'
    >>> agent_words("mcts:sims=500")
    'Computer (Monte Carlo tree search, 500 simulations)'
    >>> agent_words("model:opponent=random")
    'Computer (searching against random moves)'
    """
    if not spec or spec == "human":
        return "Human"
    return f"Computer ({_doing(spec)})"


def _doing(spec: str) -> str:
    """What a computer player does, in words: ``Computer (...)``'s inside."""
    name, _, rest = spec.partition(":")
    settings = dict(part.partition("=")[::2] for part in rest.split(",") if part)
    level = int(settings.get("strength", levels.FULL))
    tuned = [key for key in settings if key not in ("strength", "seed")
             and not (key == "time" and float(settings[key]) == levels.FULL_MOVE_TIME)]
    if name == "alphabeta" and (level < levels.FULL or not tuned):
        return levels.NAMES.get(level, f"level {level}")
    if name == "model" and "opponent" in settings:
        return f"searching against {_doing(settings['opponent'])}"
    words = [ALGORITHM_WORDS.get(name, name)]
    if "depth" in settings:
        words.append("to the end" if settings["depth"] == "0" else f"depth {settings['depth']}")
    if "time" in settings:
        words.append(f"{settings['time']} s a move")
    if "sims" in settings:
        words.append(f"{settings['sims']} simulations")
    return ", ".join(words)


def canonical_spec(name: str, settings: dict[str, Any]) -> str:
    """The one spelling of an agent (what games store and show): each setting once, in the
    order first given, values in a fixed form.

    >>> parse_agent(" alphabeta: depth = 6, tt=no, time=0.50, depth=4 ").spec
    'alphabeta:depth=4,tt=off,time=0.5'
    """
    def text(value: object) -> str:
        if isinstance(value, bool):
            return "on" if value else "off"
        if isinstance(value, float):
            return f"{value:g}" if float(f"{value:g}") == value else repr(value)
        return str(value)

    return name + (":" + ",".join(f"{k}={text(v)}" for k, v in settings.items()) if settings else "")


@dataclass(frozen=True)
class Rung:
    """One step of the ladder from the textbook minimax to the full engine."""

    key: str
    label: str  # what the step adds, for a menu
    short: str  # for a chart's axis
    adds: str  # the technique, in a sentence
    spec: str  # the agent that searches so

    @property
    def techniques(self) -> Techniques:
        """The switches this rung's search runs with."""
        return tree_search(self.spec).search_techniques()

    def agent_spec(self, depth: int = 0, eval_name: str | None = None) -> str:
        """This rung's agent at ``depth`` (with a heuristic): ``alphabeta:tt=off,...,depth=3``."""
        name, _, rest = self.spec.partition(":")
        settings = [s for s in (rest, f"depth={depth}", f"eval={eval_name}" if eval_name else "") if s]
        return f"{name}:{','.join(settings)}"


def _alphabeta_spec(on: set[str]) -> str:
    """The spec of the alpha-beta with the switches ``on`` on and the others off, as the ladder
    writes it: while one of the textbook's four switches is off, all four are written (the
    spec reads as the textbook alpha-beta's and what it adds); then each other switch that is
    off, unless all it needs is off too (it could not act: the textbook spec stays as
    CONTRACT writes it)."""
    textbook = any(name not in on for name in _TEXTBOOK_SWITCHES)
    settings = [f"{name}={'on' if name in on else 'off'}" for name in SWITCHES
                if (name in _TEXTBOOK_SWITCHES and textbook)
                or (name not in _TEXTBOOK_SWITCHES and name not in on
                    and not all(need not in on for need in technique(name).needs))]
    return "alphabeta" + (":" + ",".join(settings) if settings else "")


def _ladder() -> tuple[Rung, ...]:
    """Minimax, the textbook alpha-beta, then one rung per technique (:class:`Techniques`, in
    the order of their ``step``): each adds its technique to the rung before it."""
    rungs = [Rung("minimax", "Minimax", "minimax", "the textbook: every legal move of every node, no pruning",
                  "minimax"),
             Rung("alphabeta", "Alpha-beta", "α-β",
                  "cut-offs: a node stops once it is proved no better than an alternative above it "
                  "(the textbook's ALPHA-BETA-SEARCH, moves in the game's order)", _alphabeta_spec(set()))]
    on: set[str] = set()
    for t in ladder_order():
        on.add(t.name)
        rungs.append(Rung(t.rung, t.label, t.short, t.adds, _alphabeta_spec(on)))
    return tuple(rungs)


#: The one ladder (the bench, the tree page, Compare): each rung adds one technique to the
#: rung before it, and the last is the full engine (``alphabeta``'s defaults).
LADDER = _ladder()


def rung(key: str) -> Rung:
    """The ladder's rung called ``key``."""
    for r in LADDER:
        if r.key == key:
            return r
    raise AgentError(f"unknown algorithm {key!r} (algorithms: {', '.join(r.key for r in LADDER)})")


__all__ = ["AGENT_HELP", "KINDS", "LADDER", "SWITCHES", "Agent", "AgentError", "AlphaBetaAgent", "ExpectiAgent",
           "HumanAgent", "MCTSAgent", "MinimaxAgent", "ModelAgent", "PolicyAgent", "RandomAgent", "Rung",
           "TreeSearchAgent", "canonical_spec", "parse_agent", "rung", "tree_search"]
