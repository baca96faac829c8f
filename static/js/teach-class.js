/* The lobby's "Teach a class": a class of the game and options chosen in the lobby's form,
 * the computer at one of the lobby's levels; and "Your classes", the classes this browser
 * teaches. The dashboard opens through the teacher link (teacher-link.js), which keeps the
 * teacher's token in this browser. */
"use strict";
import { ArcadeLobby } from "./lobby.js";
import { TeacherLink } from "./teacher-link.js";
import { ArcadeViews } from "./views.js";
(function () {
  const catalog = JSON.parse(document.getElementById("catalog-data").textContent);
  const form = document.querySelector('[data-testid="teach-class"]');
  const level = form.querySelector('[data-testid="class-level"]');
  const error = form.querySelector('[data-testid="class-error"]');
  for (const [value, text] of ArcadeLobby.levels) level.append(new Option(text, value, false, value === "3"));

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.hidden = true;
    const { game, options } = ArcadeLobby.collect();
    // the full engine deepens for 2 s a move in a game too big to solve each move (as in the lobby)
    const big = catalog.games.find((g) => g.name === game).default_depth;
    const strongest = big ? "alphabeta:time=2" : "alphabeta";
    const body = { name: form.querySelector('[data-testid="class-name"]').value, game, options,
                   opponent: level.value === "10" ? strongest : `alphabeta:strength=${level.value}` };
    let res, data;
    try {
      res = await fetch("/api/classes", { method: "POST", headers: { "Content-Type": "application/json" },
                                          body: JSON.stringify(body) });
      data = await res.json();
    } catch (err) {
      data = { error: `Could not reach the server: ${err}` };
    }
    if (!res || res.status !== 201) {
      error.textContent = data.error || `The server refused (${res.status}).`;
      error.hidden = false;
      return;
    }
    location.href = `${data.teacher_url}&created=1`;
  });

  /** The classes this browser teaches (a class deleted or expired meanwhile is forgotten). */
  async function yourClasses() {
    const box = form.querySelector('[data-testid="your-classes"]');
    const items = [];
    for (const c of TeacherLink.classes()) {
      const token = localStorage.getItem(TeacherLink.key(c.id));
      let res;
      try { res = await fetch(`/api/classes/${encodeURIComponent(c.id)}?token=${encodeURIComponent(token)}`); }
      catch (e) { continue; }
      if (res.status === 404 || res.status === 403) { TeacherLink.forget(c.id); continue; }
      const state = res.ok ? await res.json() : c;
      const n = state.students ? state.students.length : null;
      const game = catalog.games.find((g) => g.name === state.game);
      items.push(ArcadeViews.el("li", { dataset: { classId: c.id } },
        ArcadeViews.el("a", { href: `/class/${encodeURIComponent(c.id)}`, text: state.name }),
        ` · ${game ? game.title : state.game} · code ${state.code}` + (n == null ? "" : ` · ${n} student${n === 1 ? "" : "s"}`)));
    }
    box.querySelector("ul").replaceChildren(...items);
    box.hidden = !items.length;
  }
  yourClasses();
})();
