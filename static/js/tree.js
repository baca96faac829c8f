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
import { Playback } from "./tree/playback.js";
import { computeLayout, makeEdge, makeNode, makeStub } from "./tree/layout.js";
import { makeWords } from "./tree/words.js";
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


  let trace = null;      // the JSON the server sent (the root node plus totals)
  let traceText = "";    // ... as text, for the download
  let byId = [];         // recorded nodes by id
  let pv = new Set();    // ids on the principal variation
  let geo = null;        // layout: {mode, pos: Map(key -> {x, y}), width, height}
  let parts = new Map(); // key -> {node: <g>, edge: <g>}
  let layers = null;     // {edges, nodes}
  let current = null;
  // what the words read of the search drawn (its words are in tree/words.js)
  const view = { get trace() { return trace; }, get pv() { return pv; }, sides, get truthOn() { return truth.on; } };
  const words = makeWords(view);
  const { valueText, tooltip, pathOf, who, enterLines, exitLines } = words;

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

  /** The form's choices in the address; what else it holds stays (the MCTS view's `family`,
   *  which that view may not have read yet when a slow page runs this search first). */
  function syncUrl() {
    const q = new URLSearchParams(location.search);
    for (const name of ["ply", "algo", "depth", "nodes"]) q.set(name, controls[name].value);
    const optional = { eval: controls.eval.value, theory: controls.theory.checked ? "1" : "",
      truth: controls.truth.checked ? "1" : "" };
    for (const [name, value] of Object.entries(optional)) if (value) q.set(name, value); else q.delete(name);
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
        if (!playback.playing) draw_(body, url, ply);  // (not while the tree is being played back)
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
    const url = `/api/games/${gameId}/trace/deepest?${q}`;
    const res = await fetch(url, { headers: T.creatorHeaders(url) });
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
    playback.load([]);
    trace = null; byId = []; parts = new Map(); pv = new Set(); current = null;
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
    const events = []; // {type: "enter" | "exit", node} in the search's order
    const walk = (n, parent, depth) => {
      n._parent = parent;
      n._depth = depth;
      byId[n.id] = n;
      events.push({ type: "enter", node: n });
      n.children.forEach((c) => walk(c, n, depth + 1));
      events.push({ type: "exit", node: n });
    };
    walk(json, null, 0);
    playback.load(events);
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
    const mine = T.creatorHeaders(url)["X-Seat-Token"];  // (a game being played: its creator's link)
    api.href = mine ? `${url}&token=${encodeURIComponent(mine)}` : url;
    api.hidden = false;
    playback.goTo(1);
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
        method: "POST", headers: { "Content-Type": "application/json", ...T.creatorHeaders(`/api/games/${gameId}/`) },
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
  function draw() {
    geo = computeLayout(trace, byId, $("tree-layout").value);
    layers = { edges: svg("g", { class: "edges" }), nodes: svg("g", { class: "nodes" }) };
    const canvas = svg("svg", { class: `tree-svg mode-${geo.mode}`, viewBox: `0 0 ${geo.width} ${geo.height}`,
      role: "img", "aria-label": "search tree" }, layers.edges, layers.nodes);
    treeBox.replaceChildren(canvas);
    zoom();
    parts = new Map();
    for (const n of byId) {
      if (n) parts.set(String(n.id), { node: makeNode(geo, n, words), edge: n._parent ? makeEdge(geo, n._parent, n.id, n) : null });
    }
    for (const stub of geo.stubs) {
      parts.set(stub.key, { node: makeStub(geo, stub, trace.recorded), edge: makeEdge(geo, stub.parent, stub.key, null, stub.kind) });
    }
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

  /** Back to nothing applied: every drawn part detached and blank. */
  function reset() {
    layers.edges.replaceChildren();
    layers.nodes.replaceChildren();
    for (const p of parts.values()) {
      p.node.classList.remove("done", "pv", "current", "entering", "leaving");
      const v = p.node.querySelector(".tn-value");
      if (v) v.textContent = "?";
      if (p.edge) p.edge.classList.remove("pv");
    }
  }

  function highlight(scroll) {
    if (current) current.classList.remove("current", "entering", "leaving");
    current = null;
    $("tree-step-count").textContent = `step ${playback.step} / ${playback.length}`;
    const ev = playback.current;
    if (!ev) { $("tree-narration").textContent = "Press Step (→) or Play (space)."; return; }
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

  function narrate(ev) {
    const n = ev.node;
    const { where } = who(n); // "the root" or "after 1:2 2:1"
    const box = $("tree-narration");
    const lines = ev.type === "enter" ? enterLines(n, where) : exitLines(n, where);
    box.replaceChildren(el("div", { class: "step-no", text: `Step ${playback.step} of ${playback.length}` }),
      ...lines.map((l) => el("p", {}, ...l)));
  }

  const playback = new Playback({
    apply, unapply, reset, show: highlight,
    perSecond: () => Number($("tree-speed").value),
    onPlaying(on) {
      $("tree-play").hidden = on;
      $("tree-pause").hidden = !on;
    },
  });
  function pause() { playback.pause(); }
  function goTo(k) { playback.goTo(k); }

  function changeSpeed(delta) {
    const sel = $("tree-speed");
    sel.selectedIndex = Math.max(0, Math.min(sel.options.length - 1, sel.selectedIndex + delta));
    if (playback.playing) playback.play();
  }

  $("tree-play").addEventListener("click", () => playback.play());
  $("tree-pause").addEventListener("click", pause);
  $("tree-step").addEventListener("click", () => { pause(); goTo(playback.step + 1); });
  $("tree-back").addEventListener("click", () => { pause(); goTo(playback.step - 1); });
  $("tree-reset").addEventListener("click", () => { pause(); goTo(1); });
  $("tree-all").addEventListener("click", () => { pause(); goTo(playback.length); });
  $("tree-speed").addEventListener("change", () => { if (playback.playing) playback.play(); });
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
    draw();
    playback.replay();
  });

  document.addEventListener("keydown", (e) => {
    const tag = (e.target && e.target.tagName) || "";
    if (["INPUT", "SELECT", "TEXTAREA"].includes(tag) && e.target.type !== "range") return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    switch (e.key) {
      case " ": e.preventDefault(); playback.toggle(); break;
      case "ArrowRight": e.preventDefault(); pause(); goTo(playback.step + 1); break;
      case "ArrowLeft": e.preventDefault(); pause(); goTo(playback.step - 1); break;
      case "+": case "=": changeSpeed(1); break;
      case "-": case "_": changeSpeed(-1); break;
      case "Home": e.preventDefault(); pause(); goTo(1); break;
      case "End": e.preventDefault(); pause(); goTo(playback.length); break;
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
