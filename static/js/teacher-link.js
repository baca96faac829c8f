/* The teacher's secret in this browser, and how it gets to another one (the projector PC, a
 * phone): a teacher link is the dashboard's address with the token in its fragment
 * (/class/<id>#token=T, never sent to the server); opened anywhere, the dashboard moves the token
 * into this browser's storage (localStorage "arcade.class.<id>") and drops it from the address
 * bar. "arcade.classes" lists the classes this browser teaches, for the lobby's "Your classes". */
"use strict";
export const TeacherLink = (function () {
  const LIST = "arcade.classes";
  const key = (classId) => `arcade.class.${classId}`;

  function link(classId, token) {
    return `${location.origin}/class/${encodeURIComponent(classId)}#token=${encodeURIComponent(token)}`;
  }

  /** The token of this class: from the address's fragment (kept, then dropped from the
   * address bar) or this browser's storage. Also {created}: the fragment said "just created". */
  function take(classId) {
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    const fromLink = params.get("token");
    if (fromLink) {
      localStorage.setItem(key(classId), fromLink);
      history.replaceState(null, "", location.pathname + location.search);
    }
    return { token: localStorage.getItem(key(classId)), created: params.has("created") };
  }

  function classes() {
    try { return JSON.parse(localStorage.getItem(LIST) || "[]").filter((c) => c && c.id && localStorage.getItem(key(c.id))); }
    catch (e) { return []; }
  }

  /** Keep (or refresh) this class in the browser's list of classes. */
  function remember(entry) {
    const list = classes().filter((c) => c.id !== entry.id);
    list.unshift({ id: entry.id, name: entry.name, code: entry.code, game: entry.game, seen: Date.now() });
    localStorage.setItem(LIST, JSON.stringify(list.slice(0, 30)));
  }

  function forget(classId) {
    localStorage.removeItem(key(classId));
    localStorage.setItem(LIST, JSON.stringify(classes().filter((c) => c.id !== classId)));
  }

  /** Copy text to the clipboard (the Clipboard API, else the selection of ``input``). */
  async function copy(text, input) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch (e) {
      if (!input) return false;
      input.select();
      return document.execCommand && document.execCommand("copy");
    }
  }

  return { link, take, classes, remember, forget, copy, key };
})();
