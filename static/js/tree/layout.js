/* The tree page's layout: where each node of a traced search goes (top-down for a small tree,
 * an outline sideways for a big one) and the SVG of its nodes, edges and stubs (pruned moves,
 * nodes searched but not drawn). Pure: the geometry in, the elements out. */
import { Teach } from "../teach-common.js";

const { svg } = Teach;

// Node geometry (SVG units) and the two layouts.
export const W = 116, H = 62, PAD = 30;
const GEOM = {
  down: { gx: 20, gy: 70 },
  side: { gx: 96, gy: 16 },
};

function layoutMode(slots, chosen) {
  if (chosen !== "auto") return chosen;
  return slots <= 14 ? "down" : "side";
}

export function computeLayout(trace, byId, chosen) {
  let slot = 0;
  const raw = new Map(); // key -> {s, d}
  const stubs = [];
  const place = (n, d) => {
    const hasStubs = n.pruned || n.omitted;
    if (!n.children.length && !hasStubs) { raw.set(String(n.id), { s: slot++, d }); return; }
    const first = slot;
    n.children.forEach((c) => place(c, d + 1));
    if (n.omitted) { const key = `${n.id}o`; stubs.push({ key, parent: n, kind: "omitted", count: n.omitted }); raw.set(key, { s: slot++, d: d + 1 }); }
    if (n.pruned) { const key = `${n.id}p`; stubs.push({ key, parent: n, kind: "pruned", count: n.pruned }); raw.set(key, { s: slot++, d: d + 1 }); }
    raw.set(String(n.id), { s: (first + slot - 1) / 2, first, d });
  };
  place(trace, 0);
  const mode = layoutMode(slot, chosen);
  // room for the longest move label (15px monospace: about 9.2px a character)
  const longest = Math.max(0, ...byId.filter(Boolean).map((n) => edgeLabel(n).length));
  const label = longest * 9.2 + 24;
  const g = mode === "side" ? { ...GEOM.side, gx: Math.max(GEOM.side.gx, label) }
    : { ...GEOM.down, gx: Math.max(GEOM.down.gx, label - W) };
  const pos = new Map();
  let maxD = 0;
  for (const [key, r] of raw) {
    // top-down: a parent centred over its children; sideways: an outline, the parent on
    // its first child's row, so the root stays at the top left however big the tree
    const s = mode === "side" && r.first != null ? r.first : r.s;
    const d = r.d;
    maxD = Math.max(maxD, d);
    pos.set(key, mode === "down"
      ? { x: PAD + s * (W + g.gx), y: PAD + 16 + d * (H + g.gy) }
      : { x: PAD + d * (W + g.gx), y: PAD + s * (H + g.gy) });
  }
  const width = mode === "down" ? PAD * 2 + slot * (W + g.gx) : PAD * 2 + (maxD + 1) * (W + g.gx);
  const height = mode === "down" ? PAD * 2 + 16 + (maxD + 1) * (H + g.gy) : PAD * 2 + slot * (H + g.gy);
  return { mode, pos, stubs, width, height };
}

function anchor(geo, key, end) {
  const p = geo.pos.get(String(key));
  if (geo.mode === "down") return end === "out" ? [p.x + W / 2, p.y + H] : [p.x + W / 2, p.y];
  return end === "out" ? [p.x + W, p.y + H / 2] : [p.x, p.y + H / 2];
}

export function makeEdge(geo, parent, key, child, stubKind) {
  const [x1, y1] = anchor(geo, parent.id, "out");
  const [x2, y2] = anchor(geo, key, "in");
  const d = geo.mode === "down"
    ? `M${x1},${y1} C${x1},${(y1 + y2) / 2} ${x2},${(y1 + y2) / 2} ${x2},${y2}`
    : `M${x1},${y1} C${(x1 + x2) / 2},${y1} ${(x1 + x2) / 2},${y2} ${x2},${y2}`;
  const cls = ["edge", stubKind ? `edge-${stubKind}` : "", child && child.cutoff ? "edge-cut" : ""].join(" ");
  const g = svg("g", { class: cls, dataset: { edge: String(key) } }, svg("path", { d }));
  if (child && child.move != null) {
    const [lx, ly, anchorText] = geo.mode === "down" ? [x2, y2 - 10, "middle"] : [x2 - 10, y2 - 8, "end"];
    g.append(svg("text", { x: lx, y: ly, class: "edge-move", "text-anchor": anchorText, text: edgeLabel(child) }));
  }
  return g;
}

