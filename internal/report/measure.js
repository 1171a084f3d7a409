// Runs only when the page's address ends in #measure (the browser test):
// writes the size of every chart, its marks and its labels into #measure.
if (location.hash === "#measure") {
  const box = (e) => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  const all = (root, sel) => Array.from(root.querySelectorAll(sel), box);
  const charts = Array.from(document.querySelectorAll("svg.chart"), (svg) => {
    const marks = all(svg, ".mark");
    return {id: svg.id, box: box(svg), marks: marks.length, drawn: marks.filter((m) => m.w > 0 && m.h > 0).length,
      xlabels: all(svg, ".xl"), ylabels: all(svg, ".yl"), rlabels: all(svg, ".rl")};
  });
  const empties = Array.from(document.querySelectorAll(".empty"), (e) => e.id);
  const root = document.documentElement;
  document.getElementById("measure").textContent =
    JSON.stringify({width: root.scrollWidth, height: root.scrollHeight, charts, empties});
}
