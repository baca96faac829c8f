/* The search-tree page: asks the server for the trace of one search of a real position
 * (GET /api/games/<id>/trace) and plays it back in expansion order: each node appears when the
 * search enters it (with its window), gets its value when the search leaves it, cut-offs and
 * pruned siblings show as they happen, and the principal variation lights up at the end.
 *
 * Hooks: the tree is [data-testid=search-tree]; every drawn node carries data-node (its id in
 * the trace), a pruned stub also data-pruned (how many siblings were never searched). */
"use strict";
import { ArcadeViews } from "./views.js";
import { Teach } from "./teach-common.js";
(function () {
  const T = Teach;
  const { el, svg } = T;
  const data = JSON.parse(document.getElementById("teach-data").textContent);
  const root = document.querySelector(".tree-root");
  const gameId = root.dataset.gameId;
  const gameName = root.dataset.game;
  const sides = data.game.sides;
  const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
  const params = new URLSearchParams(location.search);
  const form = $("tree-controls");
  const treeBox = $("search-tree");

  // Node geometry (SVG units) and the two layouts.
  const W = 116, H = 62, PAD = 30;
  const GEOM = {
    down: { gx: 20, gy: 70 },
    side: { gx: 96, gy: 16 },
  };

  let trace = null;      // the JSON the server sent (the root node plus totals)
  let traceText = "";    // ... as text, for the download
  let byId = [];         // recorded nodes by id
  let events = [];       // [{type: "enter" | "exit", node}] in the search's order
  let step = 0;          // events applied so far
  let timer = null;
  let pv = new Set();    // ids on the principal variation
  let geo = null;        // layout: {mode, pos: Map(key -> {x, y}), width, height}
  let parts = new Map(); // key -> {node: <g>, edge: <g>}
  let layers = null;     // {edges, nodes}
  let current = null;

  // ----- controls ------------------------------------------------------------------------
  const controls = {
    ply: form.elements.ply, algo: form.elements.algo, depth: form.elements.depth,
    eval: form.elements.eval, nodes: form.elements.nodes, theory: form.elements.theory, truth: form.elements.truth,
  };
  if (params.has("algo")) controls.algo.value = params.get("algo");
  if (params.has("depth")) controls.depth.value = params.get("depth");
  if (params.has("eval")) controls.eval.value = params.get("eval");
  if (params.has("nodes")) ensureOption(controls.nodes, params.get("nodes"));
  controls.theory.checked = params.get("theory") === "1";
  controls.truth.checked = params.get("truth") === "1";

  function ensureOption(select, value) {
    if (![...select.options].some((o) => o.value === value)) select.append(el("option", { value, text: `${value} nodes` }));
    select.value = value;
  }

  function specFor(algoKey, depth, evalName) {
    const algo = data.teach.algorithms.find((a) => a.key === algoKey) || data.teach.algorithms[0];
    const [name, rest] = algo.spec.split(":");
    const settings = [rest, `depth=${depth}`, evalName ? `eval=${evalName}` : null].filter(Boolean);
    return `${name}:${settings.join(",")}`;
  }

  async function loadPositions() {
    const s = await T.getJSON(`/api/games/${gameId}`);
    const opts = [el("option", { value: "0", text: "Start position" })];
    s.history.forEach((h, i) => {
      const now = i + 1 === s.history.length ? " (now)" : "";
      opts.push(el("option", { value: String(i + 1), text: `After ply ${i + 1}: ${T.cap(sides[h.seat])} ${h.move}${now}` }));
    });
    controls.ply.replaceChildren(...opts);
    const wanted = params.get("ply");
    // a finished game's last position has nothing to search: default to the one before it
    const last = s.status === "over" ? Math.max(0, s.history.length - 1) : s.history.length;
    controls.ply.value = wanted != null && Number(wanted) <= s.history.length ? wanted : String(last);
  }

  form.addEventListener("submit", (e) => { e.preventDefault(); search(); });
  // a new position, algorithm, depth or size searches at once
  for (const name of ["ply", "algo", "depth", "eval", "nodes"]) controls[name].addEventListener("change", () => search());
  controls.theory.addEventListener("change", () => { syncUrl(); showTheory(); });
  controls.truth.addEventListener("change", () => { syncUrl(); loadTruth(); });

  function syncUrl() {
    const q = new URLSearchParams({ ply: controls.ply.value, algo: controls.algo.value, depth: controls.depth.value,
      nodes: controls.nodes.value });
    if (controls.eval.value) q.set("eval", controls.eval.value);
    if (controls.theory.checked) q.set("theory", "1");
    if (controls.truth.checked) q.set("truth", "1");
    history.replaceState(null, "", `?${q}`);
  }

  // ----- searching ---------------------------------------------------------------------------
  let searchRun = 0;
  let searched = null; // the depth and evaluation of the search drawn
  async function search() {
    const run = ++searchRun; // only the newest search's answer is drawn
    pause();
    const depth = Math.max(0, Math.min(data.teach.max_depth, parseInt(controls.depth.value || "0", 10) || 0));
    controls.depth.value = String(depth);
    const spec = specFor(controls.algo.value, depth, controls.eval.value);
    searched = { depth, eval: controls.eval.value || null };
    const ply = controls.ply.value;
    const url = `/api/games/${gameId}/trace?agent=${encodeURIComponent(spec)}&ply=${ply}&max_nodes=${controls.nodes.value}`;
    syncUrl();
    $("tree-error").hidden = true;
    $("tree-summary").textContent = `Searching with ${algoLabel()}, ${depthWords(depth)}…`;
    $("tree-search").disabled = true;
    showBoard(ply, null);
    showTheory();
    try {
      // the deepest search that finishes within a moment is drawn at once; a longer one deepens on
      let body = await deepest(spec, ply, 1, null);
      if (run !== searchRun) return;
      if (body.deepening.reached == null) throw new Error(`not even depth 1 finished within ${body.deepening.budget} s`);
      draw_(body, url, ply);
      while (!body.deepening.finished) {
        const reached = body.deepening.reached;
        deepeningNote(`Drawn: depth ${reached}, the deepest search that finished within ${body.deepening.budget} s ` +
          `(asked: ${depthWords(depth)}). Searching depth ${reached + 1}…`);
        const next = await deepest(spec, ply, reached + 1, data.teach.deepen_seconds);
        if (run !== searchRun) return;
        if (next.deepening.reached == null) {
          deepeningNote(`Drawn: depth ${reached}. Depth ${reached + 1} did not finish within ${next.deepening.budget} s ` +
            `(asked: ${depthWords(depth)}): this is the deepest tree in the time.`);
          break;
        }
        body = next;
        if (!timer) draw_(body, url, ply);  // (not while the tree is being played back)
        else break;
      }
      if (body.deepening.finished) deepeningNote(null);
    } catch (err) {
      if (run !== searchRun) return;
      clearTree();
      $("tree-summary").textContent = "No tree.";
      const box = $("tree-error");
      box.textContent = `The search failed: ${err.message}`;
      box.hidden = false;
    } finally {
      if (run === searchRun) $("tree-search").disabled = false;
    }
  }

  /** One request for the deepest finished search from depth `from` (an error thrown as such). */
  async function deepest(spec, ply, from, seconds) {
    const q = new URLSearchParams({ agent: spec, ply, max_nodes: controls.nodes.value, from: String(from) });
    if (seconds) q.set("seconds", String(seconds));
    const res = await fetch(`/api/games/${gameId}/trace/deepest?${q}`);
    const body = await res.json().catch(() => null);
    if (!res.ok) throw new Error((body && body.error) || `${res.status} ${res.statusText}`);
    return body;
  }

  function draw_(body, url, ply) {
    // (the JSON link: the trace of the search drawn, as the plain trace API gives it)
    build(body, JSON.stringify(body), url.replace(/agent=[^&]*/, `agent=${encodeURIComponent(body.agent)}`));
    showBoard(ply, body.result && body.result.best_move);
  }

  function deepeningNote(text) {
    const box = $("tree-deepening");
    box.hidden = !text;
    box.textContent = text || "";
  }

  function algoLabel() {
    const algo = data.teach.algorithms.find((a) => a.key === controls.algo.value) || data.teach.algorithms[0];
    return algo.label;
  }
  function depthWords(d) { return d ? `depth ${d}` : "to the end of the game"; }

  function clearTree() {
    pause();
    trace = null; byId = []; events = []; step = 0; parts = new Map(); pv = new Set(); current = null;
    treeBox.replaceChildren();
    $("tree-step-count").textContent = "–";
    $("tree-download").hidden = true;
    $("tree-json-url").hidden = true;
    $("tree-narration").textContent = "–";
  }

  function build(json, text, url) {
    clearTree();
    trace = json;
    traceText = text;
    const walk = (n, parent, depth) => {
      n._parent = parent;
      n._depth = depth;
      byId[n.id] = n;
      events.push({ type: "enter", node: n });
      n.children.forEach((c) => walk(c, n, depth + 1));
      events.push({ type: "exit", node: n });
    };
    walk(json, null, 0);
    // the principal variation: the result's line, followed through the drawn tree
    let n = json;
    pv.add(n.id);
    for (const move of (json.result && json.result.pv) || []) {
      // the last child with the move: a root searched in passes has it once a pass, the last pass's last
      const c = n.children.findLast((k) => k.move === move);
      if (!c) break;
      pv.add(c.id);
      n = c;
    }
    draw();
    summary();
    const name = `trace-${json.game}-${gameId}-ply${json.ply}-${json.agent.replace(/[^\w=.-]+/g, "_")}.json`;
    const dl = $("tree-download");
    if (dl.href && dl.href.startsWith("blob:")) URL.revokeObjectURL(dl.href);
    dl.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    dl.download = name;
    dl.hidden = false;
    const api = $("tree-json-url");
    api.href = url;
    api.hidden = false;
    goTo(1);
    if (truth.on) loadTruth();
  }

  function summary() {
    const t = trace, r = t.result || {}, s = r.stats || {};
    const drawnNodes = byId.filter(Boolean);
    const entered = drawnNodes.filter((n) => n.entered !== false).length; // nodes the search entered
    const answers = drawnNodes.length - entered; // children the table answered before entering them
    const rest = t.nodes - entered;
    const mates = drawnNodes.filter((n) => n.cut === "mate").length;
    const futile = drawnNodes.filter((n) => n.cut === "futility").length;
    const bits = [
      `value ${valueText(t)}`,
      `best move ${r.best_move ?? "–"}`,
      `${T.fmt(s.cutoffs)} alpha-beta cut-offs`,
      ...(mates ? [`${T.fmt(mates)} mate-distance cuts drawn`] : []),
      ...(futile ? [`${T.fmt(futile)} futility cuts drawn`] : []),
      `${T.fmt(s.tt_hits)} table answers`,
      `${T.ms(r.elapsed_ms)} ms`,
    ];
    if (t.passes) bits.splice(2, 0, `${t.passes.length} passes over the root's moves`);
    const head = `Drew ${T.fmt(entered)} of the ${T.fmt(t.nodes)} nodes searched` +
      (answers ? ` and ${T.fmt(answers)} table answers` : "");
    const box = $("tree-summary");
    box.replaceChildren(el("strong", { text: head }), ` · ${bits.join(" · ")} · `, el("code", { text: t.agent }));
    if (rest > 0) {
      box.append(el("span", { class: "truncated", text:
        ` — the principal variation and the first nodes in expansion order are drawn; ${T.fmt(rest)} more were searched and counted.` }));
    }
  }

  // ----- true values: the textbook minimax, searched separately, for the tooltips -------------
  const truth = { on: controls.truth.checked, run: 0 };

  async function loadTruth() {
    truth.on = controls.truth.checked;
    const box = $("tree-truth-note");
    if (!trace || !truth.on) { box.hidden = true; refreshTooltips(); return; }
    const run = ++truth.run;
    const nodes = byId.filter(Boolean);
    box.hidden = false;
    box.textContent = "Computing the true minimax values…";
    try {
      const res = await fetch(`/api/games/${gameId}/minimax`, {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ ply: Number(trace.ply), depth: searched.depth, eval: searched.eval, paths: nodes.map(pathOf) }),
      });
      const body = await res.json();
      if (run !== truth.run) return;
      if (!res.ok) throw new Error(body.error || `${res.status} ${res.statusText}`);
      nodes.forEach((n, i) => { n._true = body.values[i]; });
      box.textContent = `True values (textbook minimax, ${T.fmt(body.nodes)} nodes) are in each node's tooltip.`;
    } catch (err) {
      if (run !== truth.run) return;
      nodes.forEach((n) => { delete n._true; });
      box.textContent = `No true values: ${err.message}`;
    }
    refreshTooltips();
  }

  function refreshTooltips() {
    for (const n of byId) {
      const p = n && parts.get(String(n.id));
      const title = p && p.node.querySelector("title");
      if (title) title.textContent = tooltip(n);
    }
  }

  // ----- layout and drawing ------------------------------------------------------------------
  function layoutMode(slots) {
    const chosen = $("tree-layout").value;
    if (chosen !== "auto") return chosen;
    return slots <= 14 ? "down" : "side";
  }

  function computeLayout() {
    let slot = 0;
    const raw = new Map(); // key -> {s, d}
    const stubs = [];
    const place = (n, d) => {
      const hasStubs = n.pruned || n.omitted;
      if (!n.children.length && !hasStubs) { raw.set(String(n.id), { s: slot++, d }); return; }
      const first = slot;
      n.children.forEach((c) => place(c, d + 1));
      if (n.omitted) { const key = `${n.id}o`; stubs.push({ key, parent: n, kind: "omitted", count: n.omitted }); raw.set(key, { s: slot++, d: d + 1 }); }
      if (n.pruned) { const key = `${n.id}p`; stubs.push({ key, parent: n, kind: "pruned", count: n.pruned }); raw.set(key, { s: slot++, d: d + 1 }); }
      raw.set(String(n.id), { s: (first + slot - 1) / 2, first, d });
    };
    place(trace, 0);
    const mode = layoutMode(slot);
    // room for the longest move label (15px monospace: about 9.2px a character)
    const longest = Math.max(0, ...byId.filter(Boolean).map((n) => edgeLabel(n).length));
    const label = longest * 9.2 + 24;
    const g = mode === "side" ? { ...GEOM.side, gx: Math.max(GEOM.side.gx, label) }
      : { ...GEOM.down, gx: Math.max(GEOM.down.gx, label - W) };
    const pos = new Map();
    let maxD = 0;
    for (const [key, r] of raw) {
      // top-down: a parent centred over its children; sideways: an outline, the parent on
      // its first child's row, so the root stays at the top left however big the tree
      const s = mode === "side" && r.first != null ? r.first : r.s;
      const d = r.d;
      maxD = Math.max(maxD, d);
      pos.set(key, mode === "down"
        ? { x: PAD + s * (W + g.gx), y: PAD + 16 + d * (H + g.gy) }
        : { x: PAD + d * (W + g.gx), y: PAD + s * (H + g.gy) });
    }
    const width = mode === "down" ? PAD * 2 + slot * (W + g.gx) : PAD * 2 + (maxD + 1) * (W + g.gx);
    const height = mode === "down" ? PAD * 2 + 16 + (maxD + 1) * (H + g.gy) : PAD * 2 + slot * (H + g.gy);
    return { mode, pos, stubs, width, height };
  }

  function draw() {
    geo = computeLayout();
    layers = { edges: svg("g", { class: "edges" }), nodes: svg("g", { class: "nodes" }) };
    const canvas = svg("svg", { class: `tree-svg mode-${geo.mode}`, viewBox: `0 0 ${geo.width} ${geo.height}`,
      role: "img", "aria-label": "search tree" }, layers.edges, layers.nodes);
    treeBox.replaceChildren(canvas);
    zoom();
    parts = new Map();
    for (const n of byId) if (n) parts.set(String(n.id), { node: makeNode(n), edge: n._parent ? makeEdge(n._parent, n.id, n) : null });
    for (const stub of geo.stubs) parts.set(stub.key, { node: makeStub(stub), edge: makeEdge(stub.parent, stub.key, null, stub.kind) });
  }

  function zoom() {
    const canvas = treeBox.querySelector("svg");
    if (!canvas || !geo) return;
    const fit = $("tree-fit").getAttribute("aria-pressed") === "true";
    // fitted: the whole tree in the box (the box as tall as the window), however small
    const z = fit ? Math.min(1.6, (treeBox.clientWidth - 4) / geo.width, (treeBox.clientHeight - 4) / geo.height)
      : Number($("tree-zoom").value) / 100;
    canvas.setAttribute("width", Math.round(geo.width * z));
    canvas.setAttribute("height", Math.round(geo.height * z));
  }

  function anchor(key, end) {
    const p = geo.pos.get(String(key));
    if (geo.mode === "down") return end === "out" ? [p.x + W / 2, p.y + H] : [p.x + W / 2, p.y];
    return end === "out" ? [p.x + W, p.y + H / 2] : [p.x, p.y + H / 2];
  }

  function makeEdge(parent, key, child, stubKind) {
    const [x1, y1] = anchor(parent.id, "out");
    const [x2, y2] = anchor(key, "in");
    const d = geo.mode === "down"
      ? `M${x1},${y1} C${x1},${(y1 + y2) / 2} ${x2},${(y1 + y2) / 2} ${x2},${y2}`
      : `M${x1},${y1} C${(x1 + x2) / 2},${y1} ${(x1 + x2) / 2},${y2} ${x2},${y2}`;
    const cls = ["edge", stubKind ? `edge-${stubKind}` : "", child && child.cutoff ? "edge-cut" : ""].join(" ");
    const g = svg("g", { class: cls, dataset: { edge: String(key) } }, svg("path", { d }));
    if (child && child.move != null) {
      const [lx, ly, anchorText] = geo.mode === "down" ? [x2, y2 - 10, "middle"] : [x2 - 10, y2 - 8, "end"];
      g.append(svg("text", { x: lx, y: ly, class: "edge-move", "text-anchor": anchorText, text: edgeLabel(child) }));
    }
    return g;
  }

  /** The label on the edge into a node: its move, and for a root move searched in passes the pass. */
  function edgeLabel(n) {
    return n.move == null ? "" : n.pass ? `${n.move} · pass ${n.pass}` : n.move;
  }

  function kindGlyph(kind) {
    return { max: "▲", min: "▼", chance: "◆" }[kind] ?? "";
  }

  function makeNode(n) {
    const p = geo.pos.get(String(n.id));
    const kinds = ["tn", `k-${n.kind}`];
    if (n.tt_hit) kinds.push("tt");
    if (n.cutoff) kinds.push("cut");
    if (n.id === 0) kinds.push("root");
    const g = svg("g", { class: kinds.join(" "), transform: `translate(${p.x},${p.y})`,
      dataset: { node: String(n.id), kind: n.kind } });
    g.append(svg("rect", { class: "tn-box", width: W, height: H, rx: n.kind === "leaf" || n.kind === "terminal" ? 4 : 12 }));
    const glyph = kindGlyph(n.kind);
    if (glyph) g.append(svg("text", { class: "tn-glyph", x: 9, y: 19, text: glyph }));
    g.append(svg("text", { class: "tn-value", x: W / 2, y: 35, "text-anchor": "middle", text: "?" }));
    g.append(svg("text", { class: "tn-window", x: W / 2, y: 55, "text-anchor": "middle", text: windowOf(n) }));
    if (n.tt_hit) {
      g.append(svg("circle", { class: "tn-tt", cx: W - 4, cy: 4, r: 12 }),
        svg("text", { class: "tn-tt-text", x: W - 4, y: 9, "text-anchor": "middle", text: "T" }));
    }
    if (n.cutoff) g.append(svg("text", { class: "tn-cut", x: W + 4, y: H + 4, text: "✂" }));
    if (n.cut) g.append(svg("text", { class: "tn-cut-why", x: 24, y: 17, text: `✂ ${CUTS[n.cut].short}` }));
    g.append(svg("title", { text: tooltip(n) }));
    if (n.tt_hit) g.dataset.ttHit = "";
    if (n.cutoff) g.dataset.cutoff = "";
    if (n.cut) g.dataset.cut = n.cut;
    if (n.pass) g.dataset.pass = String(n.pass);
    g.dataset.bound = n.bound || "exact";
    return g;
  }

  function makeStub(stub) {
    const p = geo.pos.get(stub.key);
    const pruned = stub.kind === "pruned";
    const attrs = pruned ? { node: stub.key, pruned: String(stub.count) } : { stub: "omitted", omitted: String(stub.count) };
    const g = svg("g", { class: `tn stub stub-${stub.kind}`, transform: `translate(${p.x},${p.y})`, dataset: attrs });
    g.append(svg("rect", { class: "tn-box", width: W, height: H, rx: 12 }));
    g.append(svg("text", { class: "stub-text", x: W / 2, y: 28, "text-anchor": "middle",
      text: pruned ? `✂ ${stub.count} pruned` : `… ${stub.count} more` }));
    g.append(svg("text", { class: "stub-sub", x: W / 2, y: 48, "text-anchor": "middle",
      text: pruned ? "never searched" : "searched, not drawn" }));
    g.append(svg("title", { text: pruned
      ? `${stub.count} move(s) of this node were pruned: the cut-off made them irrelevant, so the search never looked at them.`
      : `${stub.count} child node(s) were searched and counted but not drawn (the drawing stops at ${trace.recorded} nodes).` }));
    return g;
  }

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
    if (n.pass) lines.push(`pass ${n.pass} of ${trace.passes.length} over the root's moves: ${passQuestion(n.pass)}`);
    if (n.cut) lines.push(`✂ ${CUTS[n.cut].words}`);
    if (n.pruned) lines.push(`${n.pruned} move(s) pruned`);
    if (n.left_out) lines.push(`${n.left_out} move(s) left out by the game's endgame rule: no better than a move searched`);
    if (n.cutoff) lines.push(`cut-off here: ${n._parent.pruned} sibling(s) pruned`);
    if (n.omitted) lines.push(`${n.omitted} child node(s) searched but not drawn`);
    if (truth.on && n._true !== undefined) {
      lines.push(n._true === null ? "true minimax value: not in the minimax tree"
        : `true minimax value: ${T.value(n._true)} (textbook minimax, searched separately)`);
    }
    return lines.join("\n");
  }

  function kindName(n) {
    return {
      max: `MAX node (${T.cap(sides[0])} to move)`, min: `MIN node (${T.cap(sides[1])} to move)`,
      chance: "chance node (average of its children)", leaf: "leaf (depth limit: evaluation)", terminal: "game over",
    }[n.kind] || n.kind;
  }

  function pathOf(n) {
    const out = [];
    for (let k = n; k && k.move != null; k = k._parent) out.unshift(k.move);
    return out;
  }

  // ----- playback ---------------------------------------------------------------------------
  function attach(key) {
    const p = parts.get(String(key));
    if (!p) return;
    if (p.edge && !p.edge.isConnected) layers.edges.append(p.edge);
    if (!p.node.isConnected) layers.nodes.append(p.node);
  }

  function apply(ev) {
    const n = ev.node;
    if (ev.type === "enter") {
      attach(n.id);
      return;
    }
    const g = parts.get(String(n.id)).node;
    g.querySelector(".tn-value").textContent = valueText(n);
    g.classList.add("done");
    const parent = n._parent;
    if (parent && parent.children[parent.children.length - 1] === n) {
      if (parent.omitted) attach(`${parent.id}o`);
      if (parent.pruned) attach(`${parent.id}p`);
    }
    if (!n.children.length) {
      if (n.omitted) attach(`${n.id}o`);
      if (n.pruned) attach(`${n.id}p`);
    }
    if (n.id === 0) showPV(true);
  }

  function showPV(on) {
    for (const id of pv) {
      const p = parts.get(String(id));
      if (!p) continue;
      p.node.classList.toggle("pv", on);
      if (p.edge) p.edge.classList.toggle("pv", on);
    }
  }

  /** Undo one event (stepping back): the exact reverse of apply(). */
  function unapply(ev) {
    const n = ev.node;
    const p = parts.get(String(n.id));
    if (ev.type === "enter") {
      p.node.remove();
      if (p.edge) p.edge.remove();
      return;
    }
    p.node.querySelector(".tn-value").textContent = "?";
    p.node.classList.remove("done");
    const detach = (key) => { const s = parts.get(key); if (s) { s.node.remove(); if (s.edge) s.edge.remove(); } };
    const parent = n._parent;
    if (parent && parent.children[parent.children.length - 1] === n) { detach(`${parent.id}o`); detach(`${parent.id}p`); }
    if (!n.children.length) { detach(`${n.id}o`); detach(`${n.id}p`); }
    if (n.id === 0) showPV(false);
  }

  function goTo(k, { scroll = true } = {}) {
    k = Math.max(0, Math.min(events.length, k));
    if (k < step && step - k <= 200) {
      while (step > k) unapply(events[--step]);
    } else if (k < step) {
      // rebuild from nothing: cheap enough (a few thousand DOM operations at most)
      layers.edges.replaceChildren();
      layers.nodes.replaceChildren();
      for (const p of parts.values()) {
        p.node.classList.remove("done", "pv", "current", "entering", "leaving");
        const v = p.node.querySelector(".tn-value");
        if (v) v.textContent = "?";
        if (p.edge) p.edge.classList.remove("pv");
      }
      step = 0;
    }
    while (step < k) apply(events[step++]);
    highlight(scroll);
  }

  function highlight(scroll) {
    if (current) current.classList.remove("current", "entering", "leaving");
    current = null;
    $("tree-step-count").textContent = `step ${step} / ${events.length}`;
    if (!step) { $("tree-narration").textContent = "Press Step (→) or Play (space)."; return; }
    const ev = events[step - 1];
    const p = parts.get(String(ev.node.id));
    current = p.node;
    current.classList.add("current", ev.type === "enter" ? "entering" : "leaving");
    narrate(ev);
    if (scroll && current.isConnected) keepInView(current);
  }

  /** Scroll the tree's box (never the page) so that `node` is in view. */
  function keepInView(node) {
    const r = node.getBoundingClientRect(), c = treeBox.getBoundingClientRect(), m = 40;
    if (r.left < c.left + m) treeBox.scrollLeft += r.left - c.left - m;
    else if (r.right > c.right - m) treeBox.scrollLeft += r.right - c.right + m;
    if (r.top < c.top + m) treeBox.scrollTop += r.top - c.top - m;
    else if (r.bottom > c.bottom - m) treeBox.scrollTop += r.bottom - c.bottom + m;
  }

  function who(n) {
    const where = n.move == null ? "the root" : `after ${pathOf(n).join(" ")}`;
    return { where, kind: n.kind === "max" ? "MAX" : n.kind === "min" ? "MIN" : n.kind };
  }

  function narrate(ev) {
    const n = ev.node;
    const { where } = who(n); // "the root" or "after 1:2 2:1"
    const box = $("tree-narration");
    const lines = ev.type === "enter" ? enterLines(n, where) : exitLines(n, where);
    box.replaceChildren(el("div", { class: "step-no", text: `Step ${step} of ${events.length}` }),
      ...lines.map((l) => el("p", {}, ...l)));
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
    const p = trace.passes[k - 1];
    if (k === trace.passes.length) return `the last pass, in the window ${T.windowText(p.alpha, p.beta)} just around the value the passes before found, for each root move's value or bound`;
    return `a window one step wide, ${T.windowText(p.alpha, p.beta)}: is the root's value at least ${T.value(p.beta)}?`;
  }

  /** What pass k found: yes (at least), no (at most), or, the last pass, the value. */
  function passAnswer(k) {
    const p = trace.passes[k - 1];
    const v = T.value(p.value);
    if (k === trace.passes.length) return ["the root's value is exactly ", b(v), "."];
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
    const k = n.pass, last = k === trace.passes.length;
    const first = n._parent.children.find((c) => c.pass === k) === n;
    const head = first ? (last ? [`The last pass (${k} of ${trace.passes.length}) begins. `]
      : [`Pass ${k} of ${trace.passes.length} begins: `, b(passQuestion(k)), " "]) : [];
    return [[...head, "Root move ", b(where), ` (pass ${k}): window `, win(), "."]];
  }

  /** After a root move of a pass: whether it answered the pass's question (and cut the pass
   * short), and, after the pass's last move drawn, the pass's answer. */
  function passExitLines(n) {
    const k = n.pass, p = trace.passes[k - 1];
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
    const r = trace.result || {};
    const line = r.pv || [];
    const drawn = Math.min(pv.size - 1, line.length); // the moves highlighted: the line followed through the drawn tree
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
    return ` (${T.cap(sides[x > 0 ? 0 : 1])} wins, ${plies} ${plies === 1 ? "ply" : "plies"} from the root)`;
  }

  function speed() { return Number($("tree-speed").value); }

  function play() {
    if (!events.length) return;
    if (step >= events.length) goTo(0);
    pause();
    const perSecond = speed();
    const interval = Math.max(16, 1000 / perSecond);
    const perTick = Math.max(1, Math.round(perSecond * interval / 1000));
    timer = setInterval(() => {
      if (step >= events.length) { pause(); return; }
      goTo(step + perTick, { scroll: true });
    }, interval);
    $("tree-play").hidden = true;
    $("tree-pause").hidden = false;
  }

  function pause() {
    if (timer) clearInterval(timer);
    timer = null;
    $("tree-play").hidden = false;
    $("tree-pause").hidden = true;
  }

  function toggle() { if (timer) pause(); else play(); }

  function changeSpeed(delta) {
    const sel = $("tree-speed");
    sel.selectedIndex = Math.max(0, Math.min(sel.options.length - 1, sel.selectedIndex + delta));
    if (timer) play();
  }

  $("tree-play").addEventListener("click", play);
  $("tree-pause").addEventListener("click", pause);
  $("tree-step").addEventListener("click", () => { pause(); goTo(step + 1); });
  $("tree-back").addEventListener("click", () => { pause(); goTo(step - 1); });
  $("tree-reset").addEventListener("click", () => { pause(); goTo(1); });
  $("tree-all").addEventListener("click", () => { pause(); goTo(events.length); });
  $("tree-speed").addEventListener("change", () => { if (timer) play(); });
  $("tree-zoom").addEventListener("input", zoom);
  $("tree-fit").addEventListener("click", () => {
    const fit = $("tree-fit").getAttribute("aria-pressed") !== "true";
    $("tree-fit").setAttribute("aria-pressed", String(fit));
    treeBox.classList.toggle("fitted", fit);
    $("tree-zoom").disabled = fit;
    zoom();
    if (fit) treeBox.scrollIntoView({ block: "start" });
  });
  window.addEventListener("resize", () => { if (treeBox.classList.contains("fitted")) zoom(); });
  $("tree-layout").addEventListener("change", () => {
    if (!trace) return;
    const k = step;
    draw();
    step = 0;
    goTo(k, { scroll: false });
  });

  document.addEventListener("keydown", (e) => {
    const tag = (e.target && e.target.tagName) || "";
    if (["INPUT", "SELECT", "TEXTAREA"].includes(tag) && e.target.type !== "range") return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    switch (e.key) {
      case " ": e.preventDefault(); toggle(); break;
      case "ArrowRight": e.preventDefault(); pause(); goTo(step + 1); break;
      case "ArrowLeft": e.preventDefault(); pause(); goTo(step - 1); break;
      case "+": case "=": changeSpeed(1); break;
      case "-": case "_": changeSpeed(-1); break;
      case "Home": e.preventDefault(); pause(); goTo(1); break;
      case "End": e.preventDefault(); pause(); goTo(events.length); break;
      default:
    }
  });

  // ----- the position, and the theory next to the search -------------------------------------
  let boardState = null;
  async function showBoard(ply, best) {
    const box = document.getElementById("tree-board");
    try {
      boardState = await T.getJSON(`/api/games/${gameId}/position?ply=${ply}`);
    } catch (err) {
      box.textContent = `No position: ${err.message}`;
      return;
    }
    const view = ArcadeViews.get(gameName);
    const who = boardState.status === "over" ? "Game over." : `${T.cap(boardState.to_move_name)} to move` +
      ` (${boardState.to_move === 0 ? "MAX ▲" : "MIN ▼"}).`;
    const caption = el("p", { class: "board-caption", text: `${who}${best ? ` Best move found: ${best}.` : ""}` });
    const holder = el("div", { class: "board-holder" });
    box.replaceChildren(caption, holder);
    if (!view) { holder.append(el("pre", { class: "raw-board", text: JSON.stringify(boardState.board, null, 1) })); return; }
    try {
      view.render(holder, boardState, { seat: null, canMove: false, play() {}, hint: best || null, previous: null, speed: 0 });
    } catch (err) {
      holder.replaceChildren(el("pre", { class: "raw-board", text: JSON.stringify(boardState.board, null, 1) }));
    }
  }

  async function showTheory() {
    const box = $("tree-theory");
    if (!controls.theory.checked) { box.hidden = true; return; }
    box.hidden = false;
    box.replaceChildren(el("h3", { text: "Theory" }), el("p", { class: "muted", text: "Checking the theory against a search…" }));
    try {
      const [th, pos] = await Promise.all([
        T.getJSON(`/api/games/${gameId}/theory?ply=${controls.ply.value}`),
        T.getJSON(`/api/games/${gameId}/position?ply=${controls.ply.value}`),
      ]);
      T.renderTheory(box, th, pos.board);
    } catch (err) {
      box.replaceChildren(el("h3", { text: "Theory" }), el("p", { class: "bad", text: err.message }));
    }
  }

  loadPositions().then(search).catch((err) => {
    const box = $("tree-error");
    box.textContent = `Could not load the game: ${err.message}`;
    box.hidden = false;
  });
})();
