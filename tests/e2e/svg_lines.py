"""Where the boards' SVG lines are on the screen, read from the page itself (for real clicks)."""

# The point at fraction t along an SVG <line> (Sim's `.sim-line`, Shannon's `.shn-line`), from
# its first end, in CSS pixels of the viewport.
LINE_POINT = """([selector, t]) => {
  const line = document.querySelector(selector);
  if (!line) return null;
  const ctm = line.getScreenCTM();
  const [x1, y1, x2, y2] = ["x1", "y1", "x2", "y2"].map((k) => line[k].baseVal.value);
  const p = new DOMPoint(x1 + t * (x2 - x1), y1 + t * (y2 - y1)).matrixTransform(ctm);
  return [p.x, p.y];
}"""


def line_point(page, selector: str, t: float = 0.5) -> tuple[float, float]:
    """The screen point at fraction ``t`` along the SVG <line> matched by ``selector``."""
    point = page.evaluate(LINE_POINT, [selector, t])
    assert point, f"no line {selector}"
    return (point[0], point[1])
