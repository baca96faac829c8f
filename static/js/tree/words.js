/* The tree page's words: what each node is, its value (a bound said as a bound), why it was
 * cut, and the narration of each step of the search, read from the trace alone.
 *
 * makeWords(view) closes over the page's current search: ``view.trace`` (the root node with
 * the totals), ``view.pv`` (the ids on the principal variation), ``view.sides`` and
 * ``view.truthOn`` (whether true minimax values are shown in the tooltips). */
import { Teach as T } from "../teach-common.js";

const { el } = T;

export function makeWords(view) {
  /** What a cut is, short (on the node) and in words (tooltip, legend). */
  const CUTS = {
    beta: { short: "β cut", words: "β cut-off: the value reached β, so MIN higher up will never let play come here; the other moves were not searched" },
    alpha: { short: "α cut", words: "α cut-off: the value fell to α, so MAX higher up will never let play come here; the other moves were not searched" },
    mate: { short: "mate", words: "mate-distance cut: no result here could beat a win already found higher up (no win comes sooner than the next ply, or than the game's rules allow), so the node was not searched" },
    futility: { short: "futility", words: "futility cut: one or two plies above the depth limit, the game proved from its moves, without trying them, that none can reach the window (two plies above it: each has a reply that keeps it out), or that one passes it; so no move was searched, and the value is that bound" },
    table: { short: "table", words: "answered by the transposition table: this position was searched before, so nothing below it is searched again" },
    solved: { short: "solved", words: "solved by the game's endgame rule: the game works out this position's exact value without trying the moves, so no move was searched" },
  };

  /** The window a node was searched with. */
  function windowOf(n) {
    return T.windowText(n.alpha, n.beta);
  }

  /** A node's value as what it is: exact "W3", or a bound "≥ W3" / "≤ L2". */
  function valueText(n) {
    const v = T.value(n.value);
    return n.bound === "lower" ? `≥ ${v}` : n.bound === "upper" ? `≤ ${v}` : v;
  }

  /** A node's value read aloud: "W3", or a bound as one, "at least W3" / "at most L2". */
  function valueWords(n) {
    const v = T.value(n.value);
    return n.bound === "lower" ? `at least ${v}` : n.bound === "upper" ? `at most ${v}` : v;
  }

  function boundWords(n) {
    if (n.bound === "lower") return `at least ${T.value(n.value)} (a lower bound: the search proved no more)`;
    if (n.bound === "upper") return `at most ${T.value(n.value)} (an upper bound: the search proved no more)`;
    return `${T.value(n.value)} (exact)`;
  }

  function tooltip(n) {
    const lines = [`node ${n.id}${n.move ? ` after ${pathOf(n).join(" ")}` : " (root)"}`,
      `${kindName(n)}`, `window on entry ${windowOf(n)}`, `value ${boundWords(n)}`];
    if (n.pass) lines.push(`pass ${n.pass} of ${view.trace.passes.length} over the root's moves: ${passQuestion(n.pass)}`);
    if (n.cut) lines.push(`✂ ${CUTS[n.cut].words}`);
    if (n.pruned) lines.push(`${n.pruned} move(s) pruned`);
    if (n.left_out) lines.push(`${n.left_out} move(s) left out by the game's endgame rule: no better than a move searched`);
    if (n.cutoff) lines.push(`cut-off here: ${n._parent.pruned} sibling(s) pruned`);
    if (n.omitted) lines.push(`${n.omitted} child node(s) searched but not drawn`);
    if (view.truthOn && n._true !== undefined) {
      lines.push(n._true === null ? "true minimax value: not in the minimax tree"
        : `true minimax value: ${T.value(n._true)} (textbook minimax, searched separately)`);
    }
    return lines.join("\n");
  }

  function kindName(n) {
    return {
      max: `MAX node (${T.cap(view.sides[0])} to move)`, min: `MIN node (${T.cap(view.sides[1])} to move)`,
      chance: "chance node (average of its children)", leaf: "leaf (depth limit: evaluation)", terminal: "game over",
    }[n.kind] || n.kind;
  }

  function pathOf(n) {
    const out = [];
    for (let k = n; k && k.move != null; k = k._parent) out.unshift(k.move);
    return out;
  }

  function who(n) {
    const where = n.move == null ? "the root" : `after ${pathOf(n).join(" ")}`;
    return { where, kind: n.kind === "max" ? "MAX" : n.kind === "min" ? "MIN" : n.kind };
  }

  const b = (t) => el("b", { text: t });
  const cutNote = (t) => el("span", { class: "cut-note", text: t });

  function enterLines(n, where) {
    const win = () => b(windowOf(n));
    if (n.id === 0 && n.passes) return rootPassesLines(n);
    if (n.id === 0) return [["The search starts at ", b("the root"), `: ${kindName(n)}, window `, win(), "."]];
    if (n.pass) return passEnterLines(n, where, win);
    if (n.entered === false) return [["The table is looked up for the position ", b(where), " before entering it. Window ", win(), "."]];
    if (n.kind === "leaf") return [["Leaf ", b(where), ": the depth limit is reached, so the position is evaluated. Window ", win(), "."]];
    if (n.kind === "terminal") return [["The game is over ", b(where), ". Window ", win(), "."]];
    const lines = [["Enter the position ", b(where), `: ${kindName(n)}, window `, win(), "."]];
    if (T.num(n.alpha) > -Infinity || T.num(n.beta) < Infinity) {
      lines.push([el("span", { class: "muted", text: "Only values inside the window can change a decision above." })]);
    }
    return lines;
  }

  /** What happened when the search left node n: only what the trace says happened. */
  function exitLines(n, where) {
    const val = () => b(valueWords(n)); // a new element each time: a DOM node lives in one place
    const lines = [];
    if (n.cut === "table") {
      const what = n.bound === "lower" ? "at least" : n.bound === "upper" ? "at most" : "exactly";
      lines.push(["The transposition table answers ", b(where), `: ${what} `, b(T.value(n.value)),
        ". Nothing below it is searched. ", cutNote("✂ table")]);
    } else if (n.kind === "leaf") {
      lines.push(["Evaluation ", b(where), ": ", val(), "."]);
    } else if (n.kind === "terminal") {
      lines.push(["Game over ", b(where), ": value ", val(), proved(n.value), "."]);
    } else if (n.id === 0) {
      lines.push(rootLine(n, val));
    } else if (n.cut === "mate") {
      lines.push(mateLine(n, where));
    } else if (n.cut === "futility") {
      // a bound on the mover's side of the window: one of its moves passes it; on the other side: none reaches it
      const passes = (n.kind === "max") === (n.bound === "lower");
      const two = n.plies_left === 2; // the moves and the replies to them: the game's bound covers both
      lines.push([two ? "Two plies" : "One ply", " above the depth limit, the game proves from the moves ", b(where),
        ", without trying them, that ", passes ? "one of them passes the window" : "none of them can reach the window",
        two && !passes ? ", as each has a reply that keeps it out" : "", ": ",
        n.bound === "lower" ? "at least " : "at most ", b(T.value(n.value)), ". No move is searched. ", cutNote("✂ futility")]);
    } else if (n.cut === "solved") {
      lines.push(["The game's endgame rule solves ", b(where), " without trying a move: exactly ", val(), proved(n.value),
        ". ", cutNote("✂ endgame rule")]);
    } else {
      lines.push(nodeLine(n, where, val));
    }
    if (n.left_out) {
      lines.push(["Before searching this node, the game's endgame rule left out ", b(`${n.left_out} of its moves`),
        ": each is proved no better for the side to move than a move that is searched. ", cutNote("✂ endgame rule")]);
    }
    if (n.pass) lines.push(...passExitLines(n));
    if (n.cutoff && n._parent && !n.pass) {
      const parent = n._parent;
      const k = parent.pruned || 0;
      if (parent.kind === "max") {
        lines.push([cutNote("✂ β cut-off: "), "this move is worth ", val(), " to MAX, already as much as the ", b(T.value(n.beta)),
          ` that MIN can hold MAX to by a move higher up (beta), so MIN will never let play reach here: the other ${k} move(s) of this MAX node are not searched.`]);
      } else {
        lines.push([cutNote("✂ α cut-off: "), "this move is worth ", val(), " to MAX, no better than the ", b(T.value(n.alpha)),
          ` already guaranteed to MAX by a move higher up (alpha), so MAX will never let play reach here: the other ${k} move(s) of this MIN node are not searched.`]);
      }
    }
    return lines;
  }

  // ----- a root searched in passes (MTD(f)): its moves searched again in each window ---------
  /** What pass k asks: a null window asks one question, the last pass wants the values. */
  function passQuestion(k) {
    const p = view.trace.passes[k - 1];
    if (k === view.trace.passes.length) return `the last pass, in the window ${T.windowText(p.alpha, p.beta)} just around the value the passes before found, for each root move's value or bound`;
    return `a window one step wide, ${T.windowText(p.alpha, p.beta)}: is the root's value at least ${T.value(p.beta)}?`;
  }

  /** What pass k found: yes (at least), no (at most), or, the last pass, the value. */
  function passAnswer(k) {
    const p = view.trace.passes[k - 1];
    const v = T.value(p.value);
    if (k === view.trace.passes.length) return ["the root's value is exactly ", b(v), "."];
    return T.num(p.value) >= T.num(p.beta) ? ["yes: the root's value is at least ", b(v), "."]
      : ["no: the root's value is at most ", b(v), "."];
  }

  function rootPassesLines(n) {
    const k = n.passes.length;
    return [["The search starts at ", b("the root"), `: ${kindName(n)}. The search goes through the root's moves in `, b(`${k} passes`),
      " (MTD(f)): each pass but the last gives them a window one step wide, which can only answer yes or no to one question, \"is the root's value at least b?\", but cuts far sooner than an open window; the table keeps what each pass proved for the next. The answers move b until only one value is left; the last pass searches the window just around it, for each root move's value or bound. ",
      cutNote("null-window passes")],
    ...n.passes.map((p, i) => [`Pass ${i + 1}: window `, b(T.windowText(p.alpha, p.beta)), `, ${T.fmt(p.nodes)} nodes: `, ...passAnswer(i + 1)])];
  }

  function passEnterLines(n, where, win) {
    const k = n.pass, last = k === view.trace.passes.length;
    const first = n._parent.children.find((c) => c.pass === k) === n;
    const head = first ? (last ? [`The last pass (${k} of ${view.trace.passes.length}) begins. `]
      : [`Pass ${k} of ${view.trace.passes.length} begins: `, b(passQuestion(k)), " "]) : [];
    return [[...head, "Root move ", b(where), ` (pass ${k}): window `, win(), "."]];
  }

  /** After a root move of a pass: whether it answered the pass's question (and cut the pass
   * short), and, after the pass's last move drawn, the pass's answer. */
  function passExitLines(n) {
    const k = n.pass, p = view.trace.passes[k - 1];
    const lines = [];
    if (n.cutoff) {
      lines.push([cutNote(`✂ ${n._parent.kind === "min" ? "α" : "β"} cut-off of the pass: `), "this move alone settles pass ", b(String(k)),
        `'s question, so the other ${p.unsearched} root move(s) are not searched in this pass.`]);
    }
    const kids = n._parent.children;
    const next = kids[kids.indexOf(n) + 1];
    if (!next || next.pass !== k) lines.push([`Pass ${k} answers: `, ...passAnswer(k)]);
    return lines;
  }

  function rootLine(n, val) {
    const r = view.trace.result || {};
    const line = r.pv || [];
    const drawn = Math.min(view.pv.size - 1, line.length); // the moves highlighted: the line followed through the drawn tree
    const shown = !line.length ? "" : drawn >= line.length ? " (highlighted)"
      : drawn > 0 ? ` (its first ${drawn} move(s) are highlighted; the rest is not in the drawn tree)`
        : " (not in the drawn tree)";
    return ["Done: the root's value is ", val(), proved(n.value), ". Best move ", b(r.best_move ?? "–"),
      "; principal variation ", b(line.join(" ") || "–"), `${shown}.`];
  }

  function mateLine(n, where) {
    // n.soonest: the game's own bound, the fewest plies from here to that side's win (else the next ply)
    const ply = n.depth + (n.soonest || 1);
    const rule = n.soonest ? `, as the game's rules allow it no win sooner than ${n.soonest} plies from here:` : ",";
    if (n.bound === "upper") {
      return ["Not searched ", b(where), ": from here MAX could at best win ", b(`${ply} plies`), " from the root (",
        b(T.value(T.WIN - ply)), ")", rule, " no better than the ", b(T.value(n.alpha)), " MAX already has (alpha). So the value is ", b(`at most ${T.value(n.value)}`),
        ". ", cutNote("✂ mate distance")];
    }
    return ["Not searched ", b(where), ": from here MIN could at best win ", b(`${ply} plies`), " from the root (",
      b(T.value(ply - T.WIN)), ")", rule, " no better than the ", b(T.value(n.beta)), " MIN already has (beta). So the value is ", b(`at least ${T.value(n.value)}`),
      ". ", cutNote("✂ mate distance")];
  }

  function nodeLine(n, where, val) {
    const name = n.kind === "max" ? "MAX" : n.kind === "min" ? "MIN" : "chance";
    const searched = n.children.length + (n.omitted || 0);
    const head = [`The ${name} node `, b(where)];
    if (n.kind === "chance") {
      return [...head, " returns ", val(), searched > 1 ? ": the average of its outcomes, each weighted by its probability." : "."];
    }
    if (!n.children.length) return [...head, " returns ", val(), "."];
    const k = n.pruned || 0;
    const skipped = k ? `, so the other ${k} move(s) need not be searched` : "";
    if (n.bound === "lower") {
      const why = n.kind === "max" ? `${skipped}${n.pass ? "." : ": MIN, higher up, will not let play come here."}`
        : n.pass ? "." : ": MIN, higher up, has something at least as good elsewhere.";
      return [...head, " fails high: at least ", b(T.value(n.value)), ", which reaches ", b(T.value(n.beta)), ", what MIN is already sure of (beta)", why,
        ...(k ? [" ", cutNote("✂ β cut-off")] : [])];
    }
    if (n.bound === "upper") {
      const why = n.kind === "min" ? `${skipped}${n.pass ? "." : ": MAX, higher up, will not let play come here."}`
        : n.pass ? "." : ": MAX, higher up, has something at least as good elsewhere.";
      return [...head, " fails low: at most ", b(T.value(n.value)), ", which is no more than ", b(T.value(n.alpha)), ", what MAX is already sure of (alpha)", why,
        ...(k ? [" ", cutNote("✂ α cut-off")] : [])];
    }
    return [...head, " returns ", val(),
      n.kind === "max" ? ": the largest value of its children." : ": the smallest value of its children."];
  }

  function proved(v) {
    if (!T.isMate(v)) return "";
    const x = T.num(v);
    const plies = Math.round(T.WIN - Math.abs(x));
    return ` (${T.cap(view.sides[x > 0 ? 0 : 1])} wins, ${plies} ${plies === 1 ? "ply" : "plies"} from the root)`;
  }

  return { CUTS, windowOf, valueText, valueWords, boundWords, tooltip, kindName, pathOf, who, enterLines, exitLines, passQuestion };
}
