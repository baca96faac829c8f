/* The lobby's "Teach a class": a class of the game and options chosen in the lobby's form,
 * the computer at one of the lobby's levels. The teacher's token stays in this browser
 * (localStorage "arcade.class.<id>"), as the lobby keeps a game's manage token. */
"use strict";
import { ArcadeLobby } from "./lobby.js";
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
    localStorage.setItem(`arcade.class.${data.id}`, data.teacher_token);
    location.href = data.dashboard_url;
  });
})();