/** The label on the edge into a node: its move, and for a root move searched in passes the pass. */
function edgeLabel(n) {
  return n.move == null ? "" : n.pass ? `${n.move} · pass ${n.pass}` : n.move;
}

function kindGlyph(kind) {
  return { max: "▲", min: "▼", chance: "◆" }[kind] ?? "";
}

export function makeNode(geo, n, words) {
  const { CUTS, windowOf, tooltip } = words;
  const p = geo.pos.get(String(n.id));
  const kinds = ["tn", `k-${n.kind}`];
  if (n.tt_hit) kinds.push("tt");
  if (n.cutoff) kinds.push("cut");
  if (n.id === 0) kinds.push("root");
  const g = svg("g", { class: kinds.join(" "), transform: `translate(${p.x},${p.y})`,
    dataset: { node: String(n.id), kind: n.kind } });
  g.append(svg("rect", { class: "tn-box", width: W, height: H, rx: n.kind === "leaf" || n.kind === "terminal" ? 4 : 12 }));
  const glyph = kindGlyph(n.kind);
  if (glyph) g.append(svg("text", { class: "tn-glyph", x: 9, y: 19, text: glyph }));
  g.append(svg("text", { class: "tn-value", x: W / 2, y: 35, "text-anchor": "middle", text: "?" }));
  g.append(svg("text", { class: "tn-window", x: W / 2, y: 55, "text-anchor": "middle", text: windowOf(n) }));
  if (n.tt_hit) {
    g.append(svg("circle", { class: "tn-tt", cx: W - 4, cy: 4, r: 12 }),
      svg("text", { class: "tn-tt-text", x: W - 4, y: 9, "text-anchor": "middle", text: "T" }));
  }
  if (n.cutoff) g.append(svg("text", { class: "tn-cut", x: W + 4, y: H + 4, text: "✂" }));
  if (n.cut) g.append(svg("text", { class: "tn-cut-why", x: 24, y: 17, text: `✂ ${CUTS[n.cut].short}` }));
  g.append(svg("title", { text: tooltip(n) }));
  if (n.tt_hit) g.dataset.ttHit = "";
  if (n.cutoff) g.dataset.cutoff = "";
  if (n.cut) g.dataset.cut = n.cut;
  if (n.pass) g.dataset.pass = String(n.pass);
  g.dataset.bound = n.bound || "exact";
  return g;
}

export function makeStub(geo, stub, recorded) {
  const p = geo.pos.get(stub.key);
  const pruned = stub.kind === "pruned";
  const attrs = pruned ? { node: stub.key, pruned: String(stub.count) } : { stub: "omitted", omitted: String(stub.count) };
  const g = svg("g", { class: `tn stub stub-${stub.kind}`, transform: `translate(${p.x},${p.y})`, dataset: attrs });
  g.append(svg("rect", { class: "tn-box", width: W, height: H, rx: 12 }));
  g.append(svg("text", { class: "stub-text", x: W / 2, y: 28, "text-anchor": "middle",
    text: pruned ? `✂ ${stub.count} pruned` : `… ${stub.count} more` }));
  g.append(svg("text", { class: "stub-sub", x: W / 2, y: 48, "text-anchor": "middle",
    text: pruned ? "never searched" : "searched, not drawn" }));
  g.append(svg("title", { text: pruned
    ? `${stub.count} move(s) of this node were pruned: the cut-off made them irrelevant, so the search never looked at them.`
    : `${stub.count} child node(s) were searched and counted but not drawn (the drawing stops at ${recorded} nodes).` }));
  return g;
}
