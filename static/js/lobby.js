/* The lobby: the form is built from the engine's options schema (the catalog), so every game
 * option, bound and default shown here is the one the engine checks. */
"use strict";
import { ArcadeViews } from "./views.js";
import { ArcadeCreate } from "./create-game.js";
/** The lobby's form, for the teacher's class form (teach-class.js): set once this module has run. */
export let ArcadeLobby;
(function () {
  const { cap } = ArcadeViews;
  const catalog = JSON.parse(document.getElementById("catalog-data").textContent);
  const games = Object.fromEntries(catalog.games.map((g) => [g.name, g]));
  // Strength levels of alpha-beta (engine/strength.py lobby_levels): weaker ones look ahead less
  // and err, in at most move_time seconds a move; the perfect one solves the game each move, or,
  // where it cannot at once, deepens for full_move_time seconds.
  const { levels, move_time: MOVE_TIME, full_move_time: FULL_MOVE_TIME } =
    JSON.parse(document.getElementById("levels-data").textContent);
  const LEVELS = levels.map((l) => l.level);
  const LEVEL_NAMES = Object.fromEntries(levels.map((l) => [l.level, l.name]));
  const form = document.getElementById("create-form");
  const optionsBox = document.getElementById("options");
  const seatsBox = document.getElementById("seats");
  const errorBox = document.querySelector('[data-testid="form-error"]');
  let current = null;
  let optionFollowers = [];  // each seat's update when an option changes
  // an option can make the game too big to solve each move (Blacksin's hidden deck)
  optionsBox.addEventListener("input", () => optionFollowers.forEach((f) => f()));

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v == null || v === false) continue;
      if (k === "text") node.textContent = v;
      else if (k === "dataset") Object.assign(node.dataset, v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) if (c != null) node.append(c);
    return node;
  }

  function choose(name) {
    current = games[name];
    document.querySelectorAll(".game-card").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.game === name)));
    document.getElementById("form-title").textContent = `New game of ${current.title}`;
    optionsBox.replaceChildren(el("legend", { text: "Options" }), ...current.options.map(optionField));
    if (!current.options.length) optionsBox.append(el("p", { class: "muted", text: "This game has no options." }));
    optionFollowers = [];
    seatsBox.replaceChildren(el("legend", { text: "Seats" }), ...current.sides.map((side, i) => seatField(side, i)));
    errorBox.hidden = true;
    history.replaceState(null, "", `?game=${name}`);
  }

  function optionField(opt) {
    const id = `opt-${opt.name}`;
    let input;
    const dflt = opt.default == null ? "" : String(opt.default);
    if (opt.type === "bool") {
      input = el("input", { type: "checkbox", id, name: opt.name, checked: opt.default === true || dflt === "true" });
    } else if (opt.type === "choice") {
      input = el("select", { id, name: opt.name }, ...opt.choices.map((c) => el("option", { value: c, text: c, selected: c === dflt })));
    } else if (opt.type === "int") {
      input = el("input", { type: "number", id, name: opt.name, value: dflt, min: opt.min, max: opt.max, placeholder: opt.default == null ? "(none)" : null });
    } else {
      input = el("input", { type: "text", id, name: opt.name, value: dflt, placeholder: opt.default == null ? "(none)" : null, spellcheck: "false" });
    }
    input.dataset.option = opt.name;
    input.dataset.type = opt.type;
    // (a bound no person would reach, as a seed's, is not worth a word)
    const bounds = [opt.min != null ? `min ${opt.min}` : null, opt.max != null && opt.max < 1e6 ? `max ${opt.max}` : null].filter(Boolean).join(", ");
    return el("label", { class: "field", for: id },
      el("span", { class: "field-name", text: OPTION_LABELS[opt.name] || cap(opt.name) }), input,
      el("span", { class: "field-help", text: opt.help + (bounds ? ` (${bounds})` : "") }));
  }

  /** Options as GAMES.md names them, in words (the engine's name is the field's own). */
  const OPTION_LABELS = {
    piles: "Piles (sticks in each)", misere: "Misère rule", board: "Board", edges: "Your own edges",
    start: "Start terminal", goal: "Goal terminal", seed: "Seed", first: "Who moves first",
    deck_count: "Cards in the deck", deck: "Deck order", hidden: "Hidden deck", cells: "Start board",
  };
  /** Whether the perfect level deepens against the clock here: a game too big to solve each
   * move (the engine's default_depth), or one with chance in it (a hidden deck). */
  function unsolvable() {
    const chance = current.has_chance && [...optionsBox.querySelectorAll('input[type="checkbox"]')].some((b) => b.checked);
    return !!current.default_depth || chance;
  }
  function levelText(n) {
    const time = n < LEVELS[0] ? `thinks up to ${MOVE_TIME} s a move` : unsolvable() ? `thinks ${FULL_MOVE_TIME} s a move` : "solves the game each move";
    return `${LEVEL_NAMES[n]} (${n}) · ${time}`;
  }
  const ALGOS = [
    ["alphabeta", "Alpha-beta"], ["minimax", "Minimax (no pruning)"], ["expecti", "Expectiminimax"],
    ["model", "Model of its opponent"], ["random", "Random moves"],
  ];

  function seatField(side, i) {
    const kind = el("select", { "data-testid": `seat-${i}-kind`, name: `seat-${i}-kind`, "aria-label": `${cap(side)}: who plays` },
      el("option", { value: "human", text: "Human", selected: i === 0 }),
      el("option", { value: "ai", text: "Computer", selected: i === 1 }));
    const algos = ALGOS.filter(([a]) => (a !== "expecti" || current.has_chance));
    const algo = el("select", { "data-testid": `seat-${i}-algo`, "aria-label": `${cap(side)}: algorithm` },
      ...algos.map(([v, t]) => el("option", { value: v, text: t })),
      ...current.policies.map((p) => el("option", { value: p, text: p === "rules" ? "Rule-based (the seed's)" : `Fixed player: ${p}` })));
    // A game too big to solve each move (default_depth > 0) deepens for 2 s a move, as deep as
    // that gets (Bridg-It 4: 7-8 plies; a small Shannon board: solved), with no depth cap.
    const depth = el("input", { type: "number", min: 0, max: 60, value: 0, "data-testid": `seat-${i}-depth`, title: "plies; 0 = to the end of the game" });
    const time = el("input", { type: "number", min: 0.1, max: 600, step: 0.1, value: unsolvable() ? FULL_MOVE_TIME : "", placeholder: "–", "data-testid": `seat-${i}-time`, title: "seconds per move (iterative deepening)" });
    const spec = el("input", { type: "text", "data-testid": `seat-${i}-spec`, name: `seat-${i}-spec`, spellcheck: "false" });
    const level = el("select", { "data-testid": `seat-${i}-level`, "aria-label": `${cap(side)}: level` },
      ...LEVELS.map((n) => el("option", { value: String(n), text: levelText(n) })));
    const levelLabel = el("label", { class: "seat-level" }, " level ", level);
    const advanced = el("details", { class: "ai-advanced" }, el("summary", { text: "Search settings" }),
      el("span", { class: "ai-details" }, el("label", {}, "algorithm ", algo), el("label", {}, " depth ", depth),
        el("label", {}, " time ", time, " s")),
      el("label", { class: "spec" }, " agent, as the command line writes it ", spec));
    const row = el("div", { class: "seat-row", dataset: { seat: String(i) } },
      el("span", { class: `seat-dot seat-${i}` }), el("strong", { text: cap(side) }), kind, levelLabel, advanced);
    optionFollowers.push(() => {
      // the perfect level's clock follows the options (Blacksin's hidden deck needs one)
      [...level.options].forEach((o) => { o.text = levelText(Number(o.value)); });
      if (!time.dataset.edited) time.value = unsolvable() ? FULL_MOVE_TIME : "";
      sync();
    });
    time.addEventListener("input", () => { time.dataset.edited = "1"; });

    function sync() {
      const ai = kind.value === "ai";
      advanced.hidden = !ai;
      const a = algo.value;
      const noSearch = a === "random" || current.policies.includes(a);
      levelLabel.hidden = !ai || a !== "alphabeta";
      const weak = a === "alphabeta" && level.value !== "10";
      depth.disabled = time.disabled = noSearch || weak;
      if (!ai) { spec.value = "human"; return; }
      if (weak) { spec.value = `alphabeta:strength=${level.value}`; return; }
      const parts = [];
      if (!noSearch && Number(depth.value) > 0) parts.push(`depth=${depth.value}`);
      if (!noSearch && time.value) parts.push(`time=${time.value}`);
      if (a === "model") parts.unshift("opponent=random");
      spec.value = parts.length ? `${a}:${parts.join(",")}` : a;
    }
    [kind, algo, level, depth, time].forEach((x) => x.addEventListener("input", sync));
    sync();
    return row;
  }

  function collect() {
    const options = {};
    optionsBox.querySelectorAll("[data-option]").forEach((input) => {
      const opt = current.options.find((o) => o.name === input.dataset.option);
      if (input.type === "checkbox") {
        if (input.checked !== (opt.default === true)) options[opt.name] = input.checked;
      } else if (input.value.trim() !== "" && input.value.trim() !== String(opt.default ?? "")) {
        options[opt.name] = input.value.trim();
      }
    });
    const players = current.sides.map((_, i) => {
      const kind = seatsBox.querySelector(`[data-testid="seat-${i}-kind"]`).value;
      return kind === "human" ? "human" : seatsBox.querySelector(`[data-testid="seat-${i}-spec"]`).value.trim();
    });
    return { game: current.name, options, players };
  }

  // The lobby's choice of game and options, for the other forms of the page (Teach a class).
  ArcadeLobby = { collect, levels: LEVELS.map((n) => [String(n), `${LEVEL_NAMES[n]} (${n})`]) };

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    errorBox.hidden = true;
    const answer = await ArcadeCreate.create(collect());
    if (!answer.ok) {
      errorBox.textContent = answer.error;
      errorBox.hidden = false;
      return;
    }
    ArcadeCreate.open(answer.data);  // keeps the manage token and the invites for this creator
  });

  // Import a record (a file downloaded from a replay): the game is rebuilt move by move on the
  // server as a new game between two people, and its replay opens, to continue from any point.
  const importInput = document.querySelector('[data-testid="import-record"]');
  const importError = document.querySelector('[data-testid="import-error"]');
  importInput.addEventListener("change", async () => {
    importError.hidden = true;
    const file = importInput.files[0];
    if (!file) return;
    let record;
    try {
      record = JSON.parse(await file.text());
      if (!record || typeof record.game !== "string" || !Array.isArray(record.moves)) throw new Error("not a game record");
    } catch (err) {
      importError.textContent = `${file.name} is not a game record (JSON with game, options and moves): ${err.message}`;
      importError.hidden = false;
      return;
    }
    // (each move with its recorded search figures; the players as recorded, so that the
    // replay names them: a finished game's AI has nothing more to play)
    const players = Array.isArray(record.players) && record.players.length === 2 && record.status === "over"
      ? record.players : ["human", "human"];
    const answer = await ArcadeCreate.create({ game: record.game, options: record.options || {},
                                               players, moves: record.moves });
    if (!answer.ok) {
      importError.textContent = `The record could not be imported: ${answer.error}`;
      importError.hidden = false;
      return;
    }
    location.href = `/replay/${answer.data.id}`;
  });

  document.querySelectorAll(".game-card").forEach((b) => b.addEventListener("click", () => choose(b.dataset.game)));
  const wanted = new URLSearchParams(location.search).get("game");
  choose(games[wanted] ? wanted : catalog.games[0].name);

})();
