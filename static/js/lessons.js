/**
 * The lessons page: "Open the tree" posts JSON to /lessons/<name> (the server takes JSON bodies
 * only, so that a form on another site can start nothing) and opens the tree it answers with
 * in a new tab, as the plain form did.
 * (A module: strict, and deferred until the page is parsed.)
 */
async function openLesson(form) {
  const tab = window.open("about:blank", "_blank");  // now, inside the click: no popup blocker
  try {
    const res = await fetch(form.action, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: "{}",
    });
    if (!res.ok) {
      let body = null;
      try { body = await res.json(); } catch (e) { body = null; }
      throw new Error((body && body.error) || `${res.status} ${res.statusText}`);
    }
    if (tab) tab.location.href = res.url; else window.location.href = res.url;
  } catch (err) {
    if (tab) tab.close();
    alert(`Could not open the lesson: ${err.message}`);
  }
}

document.querySelectorAll("form[data-lesson-form]").forEach((form) => {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    openLesson(form);
  });
});
