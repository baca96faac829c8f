/* The arena page: the seeds' presets, custom runs, background jobs with progress and cancel,
 * and every run's results (kept by the server) as a table and charts, exportable as JSON/CSV. */
"use strict";
import { Teach } from "./teach-common.js";
(function () {
  const T = Teach;
  const { el } = T;
  const data = JSON.parse(document.getElementById("arena-data").textContent).presets;
  const presets = Object.fromEntries(data.presets.map((p) => [p.name, p]));
  const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
  const runs = new Map(); // id -> the run's JSON (GET /api/arena/<id>)
  const order = [];       // run ids, oldest first
  let polling = null;
  // A run is cancelled with its creator's manage_token (kept in this browser, as the lobby keeps a game's).
  const tokenKey = (id) => `arcade.arena.${id}`;
  const manageToken = (id) => { try { return localStorage.getItem(tokenKey(id)); } catch (e) { return null; } };
  function keepToken(res) {
    try { if (res.manage_token) localStorage.setItem(tokenKey(res.id), res.manage_token); } catch (e) { /* private mode */ }
  }

  // ----- presets ---------------------------------------------------------------------------------
  function renderPresets() {
    const groups = new Map();
    for (const p of data.presets) {
      if (!groups.has(p.group)) groups.set(p.group, []);
      groups.get(p.group).push(p);
    }
    const sections = [];
    for (const [group, list] of groups) {
      sections.push(el("details", { class: "preset-group", open: true }, el("summary", {}, el("h2", { text: group })),
        el("div", { class: "preset-cards" }, ...list.map(presetCard))));
    }
    $("presets").replaceChildren(...sections);
    const wanted = location.hash.slice(1);
    if (wanted && presets[wanted]) {
      const card = document.getElementById(`preset-${wanted}`);
      card.classList.add("highlight");
      card.scrollIntoView({ block: "center" });
    }
  }

  function presetCard(p) {
    const games = el("input", { type: "number", min: 1, max: data.max_games, value: p.games,
      dataset: { testid: "preset-games" }, "aria-label": `games for ${p.title}` });
    const run = el("button", { type: "button", class: "primary", text: "Run", dataset: { testid: "preset-run", preset: p.name } });
    run.addEventListener("click", () => startPreset(p, Number(games.value), run));
    const pub = p.published
      ? el("div", { class: "published", text: `${p.source} published: ${p.published.text}` })
      : el("div", { class: "published muted", text: p.source === "quick" ? "" : `${p.source}: no figures published` });
    return el("article", { class: "card preset", id: `preset-${p.name}`, dataset: { preset: p.name } },
      el("h3", {}, p.title, p.quick ? el("span", { class: "tag", text: "quick" }) : null),
      el("div", { class: "agents", title: `${p.game}${optionsText(p.options)}, run seed ${p.seed}` },
        el("span", { text: `A: ${p.agents[0]}` }), el("span", { text: `B: ${p.agents[1]}` })),
      pub,
      el("p", { class: "note", title: p.note, text: p.note }),
      el("div", { class: "run-row" }, el("label", { class: "small" }, "Games ", games), run));
  }

  function optionsText(opts) {
    const parts = Object.entries(opts || {}).map(([k, v]) => `${k}=${v}`);
    return parts.length ? ` (${parts.join(", ")})` : "";
  }

  async function startPreset(p, games, button) {
    button.disabled = true;
    try {
      const res = await T.getJSON(`/api/arena/presets/${encodeURIComponent(p.name)}`, {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ games: Number.isFinite(games) && games > 0 ? games : p.games }),
      });
      keepToken(res);
      await track(res.id);
    } catch (err) {
      alert(`Could not start ${p.title}: ${err.message}`);
    } finally {
      button.disabled = false;
    }
  }

  // ----- custom runs -------------------------------------------------------------------------------
  $("custom-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = e.target.elements;
    const error = $("custom-error");
    error.hidden = true;
    const options = {};
    for (const part of f.options.value.split(/[;\n]/)) {
      if (!part.trim()) continue;
      const i = part.indexOf("=");
      if (i < 1) { error.textContent = `options: expected key=value, got ${JSON.stringify(part.trim())}`; error.hidden = false; return; }
      options[part.slice(0, i).trim()] = part.slice(i + 1).trim();
    }
    const body = { game: f.game.value, options, agents: [f.a.value.trim(), f.b.value.trim()],
      games: Number(f.games.value), seed: f.seed.value === "" ? null : Number(f.seed.value) };
    try {
      const res = await T.getJSON("/api/arena", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body) });
      keepToken(res);
      await track(res.id);
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });

  // ----- runs: polling ---------------------------------------------------------------------------
  async function track(id) {
    if (!order.includes(id)) order.push(id);
    runs.set(id, await T.getJSON(`/api/arena/${id}`));
    render();
    poll();
    document.querySelector(`[data-run="${id}"]`)?.scrollIntoView({ block: "nearest" });
  }

  // The server lists runs a page at a time, the most recent first, each run whole: one request
  // a page, however many runs there are. "Show older runs" fetches the next page.
  const PAGE = 20;
  let older = null; // the next page's offset, or null
  async function load(offset = 0) {
    const list = await T.getJSON(`/api/arena?offset=${offset}&limit=${PAGE}`);
    const fresh = list.runs.filter((r) => !order.includes(r.id)).map((r) => r.id);
    if (offset) order.unshift(...fresh); else order.push(...fresh);
    for (const r of list.runs) runs.set(r.id, r);
    older = list.next;
    $("arena-older").hidden = older == null;
    render();
    if ([...runs.values()].some((r) => r.status === "running")) poll();
  }
  $("arena-older").addEventListener("click", async (e) => {
    e.target.disabled = true;
    try { await load(older); } catch (err) { alert(`Could not load older runs: ${err.message}`); }
    e.target.disabled = false;
  });

  function poll() {
    if (polling) return;
    polling = setTimeout(async () => {
      polling = null;
      const live = [...runs.values()].filter((r) => r.status === "running");
      try {
        await Promise.all(live.map(async (r) => runs.set(r.id, await T.getJSON(`/api/arena/${r.id}`))));
      } catch (err) { /* the next poll tries again */ }
      render();
      if ([...runs.values()].some((r) => r.status === "running")) poll();
    }, 500);
  }

  async function cancel(id) {
    try {
      runs.set(id, await T.getJSON(`/api/arena/${id}`, { method: "DELETE", headers: { "X-Seat-Token": manageToken(id) || "" } }));
    } catch (err) { alert(err.message); }
    render();
    poll();
  }

  // ----- rendering ------------------------------------------------------------------------------
  function title(run) {
    const p = run.preset && presets[run.preset];
    return p ? p.title : `${run.game}${optionsText(run.options)}: ${run.agents[0]} vs ${run.agents[1]}`;
  }

  function short(run) {
    const t = title(run);
    return t.length > 44 ? t.slice(0, 42) + "…" : t;
  }

  function render() {
    renderRuns();
    renderTable();
    renderCharts();
  }

  function renderRuns() {
    const box = $("arena-runs");
    if (!order.length) return;
    const cards = order.slice().reverse().map((id) => {
      const run = runs.get(id);
      if (!run) return null;
      const res = run.results || {};
      const played = res.games ?? run.played ?? 0;
      const total = run.games;
      const pct = total ? Math.round((100 * played) / total) : 0;
      const elapsed = run.elapsed || 0;
      let eta = "";
      if (run.status === "running" && played > 0 && played < total) {
        eta = ` · about ${duration((elapsed / played) * (total - played))} left`;
      }
      const cancelButton = run.status === "running" && manageToken(id)
        ? el("button", { type: "button", class: "secondary", text: "Cancel", dataset: { testid: "arena-cancel", run: id } })
        : null;
      if (cancelButton) cancelButton.addEventListener("click", () => cancel(id));
      return el("div", { class: "run-card", dataset: { run: id, status: run.status } },
        el("div", {}, el("span", { class: "run-title", text: title(run) }), " ",
          el("span", { class: `status-${run.status}`, dataset: { testid: "arena-status" }, text: run.status }),
          el("div", { class: "small muted", text: `${T.fmt(played)} of ${T.fmt(total)} games · ${duration(elapsed)}${eta}` +
            (run.error ? ` · ${run.error}` : "") })),
        cancelButton || el("span"),
        el("div", { class: "progress", role: "progressbar", "aria-label": `games played: ${title(run)}`,
          "aria-valuemin": 0, "aria-valuemax": total, "aria-valuenow": played,
          dataset: { testid: "arena-progress", run: id } },
          el("div", { class: "fill", style: `width: ${pct}%` }), el("div", { class: "label", text: `${pct}%` })));
    });
    box.replaceChildren(...cards.filter(Boolean));
  }

  function duration(s) {
    if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
    const m = Math.floor(s / 60);
    return m < 60 ? `${m} min ${Math.round(s - 60 * m)} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
  }

  function pctText(x) { return x == null ? "–" : `${(100 * x).toFixed(1)}%`; }

  function renderTable() {
    const head = el("tr", {},
      el("th", { class: "left", text: "Run" }), el("th", { text: "Games" }),
      el("th", { text: "A: W / D / L" }), el("th", { text: "A win %" }),
      el("th", { class: "seed", text: "Seed: W / D / L" }), el("th", { class: "seed", text: "Seed win %" }),
      el("th", { text: "ms / move A · B" }), el("th", { text: "nodes / move A · B" }),
      el("th", { text: "Total s" }), el("th", { class: "seed", text: "Seed's s" }), el("th", { text: "Export" }));
    const rows = order.map((id) => {
      const run = runs.get(id);
      if (!run) return null;
      const res = run.results || {};
      const per = res.per_agent || [{}, {}];
      const p = run.preset && presets[run.preset];
      const pub = p && p.published;
      const perMove = (i, key, scale, f) => (per[i].moves ? f(per[i][key] * scale) : "–");
      const exports = el("td", { class: "exports" },
        el("a", { href: `/api/arena/${id}`, download: `arena-${id}.json`, text: "JSON", dataset: { testid: "export-json" } }),
        el("a", { href: `/api/arena/${id}.csv`, download: `arena-${id}.csv`, text: "CSV", dataset: { testid: "export-csv" } }));
      const wdl = el("td", {}, el("span", { dataset: { col: "wins" }, text: T.fmt(res.wins) }), " / ",
        el("span", { dataset: { col: "draws" }, text: T.fmt(res.draws) }), " / ",
        el("span", { dataset: { col: "losses" }, text: T.fmt(res.losses) }));
      return el("tr", { class: run.status, dataset: { run: id } },
        el("td", { class: "left", title: `${run.agents[0]} vs ${run.agents[1]}, seed ${run.seed}` }, title(run),
          run.status !== "done" ? el("span", { class: `run-status status-${run.status}`, text: ` (${run.status})` }) : null),
        el("td", { text: `${T.fmt(res.games ?? 0)} / ${T.fmt(run.games)}` }),
        wdl,
        el("td", { text: res.games ? pctText(res.win_rate) : "–" }),
        el("td", { class: "seed", title: pub ? `${pub.games} games` : "",
          text: pub ? `${T.fmt(pub.wins)} / ${T.fmt(pub.draws)} / ${T.fmt(pub.losses)}` : "–" }),
        el("td", { class: "seed", text: pub ? pctText(pub.win_rate) : "–" }),
        el("td", { text: `${perMove(0, "seconds_per_move", 1000, T.ms)} · ${perMove(1, "seconds_per_move", 1000, T.ms)}` }),
        el("td", { text: `${perMove(0, "nodes_per_move", 1, T.fmt)} · ${perMove(1, "nodes_per_move", 1, T.fmt)}` }),
        el("td", { text: res.seconds != null ? res.seconds.toFixed(2) : "–" }),
        el("td", { class: "seed", title: pub ? pub.seconds_label : "", text: pub && pub.seconds != null ? String(pub.seconds) : "–" }),
        exports);
    }).filter(Boolean);
    $("arena-table").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  }

  function renderCharts() {
    const done = order.map((id) => runs.get(id)).filter((r) => r && r.results && r.results.games > 0);
    const box = $("arena-chart");
    if (!done.length) return;
    const winRows = done.map((r) => {
      const p = r.preset && presets[r.preset];
      const bars = [{ value: r.results.win_rate * 100, cls: "ours", text: pctText(r.results.win_rate),
        title: `ours: ${r.results.wins} wins of ${r.results.games}` }];
      if (p && p.published && p.published.win_rate != null) {
        bars.push({ value: p.published.win_rate * 100, cls: "seed", text: `${pctText(p.published.win_rate)} (${p.source})`,
          title: p.published.text });
      }
      return { label: short(r), bars };
    });
    const nodeRows = done.map((r) => ({ label: short(r), bars: [
      { value: r.results.per_agent[0].nodes_per_move, cls: "ours", text: T.fmt(r.results.per_agent[0].nodes_per_move) },
      { value: r.results.per_agent[1].nodes_per_move, cls: "bar-b", text: `B: ${T.fmt(r.results.per_agent[1].nodes_per_move)}` }] }));
    const timeRows = done.map((r) => ({ label: short(r), bars: [
      { value: r.results.per_agent[0].seconds_per_move * 1000, cls: "ours", text: `${T.ms(r.results.per_agent[0].seconds_per_move * 1000)} ms` },
      { value: r.results.per_agent[1].seconds_per_move * 1000, cls: "bar-b", text: `B: ${T.ms(r.results.per_agent[1].seconds_per_move * 1000)} ms` }] }));
    const opts = { labelWidth: 380, barWidth: 380, barHeight: 22 };
    box.replaceChildren(
      el("div", {}, T.barChart(winRows, { ...opts, title: "A's win rate" }),
        el("p", { class: "chart-key" }, el("span", { class: "k ours" }), "ours", el("span", { class: "k seed" }), "the seed's published figure")),
      el("div", {}, T.barChart(nodeRows, { ...opts, title: "Nodes per move (log scale)", log: true }),
        el("p", { class: "chart-key" }, el("span", { class: "k ours" }), "agent A", el("span", { class: "k bar-b" }), "agent B")),
      el("div", {}, T.barChart(timeRows, { ...opts, title: "Time per move (log scale)", log: true }),
        el("p", { class: "chart-key" }, el("span", { class: "k ours" }), "agent A", el("span", { class: "k bar-b" }), "agent B")));
  }

  renderPresets();
  renderTable();
  load().catch((err) => { $("arena-runs").textContent = `Could not load the runs: ${err.message}`; });
})();
