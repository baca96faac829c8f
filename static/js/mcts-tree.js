/* The search-tree page's Monte Carlo view: the tree that UCT grew from a position, played back
 * simulation by simulation (the selection path, the node added, the random game's winner, the
 * backup and, with the solver, the proofs), beside alpha-beta's choice on the same position.
 *
 * It asks GET /api/games/<id>/trace?agent=mcts:... (the trace's `playback` lists every
 * simulation) and rebuilds the counts itself: after k steps each node shows the visits and
 * mean result of the first k simulations. Hooks: [data-testid=mcts-tree]; each node carries
 * data-node (its moves from the root, space-separated; "" for the root). */
"use strict";
import { ArcadeViews } from "./views.js";
import { Teach } from "./teach-common.js";
import { Playback } from "./tree/playback.js";
(function () {
  const T = Teach;
  const { el } = ArcadeViews;
  const page = document.querySelector(".tree-root");
  const data = JSON.parse(document.getElementById("teach-data").textContent);
  const gameId = page.dataset.gameId;
  const sides = data.game.sides;
  const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
  const view = $("mcts-view");
  const alphaBetaParts = [".tree-controls", ".tree-playback", ".tree-summary", ".tree-main"]
    .map((sel) => document.querySelector(sel));
  const MAX_SIMS = 2000;

  let trace = null;      // the server's trace: root node with `playback`
  let nodeInfo = new Map(); // path key -> {side, chance} from the recorded tree
  let counts = null;     // {visits: Map, wins: Map (for the mover), proven: Map, children: Map}

  // ----- the view's controls -------------------------------------------------------------
  const ply = el("select", { name: "mcts-ply", dataset: { testid: "mcts-ply" } });
  const sims = el("input", { type: "number", name: "sims", min: "1", max: String(MAX_SIMS), value: "200",
                              dataset: { testid: "mcts-sims" } });
  const explore = el("input", { type: "number", name: "c", min: "0", max: "10", step: "0.1", value: "1.4",
                                 dataset: { testid: "mcts-c" } });
  const seed = el("input", { type: "number", name: "seed", min: "0", value: "1", dataset: { testid: "mcts-seed" } });
  const solver = el("input", { type: "checkbox", name: "solver", dataset: { testid: "mcts-solver" } });
  const form = el("form", { class: "tree-controls card", dataset: { testid: "mcts-controls" } },
    el("label", {}, "Position ", ply),
    el("label", {}, "Simulations ", sims),
    el("label", { title: "UCB1's exploration constant: larger tries the less visited moves more" }, "c ", explore),
    el("label", {}, "Seed ", seed),
    el("label", { class: "check", title: "MCTS-Solver: finished games are proved, and proofs are backed up" },
      solver, " Solver"),
    el("button", { type: "submit", class: "primary", dataset: { testid: "mcts-search" } }, "Search"));
  const button = (id, text, title) => el("button", { type: "button", title, dataset: { testid: id } }, text);
  const startBtn = button("mcts-reset", "|◀ Start", "Back to the first simulation");
  const backBtn = button("mcts-back", "◀ Back", "One simulation back");
  const playBtn = button("mcts-play", "▶ Play", "Play the simulations");
  const stepBtn = button("mcts-step", "Step ▶|", "One simulation");
  const allBtn = button("mcts-all", "All ▶▶|", "Every simulation");
  const speed = el("select", { title: "Simulations per second" },
    ...[1, 2, 4, 8, 16, 64, 200].map((n) => el("option", { value: String(n), text: `${n} / s`, selected: n === 4 })));
  const stepCount = el("span", { class: "step-count", dataset: { testid: "mcts-step-count" }, text: "–" });
  const toolbar = el("div", { class: "tree-playback card", role: "toolbar", "aria-label": "MCTS playback" },
    startBtn, backBtn, playBtn, stepBtn, allBtn, el("label", {}, "Speed ", speed), stepCount);
  const summary = el("div", { class: "mcts-summary card", dataset: { testid: "mcts-summary" }, "aria-live": "polite" },
    "Pick a position, then Search.");
  const narration = el("p", { class: "narration", dataset: { testid: "mcts-narration" }, "aria-live": "polite" }, "–");
  const error = el("p", { class: "tree-error", role: "alert", hidden: true, dataset: { testid: "mcts-error" } });
  const treeBox = el("div", { class: "mcts-tree", dataset: { testid: "mcts-tree" }, tabindex: "0",
                               role: "region", "aria-label": "Monte Carlo search tree" });
  const legend = el("p", { class: "small muted mcts-legend" },
    "Each node: the move, its visits (n), the mean result of its simulations for the side that played it " +
    "(from −1, always lost, to +1, always won) and its UCB1 value, mean + c·√(ln N / n), which selection " +
    "maximises. ", el("span", { class: "mcts-path-key" }, "Highlighted"), ": the current simulation's path; ",
    el("span", { class: "mcts-new-key" }, "new"), ": the node it added. With the solver, ",
    el("b", {}, "proved: Second wins"), " marks a result that no longer depends on chance.");
  view.append(form, toolbar, error, summary, el("section", { class: "card" }, narration), legend, treeBox);

  // ----- switching between the two families ---------------------------------------------
  const abBtn = $("family-alphabeta");
  const mctsBtn = $("family-mcts");
  function showFamily(mcts) {
    abBtn.setAttribute("aria-pressed", String(!mcts));
    mctsBtn.setAttribute("aria-pressed", String(mcts));
    view.hidden = !mcts;
    for (const part of alphaBetaParts) if (part) part.hidden = mcts;
    const q = new URLSearchParams(location.search);
    if (mcts) q.set("family", "mcts"); else q.delete("family");
    history.replaceState(null, "", `?${q}`);
    if (mcts) {
      pause();
      copyPositions();
      if (!trace) search();
    }
  }
  abBtn.addEventListener("click", () => showFamily(false));
  mctsBtn.addEventListener("click", () => showFamily(true));

  /** The positions, as the alpha-beta form lists them (tree.js fills it from the game). */
  function copyPositions() {
    const source = document.querySelector('[data-testid="tree-ply"]');
    if (!source || !source.options.length) return;
    const keep = ply.value || source.value;
    ply.replaceChildren(...[...source.options].map((o) => el("option", { value: o.value, text: o.text })));
    ply.value = [...ply.options].some((o) => o.value === keep) ? keep : source.value;
  }

  // ----- searching -----------------------------------------------------------------------
  let run = 0;
  form.addEventListener("submit", (e) => { e.preventDefault(); search(); });
  ply.addEventListener("change", () => search());

  function spec() {
    const n = Math.max(1, Math.min(MAX_SIMS, parseInt(sims.value, 10) || 200));
    sims.value = String(n);
    const c = Math.max(0, Number(explore.value) || 0);
    const s = Math.max(0, parseInt(seed.value, 10) || 0);
    return `mcts:sims=${n},c=${c},seed=${s},solver=${solver.checked ? "on" : "off"}`;
  }

  async function search() {
    const mine = ++run;
    pause();
    error.hidden = true;
    const agent = spec();
    const n = parseInt(sims.value, 10);
    const at = ply.value || "0";
    summary.replaceChildren(`Searching with ${agent} …`);
    try {
      const url = `/api/games/${gameId}/trace?agent=${encodeURIComponent(agent)}&ply=${at}` +
        `&max_nodes=${Math.min(n + 1, data.teach.trace_max_nodes)}`;
      const got = await T.getJSON(url);
      if (mine !== run) return;
      trace = got;
      nodeInfo = new Map();
      (function walk(node, path) {
        nodeInfo.set(path.join(" "), node);
        for (const c of node.children) walk(c, path.concat(c.move));
      })(trace, []);
      playback.load(trace.playback);
      reset();
      playback.goTo(playback.length);
      compareWithAlphaBeta(at, mine);
    } catch (err) {
      if (mine !== run) return;
      error.textContent = err.message;
      error.hidden = false;
      summary.replaceChildren("No tree: the search was refused.");
    }
  }

  async function compareWithAlphaBeta(at, mine) {
    const r = trace.result;
    const stats = r.stats;
    const rows = [["", "MCTS", "Alpha-beta"],
      ["Move", r.best_move, "…"],
      ["Value", mctsValue(r), "…"],
      ["Effort", `${T.fmt(stats.simulations)} simulations, ${T.fmt(stats.nodes)} states generated`, "…"],
      ["Time", `${T.ms(stats.elapsed_ms)} ms`, "…"]];
    const table = () => el("table", { class: "compare-table", dataset: { testid: "mcts-versus" } },
      el("tbody", {}, ...rows.map((row, i) => el("tr", {},
        ...row.map((cell) => el(i === 0 ? "th" : "td", { text: cell }))))));
    const open = el("button", { type: "button", dataset: { testid: "mcts-open-alphabeta" },
                                onclick: () => showFamily(false) }, "Open the alpha-beta tree of this position");
    const draw = () => summary.replaceChildren(
      el("p", {}, `${T.cap(trace.result.to_move)} to move. MCTS plays its most visited move; alpha-beta its minimax move.`),
      el("div", { class: "table-wrap" }, table()), open);
    draw();
    const depth = data.game.default_depth || 0;
    try {
      const ab = await T.getJSON(`/api/games/${gameId}/trace?agent=${encodeURIComponent(`alphabeta:depth=${depth}`)}` +
        `&ply=${at}&max_nodes=1`);
      if (mine !== run) return;
      const res = ab.result;
      rows[1][2] = res.best_move;
      rows[2][2] = res.score_text + (res.outcome ? " (proved)" : ` at depth ${res.depth}`);
      rows[3][2] = `${T.fmt(res.nodes)} positions searched`;
      rows[4][2] = `${T.ms(res.elapsed_ms)} ms`;
    } catch (err) {
      rows[1][2] = rows[2][2] = "did not finish";
      rows[3][2] = err.message;
      rows[4][2] = "–";
    }
    if (mine === run) draw();
  }

  function mctsValue(r) {
    if (r.outcome) return `${r.outcome} (proved)`;
    return `mean ${signed(r.score)} for ${r.to_move} (an estimate)`;
  }

  function signed(x) { return (x > 0 ? "+" : x < 0 ? "−" : "") + Math.abs(x).toFixed(2); }

  // ----- playback: the counts after k simulations ------------------------------------------
  // (no unapply: stepping back counts again from the first simulation)
  function reset() {
    counts = { visits: new Map([["", 0]]), wins: new Map([["", 0]]), proven: new Map(), children: new Map([["", []]]) };
  }

  function moverOf(key) {
    const info = nodeInfo.get(key);
    return info ? sides.indexOf(info.side) : null;
  }

  function apply(sim) {
    const keys = [""];
    for (let i = 1; i <= sim.path.length; i++) keys.push(sim.path.slice(0, i).join(" "));
    keys.forEach((key, i) => {
      if (!counts.visits.has(key)) {
        counts.visits.set(key, 0);
        counts.wins.set(key, 0);
        counts.children.set(key, []);
        counts.children.get(keys[i - 1]).push(key);
      }
      counts.visits.set(key, counts.visits.get(key) + 1);
      const mover = moverOf(key);
      const score = sim.winner == null ? 0 : sim.winner === mover ? 1 : -1;
      counts.wins.set(key, counts.wins.get(key) + score);
    });
    for (const p of sim.proved) counts.proven.set(p.path.join(" "), p.proven);
  }

  function ucb(key, parentKey) {
    const n = counts.visits.get(key), N = counts.visits.get(parentKey);
    if (!n || !N) return null;
    return counts.wins.get(key) / n + trace.c * Math.sqrt(Math.log(N) / n);
  }

  function draw() {
    if (!trace) return;
    const { step, current } = playback;
    const onPath = new Set([""]);
    if (current) current.path.forEach((_, i) => onPath.add(current.path.slice(0, i + 1).join(" ")));
    const added = current && current.new ? current.path.join(" ") : null;
    stepCount.textContent = `simulation ${step} of ${playback.length}`;
    treeBox.replaceChildren(el("ul", { class: "mcts-list" }, item("", null, onPath, added)));
    narration.replaceChildren(describe(current));
    backBtn.disabled = startBtn.disabled = step === 0;
    stepBtn.disabled = allBtn.disabled = step === playback.length;
  }

  function item(key, parentKey, onPath, added) {
    const n = counts.visits.get(key) || 0;
    const info = nodeInfo.get(key) || {};
    const move = key === "" ? "root" : key.split(" ").pop();
    const mean = n ? counts.wins.get(key) / n : 0;
    const proven = counts.proven.get(key);
    const u = parentKey == null ? null : ucb(key, parentKey);
    const side = key === "" ? null : info.side;
    const label = el("span", { class: "mcts-node-label" },
      el("b", { text: move }),
      el("span", { class: "muted", text: info.chance ? " (dealt)" : side ? ` by ${T.cap(side)}` : "" }),
      ` · n ${n}`,
      key === "" ? "" : ` · mean ${signed(mean)}`,
      u == null ? "" : ` · UCB ${u.toFixed(2)}`,
      proven ? provenMark(key, proven) : "",
      key === added ? el("span", { class: "mcts-new", text: " new" }) : "");
    const classes = ["mcts-node"];
    if (onPath.has(key)) classes.push("on-path");
    const kids = counts.children.get(key) || [];
    return el("li", { class: classes.join(" "), dataset: { node: key } }, label,
      kids.length ? el("ul", {}, ...kids.map((k) => item(k, key, onPath, added))) : null);
  }

  /** A proof as its result: "Second wins" (in that seat's colour) or "a draw". */
  function provenWinner(key, proven) {
    const mover = moverOf(key);
    return proven === "draw" ? null : proven === "win" ? mover : 1 - mover;
  }

  function provenMark(key, proven) {
    const winner = provenWinner(key, proven);
    const text = winner == null ? " proved: a draw" : ` proved: ${T.cap(sides[winner])} wins`;
    return el("span", { class: `mcts-proven ${winner == null ? "mcts-draw" : `side${winner}`}`, text });
  }

  function proofText(p) {
    const key = p.path.join(" ");
    const winner = provenWinner(key, p.proven);
    return `${key || "the root"} (${winner == null ? "a draw" : `${T.cap(sides[winner])} wins`})`;
  }

  function describe(sim) {
    if (!sim) return "Before the first simulation: the root alone.";
    const moves = sim.path.length ? sim.path.join(" → ") : "(the root)";
    const winner = sim.winner == null ? "a draw" : `${T.cap(sides[sim.winner])} won`;
    const parts = [`Simulation ${playback.step}: selection down ${moves}`,
      sim.new ? `, expansion of ${sim.path[sim.path.length - 1]}` : " (a node already known: a finished game or a proof)",
      `; then ${sim.over ? "the game is over there" : sim.new ? "a random game from there" : "its known result"}: ` +
      `${winner}. ` +
      `Backup: ${sim.path.length + 1} node${sim.path.length ? "s" : ""} count one more visit.`];
    if (sim.proved.length) parts.push(` Proved: ${sim.proved.map(proofText).join(", ")}.`);
    return parts.join("");
  }

  // ----- the playback buttons ---------------------------------------------------------------
  const playback = new Playback({
    apply, reset, show: draw,
    perSecond: () => Number(speed.value),
    onPlaying(on) { playBtn.textContent = on ? "‖ Pause" : "▶ Play"; },
  });
  function pause() { playback.pause(); }
  function goTo(k) { playback.goTo(k); }

  playBtn.addEventListener("click", () => playback.toggle());
  startBtn.addEventListener("click", () => { pause(); goTo(0); });
  backBtn.addEventListener("click", () => { pause(); goTo(playback.step - 1); });
  stepBtn.addEventListener("click", () => { pause(); goTo(playback.step + 1); });
  allBtn.addEventListener("click", () => { pause(); goTo(playback.length); });
  speed.addEventListener("change", () => { if (playback.playing) playback.play(); });

  if (new URLSearchParams(location.search).get("family") === "mcts") {
    // tree.js fills the positions asynchronously: wait for them, then open the MCTS view
    const source = document.querySelector('[data-testid="tree-ply"]');
    const ready = () => source && source.options.length > 0;
    if (ready()) showFamily(true);
    else new MutationObserver((_, obs) => { if (ready()) { obs.disconnect(); showFamily(true); } })
      .observe(source, { childList: true });
  }
})();
