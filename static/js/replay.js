/* A game's replay: its record (GET /api/games/<id>/record), each position drawn by the game's
 * own view (GET /api/games/<id>/position?ply=N), the search behind every AI move, the record
 * as a file, and "Continue from here": a new game from the position shown. */
"use strict";
import { ArcadeViews } from "./views.js";
import { ArcadeCreate } from "./create-game.js";
(function () {
  const { cap, fmt } = ArcadeViews;
  const { el } = ArcadeViews;
  const root = document.querySelector(".replay");
  const gameId = root.dataset.gameId;
  const view = ArcadeViews.get(root.dataset.game);
  const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
  const slider = $("replay-slider");

  let record = null;
  let verdicts = null;       // GET /api/games/<id>/verdicts, once the game is over
  let ply = 0;
  let shown = null;          // the state drawn now
  const positions = new Map(); // ply -> state (each fetched once)
  const { continueAi, continueAiWords } = root.dataset;  // the AI offered for a seat a person played

  /** A player in words, by its spec, as the server names it ("Computer (club)"). */
  function player(spec) {
    return spec === continueAi ? continueAiWords : (record.agent_words[spec] || spec);
  }

  async function getJSON(url) {
    const res = await fetch(url);
    const data = await res.json();
    if (!res.ok) throw new Error(data.error || `the server refused (${res.status})`);
    return data;
  }

  async function position(n) {
    if (!positions.has(n)) positions.set(n, await getJSON(`/api/games/${encodeURIComponent(gameId)}/position?ply=${n}`));
    return positions.get(n);
  }

  async function go(n) {
    if (!record) return;
    n = Math.max(0, Math.min(record.moves.length, n));
    let state;
    try {
      state = await position(n);
    } catch (err) {
      $("replay-status").textContent = `Could not load the position after ${n} moves: ${err.message}`;
      return;
    }
    const previous = shown && state.ply === shown.ply + 1 ? shown : null;  // animate single steps only
    ply = n;
    shown = state;
    view.render(document.getElementById("board"), state, {
      seat: null, canMove: false, play() {}, hint: null, previous, speed: previous ? 1 : 0,
    });
    slider.value = String(n);
    slider.setAttribute("aria-valuetext", describePly(n));
    $("replay-status").textContent = statusText(state, n);
    renderMoves();
    renderStats();
    $("replay-first").disabled = $("replay-back").disabled = n === 0;
    $("replay-forward").disabled = $("replay-last").disabled = n === record.moves.length;
  }

  function describePly(n) {
    if (n === 0) return "start position";
    const m = record.moves[n - 1];
    return `after move ${n} of ${record.moves.length}: ${cap(sides()[m.seat] || "")} ${m.move}`;
  }

  function sides() { return shown ? shown.sides : []; }

  function statusText(state, n) {
    let text = `${describePly(n)}.`;
    if (state.status === "over" && state.result) {
      const winner = state.result.winner == null ? "a draw" : `${cap(state.sides[state.result.winner])} wins`;
      text += ` Game over — ${winner}: ${state.result.reason}.`;
    } else if (state.to_move_name) {
      text += ` ${cap(state.to_move_name)} to move.`;
    }
    return cap(text);
  }

  function renderMoves() {
    const list = $("replay-moves");
    list.replaceChildren(...record.moves.map((m, i) => {
      const button = el("button", { type: "button", class: "linklike", text: `${cap(sides()[m.seat] || "")} ${m.move}`,
                                    onclick: () => go(i + 1) });
      const li = el("li", { class: `seat-${m.seat}` }, button);
      const v = verdicts && verdicts.plies[i];
      if (v && v.outcome) {  // the move's verdict for its mover, under perfect play from there
        li.dataset.verdict = v.outcome;
        li.append(el("span", { class: "muted small", text: ` · ${v.outcome}${v.distance ? ` in ${v.distance}` : ""}` }));
      }
      if (v && v.blunder) {
        li.classList.add("blunder");
        li.dataset.blunder = "true";
        li.append(el("strong", { class: "blunder-mark", text: ` ?? threw away a ${v.best}` }));
      }
      if (i + 1 === ply) { li.classList.add("current"); button.setAttribute("aria-current", "step"); }
      return li;
    }));
    const current = list.querySelector(".current");
    if (current) current.scrollIntoView({ block: "nearest" });
  }

  function renderStats() {
    const box = $("replay-stats");
    const m = ply > 0 ? record.moves[ply - 1] : null;
    if (!m || m.nodes == null) {
      box.textContent = m ? "A person's move: no search." : "The start: no move yet.";
      return;
    }
    if (!m.nodes) {  // a random or rule-based move
      box.textContent = `${player(m.agent)} chose it without a search.`;
      return;
    }
    const rows = [
      ["Player", player(m.agent)], ["Move", ArcadeViews.moveWords(record.game, m.move, m.seat)], ["Score", m.score_text ?? String(m.score)],
      ["Outcome", m.outcome || "not proved"], ["Depth", m.depth], ["Nodes", fmt(m.nodes)],
      ["Time", m.elapsed_ms != null ? `${Number(m.elapsed_ms).toFixed(1)} ms` : "–"],
      ["Best line", (m.pv || []).join(" ") || "–"],
    ];
    box.replaceChildren(el("dl", {}, ...rows.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: String(v) })])));
  }

  function renderPlayers() {
    const names = shown ? shown.sides : record.players.map((_, i) => `seat ${i}`);
    $("replay-players").replaceChildren(...record.players.map((spec, i) =>
      el("div", { class: "seat" }, el("span", { class: `seat-dot seat-${i}` }),
        el("span", { text: `${cap(names[i])}: ${player(spec)}`, title: spec }))),
      el("p", { class: "muted small", text: record.result
        ? `Result: ${record.result.winner == null ? "draw" : cap(names[record.result.winner]) + " won"} (${record.result.reason}).`
        : "The game is still being played." }));
    // Continue from here: each seat a person or the recorded (or a default) AI.
    $("continue-seats").replaceChildren(...record.players.map((spec, i) => {
      const choices = new Set(["human", spec === "human" ? continueAi : spec]);
      const select = el("select", { dataset: { testid: `continue-seat-${i}` } },
        ...[...choices].map((c) => el("option", { value: c, text: c === "human" ? "a person (you)" : player(c) })));
      select.value = i === 0 ? "human" : [...choices][1];
      return el("label", { class: "seat-row" }, el("span", { text: `${cap(names[i])}` }), select);
    }));
  }

  $("continue-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const players = record.players.map((_, i) => $(`continue-seat-${i}`).value);
    const body = { game: record.game, options: record.options, players,
                   moves: record.moves.slice(0, ply).map((m) => m.move) };
    const answer = await ArcadeCreate.create(body);
    if (!answer.ok) {
      $("continue-error").textContent = answer.error;
      $("continue-error").hidden = false;
      return;
    }
    ArcadeCreate.open(answer.data);
  });

  $("download-record").addEventListener("click", () => {
    const blob = new Blob([JSON.stringify(record, null, 1)], { type: "application/json" });
    const link = el("a", { href: URL.createObjectURL(blob), download: `${record.game}-${gameId}.json` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  });

  $("replay-first").addEventListener("click", () => go(0));
  $("replay-back").addEventListener("click", () => go(ply - 1));
  $("replay-forward").addEventListener("click", () => go(ply + 1));
  $("replay-last").addEventListener("click", () => go(record.moves.length));
  slider.addEventListener("input", () => go(Number(slider.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    const moves = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: record ? record.moves.length : 0 };
    if (e.key in moves) { e.preventDefault(); go(moves[e.key]); }
  });

  (async function start() {
    try {
      record = await getJSON(`/api/games/${encodeURIComponent(gameId)}/record`);
    } catch (err) {
      $("replay-status").textContent = `Could not load the record: ${err.message}`;
      return;
    }
    slider.max = String(record.moves.length);
    const wanted = Number(new URLSearchParams(location.search).get("ply"));
    await go(Number.isInteger(wanted) && wanted >= 0 && new URLSearchParams(location.search).has("ply")
      ? wanted : record.moves.length);
    renderPlayers();
    if (record.result) loadVerdicts();
  })();

  /** Perfect play's verdict on every move of the finished game: the moves that threw away a
   * win or a draw are marked in the list. */
  async function loadVerdicts() {
    const box = el("p", { class: "muted small", dataset: { testid: "replay-verdicts" }, "aria-live": "polite",
                          text: "Checking every move against perfect play…" });
    $("replay-moves").after(box);
    try {
      verdicts = await getJSON(`/api/games/${encodeURIComponent(gameId)}/verdicts`);
    } catch (err) {
      box.textContent = `Perfect play could not judge the moves: ${err.message}`;
      return;
    }
    const blunders = verdicts.plies.filter((p) => p.blunder);
    const judged = verdicts.plies.filter((p) => p.outcome != null).length;
    box.textContent = (blunders.length
      ? `Perfect play: ${blunders.length} move${blunders.length > 1 ? "s" : ""} threw away a win or a draw (marked ??).`
      : "Perfect play: no move threw away a win or a draw.") +
      ` ${judged} of ${verdicts.plies.length} moves judged exactly.` + (verdicts.note ? ` ${verdicts.note}.` : "");
    renderMoves();
  }

})();
