"""The shape issue 42 asked for, read off the source with ``ast`` (so it stays that way): one
class per kind of agent (no dispatch on ``self.name``), MCTS apart from the agents, the
textbooks imported only by the tests, the grader and the teaching views, no import loop hidden
behind ``TYPE_CHECKING``, one sender of the Socket.IO ``error`` event, and the engine blind to
the server."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "webapp")
TEXTBOOKS = {"engine.textbook", "engine.textbook_mcts"}
#: the modules under engine/ that may import a textbook: the textbooks, and the grader, which
#: holds a student's search to the textbook (its MCTS part replays the textbook's tree)
TEXTBOOK_READERS = TEXTBOOKS | {"engine.grade", "engine.grade_mcts"}


@cache
def modules() -> dict[str, ast.Module]:
    """Every module of the engine and the server, by dotted name, parsed."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = ast.parse(path.read_text(), str(path))
    return found


def is_package(name: str) -> bool:
    return (ROOT / name.replace(".", "/") / "__init__.py").exists()


def type_checking_blocks(tree: ast.Module) -> set[int]:
    """The ids of the statements inside ``if TYPE_CHECKING:`` blocks."""
    inside = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            inside.update(id(child) for statement in node.body for child in ast.walk(statement))
    return inside


def imports(name: str) -> list[tuple[str, list[str], bool]]:
    """What module ``name`` imports: (module, names taken from it, under TYPE_CHECKING?), with
    relative imports resolved; a name that is a module of a package counts as that module."""
    tree = modules()[name]
    hidden = type_checking_blocks(tree)
    base = name if is_package(name) else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, [], id(node) in hidden) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            package = base
            for _ in range(node.level - 1):
                package = package.rpartition(".")[0]
            target = ".".join(p for p in (package if node.level else "", node.module or "") if p)
            names = [alias.name for alias in node.names]
            submodules = [n for n in names if f"{target}.{n}" in modules()]
            if len(submodules) < len(names):  # (``from . import clients`` imports webapp.clients only)
                found.append((target, names, id(node) in hidden))
            found += [(f"{target}.{n}", [], id(node) in hidden) for n in submodules]
    return found


def test_no_agent_kind_is_told_apart_by_its_name():
    """Each kind of player is its own class: no ``self.name == ...`` picks a behaviour."""
    dispatch = [f"{name}:{node.lineno}" for name, tree in modules().items() if name.startswith("engine")
                for node in ast.walk(tree) if isinstance(node, ast.Compare)
                and ast.unparse(node.left) == "self.name" and any(isinstance(op, ast.Eq | ast.NotEq) for op in node.ops)]
    assert dispatch == []


def test_mcts_imports_no_agent():
    """``engine.mcts`` is a search the MCTS agent calls, not the other way round."""
    taken = [(module, names) for module, names, _ in imports("engine.mcts")
             if module == "engine.agents" or "Agent" in names]
    assert taken == []


def test_only_the_tests_the_grader_and_the_teaching_views_import_a_textbook():
    readers = {name for name in modules() if name.startswith("engine")
               for module, _, _ in imports(name) if module in TEXTBOOKS}
    assert readers <= TEXTBOOK_READERS, readers - TEXTBOOK_READERS


def test_no_type_checking_import_closes_a_loop():
    """An import under ``TYPE_CHECKING`` is for annotations only: the module it names must not
    import (at any depth, at run time) the module importing it, or the two are one loop."""
    runtime = {name: {module for module, _, hidden in imports(name) if not hidden and module in modules()}
               for name in modules()}

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            here = todo.pop()
            if here == goal:
                return True
            if here not in seen:
                seen.add(here)
                todo += runtime.get(here, ())
        return False

    loops = [(name, module) for name in modules() for module, _, hidden in imports(name)
             if hidden and module in modules() and reaches(module, name)]
    assert loops == []


def test_the_socket_error_event_has_one_sender():
    """``emit("error", ...)`` is written once, in ``webapp.errors.socket_error``."""
    senders = [f"{name}:{node.lineno}" for name, tree in modules().items() if name.startswith("webapp")
               for node in ast.walk(tree) if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("emit")
               and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == "error"]
    assert len(senders) == 1 and senders[0].startswith("webapp.errors:"), senders


def test_the_engine_never_imports_the_server():
    reached = {(name, module) for name in modules() if name.startswith("engine")
               for module, _, _ in imports(name) if module.split(".")[0] == "webapp"}
    assert reached == set()
