/* Creating a game from a page (the lobby, a replay's "Continue from here", an imported record):
 * POST /api/games, keep what only the creator gets (the manage token, the other seats' invite
 * links), then open the game holding the first human seat, or as a spectator. */
"use strict";
export const ArcadeCreate = {
  /** POST `body`; resolves to {ok: true, data} or {ok: false, error: "message for people"}. */
  async create(body) {
    let res, data;
    try {
      res = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/json" },
                                        body: JSON.stringify(body) });
      data = await res.json();
    } catch (err) {
      return { ok: false, error: `Could not reach the server: ${err}` };
    }
    if (res.status !== 201) return { ok: false, error: data.error || `The server refused (${res.status}).` };
    return { ok: true, data };
  },

  /** Keep the creator's secrets for the game's page, then go there. */
  open(data) {
    if (data.manage_token) localStorage.setItem(`arcade.manage.${data.id}`, data.manage_token);
    const humans = data.seats.filter((s) => s.join_url);
    if (humans.length > 1) localStorage.setItem(`arcade.invites.${data.id}`, JSON.stringify(humans.slice(1)));  // a reload finds them
    location.href = humans.length ? humans[0].join_url : data.url;
  },
};
