'use strict';
const fromJson = id => JSON.parse(document.getElementById(id).textContent);
const CATALOG = fromJson('tessera-catalog');
let state = fromJson('tessera-state');  // what the inputs say (render.hpp: page_data's state)
let D = fromJson('tessera-data');       // the library's answer for `state` (null: not computed yet)
const app = document.getElementById('app');
let wasm = null;      // the library compiled to WebAssembly, once loaded
let selected = null;  // the thread whose elements are highlighted
let hovered = null;   // the thread under the pointer (all its cells outlined, in every operand)
// The memory-access overlay: 'owner' (threads), 'bank' (shared memory) or 'sector' (global), one
// warp's accesses, all of its instructions (-1) or one. The numbers are the library's (render.cpp).
let overlay = 'owner', warp = 0, instr = -1;
// wgmma's shared-memory A and B (render.cpp's "smem"): colored by 4-byte bank or by swizzled
// offset.
let smemColor = 'bank';
let onOverlay = [], grids = [], onSelect = [], onHover = [], pictures = [], onSmem = [];

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined) continue;
    if (k === 'text')
      e.textContent = v;
    else if (k === 'class')
      e.className = v;
    else
      e.setAttribute(k, v);
  }
  for (const k of kids)
    if (k !== null && k !== undefined) e.append(k);
  return e;
}

// Colors. A thread's hue follows its lane (golden-angle steps, so lanes t and t+1 are far apart on
// the wheel) and its lightness and saturation its warp, so neighbouring warps differ as well.
function hsl(h, s, l) {
  const f = n => {
    const k = (n + h / 30) % 12;
    return l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [Math.round(255 * f(0)), Math.round(255 * f(8)), Math.round(255 * f(4))];
}
const colorCache = new Map();
function threadColor(t) {
  if (!colorCache.has(t)) {
    const lane = t % 32, w = t >> 5;
    colorCache.set(t, hsl((lane * 137.508 + 11 * w) % 360, [0.70, 0.55, 0.80, 0.45][w % 4], [
                     0.56, 0.70, 0.44, 0.62
                   ][(w >> 2) % 4]));
  }
  return colorCache.get(t);
}
// Cells of other threads while one is selected: grays only (r = g = b), so tests can count.
function dimColor() {
  return [226, 226, 226];
}
// One color per bank or sector id (the same spread as threads, brighter); other cells: light gray.
function idColor(k) {
  return hsl((k * 137.508 + 20) % 360, 0.75, 0.55);
}
function restColor() {
  return [240, 240, 240];
}
const valueColor = (v, hi) => hsl(240 * v / Math.max(1, hi), 0.55, 0.72);
// The overlay's space: banks are shared memory, sectors global; 'owner' shows the page's --space.
const activeSpace = a => overlay === 'bank' ? 'shared' : overlay === 'sector' ? 'global' : a.space;
const overlayOn = g => overlay !== 'owner' && g.access && !g.access.error;
// An opaque RGBA pixel as one little-endian 32-bit word (byte order r, g, b, a in memory).
const packed = ([r, g, b]) => ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
const css = ([r, g, b]) => `rgb(${r},${g},${b})`;
const fragOf = (g, t) => g.frags[g.frag_of[t]];
// Cell sizes (pixels): a value index is legible from LEGIBLE, two-line T#V# labels from TV_PX.
const LEGIBLE = 24, TV_PX = 32, MAX_CELL = 64;
let gridById = new Map();  // the page's pictures by id (the MMA's A, B and C are linked)

// The cell size at which labels of `digits` characters are drawn in 10-pixel type (paintLabels).
const fitsDigits = digits => Math.max(LEGIBLE, Math.ceil(6.2 * digits + 4));

// The starting cell size: legible (minPx), and one `unit` (rows, cols: an atom, a warp's tile;
// by default the whole picture) in the viewport of at most maxW x maxH pixels where it fits.
function startCell(rows, cols, maxW, maxH, minPx, unit) {
  const [ur, uc] = unit || [rows, cols];
  return Math.max(minPx, Math.min(44, Math.floor(Math.min(maxW / uc, maxH / ur))));
}

// ---------------------------------------------------------------------------------------------
// One picture: a rows x cols grid of cells seen through a viewport of at most maxW x maxH
// pixels. It opens at `start`-pixel cells from the top-left corner, with the whole picture in an
// overview (the minimap, where the picture is larger than the viewport); zoom (buttons, ctrl +
// wheel) keeps the point under the pointer, drag or wheel pans, and only the visible cells are
// drawn. Axis ticks above and left, boundary lines and the hovered thread's outline on layers
// over it (the grid canvas itself holds only the cells' colors).
//   spec: id, rows, cols, start, maxW, maxH, legend (text: what colors and labels mean),
//         color(i) -> packed RGBA, label(i, px) -> [line, ...], edge(i, j) -> 0 none, 1 thread,
//         2 warp, 3 warpgroup, 4 atom; hover(i), click(i), marked() -> cells
function gridView(spec) {
  const g = gridCanvases(spec);
  const paint = () => {
    paintCells(g);
    paintMini(g);
  };
  listenPointer(g);
  listenMini(g);
  const box = el('div', {class: 'gridbox'}, el('div'), g.top, g.left,
                 el('div', {class: 'stack'}, g.canvas, g.lines, g.hi));
  grids.push(paint);
  onHover.push(() => drawOutline(g));
  gridById.set(g.id, g);
  drawGrid(g);
  const legend = spec.legend ?
      el('div', {class: 'legend cell-legend', id: 'legend-' + g.id}, spec.legend) :
      null;
  const node = el('div', {class: 'picture'}, zoomBar(g),
                  el('div', {class: 'gridwrap'}, box, g.mini), legend);
  return {node, paint, g};
}

// A grid's canvases (cells, lines, outline, rulers, minimap) and its view: cell size and offset.
function gridCanvases(spec) {
  const {id, rows: R, cols: C} = spec, start = spec.start;
  const W = Math.min(C * start, spec.maxW), H = Math.min(R * start, spec.maxH);
  const fit = Math.max(1, Math.min(start, Math.floor(Math.min(W / C, H / R))));
  const canvas = el('canvas', {
    id: 'grid-' + id, width: W, height: H, 'data-cell': start, 'data-start': start,
    'data-fit': fit, 'data-rows': R, 'data-cols': C
  });
  const ctx = canvas.getContext('2d'), img = ctx.createImageData(W, H);
  // The minimap: the whole picture in at most 120 x 120 pixels (a cell may be under a pixel).
  const ms = Math.min(120 / C, 120 / R, 8);
  const mini = el('canvas', {
    class: 'minimap', id: 'mini-' + id, width: Math.max(1, Math.round(C * ms)),
    height: Math.max(1, Math.round(R * ms)), title: 'the whole picture: click to move the view'
  });
  return {
    spec, id, R, C, W, H, fit, start, canvas, ctx, img, mini, links: [],
    buf: new Uint32Array(img.data.buffer),
    view: {cell: start, ox: 0, oy: 0},
    lines: el('canvas', {class: 'layer', width: W, height: H}),
    hi: el('canvas', {class: 'layer', id: 'hi-' + id, width: W, height: H}),
    top: el('canvas', {class: 'ruler', width: W, height: 16}),
    left: el('canvas', {class: 'ruler', width: 30, height: H}),
    zoomInfo: el('span', {class: 'legend', id: 'zoom-' + id}),
  };
}

// The rows [r0, r1) and columns [c0, c1) in view, and where a cell is drawn.
function visibleCells(g) {
  const c = g.view.cell, {ox, oy} = g.view;
  return [
    Math.floor(oy / c), Math.min(g.R, Math.ceil((oy + g.H) / c)), Math.floor(ox / c),
    Math.min(g.C, Math.ceil((ox + g.W) / c))
  ];
}
const cellRect = (g, r, c) => [c * g.view.cell - g.view.ox, r * g.view.cell - g.view.oy];

// The cells' colors and labels (a thread pick or an overlay change redraws only these).
function paintCells(g) {
  const {spec, W, H, C, buf, ctx} = g;
  const cell = g.view.cell, gap = cell >= 5 ? 1 : 0, [r0, r1, c0, c1] = visibleCells(g);
  buf.fill(0xffffffff);
  for (let r = r0; r < r1; ++r)
    for (let c = c0; c < c1; ++c) {
      const rgba = spec.color(r * C + c);
      if (rgba === null) continue;
      const [x, y] = cellRect(g, r, c), xa = Math.max(0, x), xb = Math.min(W, x + cell - gap);
      for (let yy = Math.max(0, y); yy < Math.min(H, y + cell - gap); ++yy)
        buf.fill(rgba, yy * W + xa, yy * W + xb);
    }
  ctx.putImageData(g.img, 0, 0);
  g.canvas.dataset.label = '';
  g.canvas.dataset.font = cell >= 16 && spec.label ? paintLabels(g, r0, r1, c0, c1) : 0;
}

// The labels of the visible cells in one type size, as large as the widest fits (at most 14
// pixels; none under 7); returns the size (0: none drawn).
function paintLabels(g, r0, r1, c0, c1) {
  const {ctx, C, spec} = g, cell = g.view.cell, all = [];
  let lines = 1, chars = 1;
  for (let r = r0; r < r1; ++r)
    for (let c = c0; c < c1; ++c) {
      const ls = spec.label(r * C + c, cell);
      if (!ls || !ls.length) continue;
      all.push([r, c, ls]);
      lines = Math.max(lines, ls.length);
      for (const t of ls) chars = Math.max(chars, t.length);
    }
  const fs = Math.floor(Math.min(14, (cell - 3) / (lines * 1.15), (cell - 3) / (0.62 * chars)));
  if (!all.length || fs < 7) return 0;  // unreadable: the hover line says it
  g.canvas.dataset.label = all[0][2].join(' ');  // the first drawn (for tests)
  for (const [r, c, ls] of all) {
    const [x, y] = cellRect(g, r, c);
    ls.forEach((t, k) => {
      const sp = labelSprite(t, fs), mid = y + cell / 2 + (k - (ls.length - 1) / 2) * fs * 1.1;
      ctx.drawImage(sp, Math.round(x + (cell - sp.width) / 2), Math.round(mid - sp.height / 2));
    });
  }
  return fs;
}

// A label drawn once into a small canvas per (text, size), then copied (drawImage is several
// times faster than fillText, and a page redraws hundreds of labels per thread pick).
const sprites = new Map();
function labelSprite(text, fs) {
  const key = fs + ' ' + text;
  let sp = sprites.get(key);
  if (sp) return sp;
  const font = `${fs}px monospace`;
  measurer.font = font;
  sp = el('canvas', {width: Math.ceil(measurer.measureText(text).width) + 2, height: fs + 4});
  const x = sp.getContext('2d');
  x.font = font;
  x.fillStyle = '#000';
  x.textBaseline = 'middle';
  x.fillText(text, 1, sp.height / 2);
  if (sprites.size > 20000) sprites.clear();
  sprites.set(key, sp);
  return sp;
}

// Everything, after a zoom or a pan: the cells, the boundary lines, the rulers, the outline and
// the minimap's view.
function drawGrid(g) {
  const [r0, r1, c0, c1] = visibleCells(g), cell = g.view.cell;
  paintCells(g);
  drawGridLines(g, r0, r1, c0, c1);
  drawRulers(g, r0, r1, c0, c1);
  drawOutline(g);
  paintMini(g);
  g.zoomInfo.textContent = ` ${cell}-pixel cells` +
      (r1 - r0 < g.R || c1 - c0 < g.C ?
           `, rows ${r0}-${r1 - 1} and columns ${c0}-${c1 - 1} of ${g.R} x ${g.C}` :
           '');
  Object.assign(g.canvas.dataset, {cell, ox: g.view.ox, oy: g.view.oy});
}

// The minimap: every cell's color (sampled per pixel) and the view as a rectangle; hidden while
// the whole picture is in view.
function paintMini(g) {
  const m = g.mini, w = m.width, h = m.height, [r0, r1, c0, c1] = visibleCells(g);
  m.hidden = r0 === 0 && c0 === 0 && r1 === g.R && c1 === g.C;
  m.dataset.view = [r0, r1, c0, c1].join(',');
  if (m.hidden) return;
  const x = m.getContext('2d'), img = x.createImageData(w, h);
  const buf = new Uint32Array(img.data.buffer);
  for (let y = 0; y < h; ++y) {
    const r = Math.floor(y * g.R / h);
    for (let k = 0; k < w; ++k) {
      const v = g.spec.color(r * g.C + Math.floor(k * g.C / w));
      buf[y * w + k] = v === null ? 0xffffffff : v;
    }
  }
  x.putImageData(img, 0, 0);
  x.strokeStyle = '#000';
  x.lineWidth = 2;
  const sx = w / g.C, sy = h / g.R;
  x.strokeRect(c0 * sx + 1, r0 * sy + 1, Math.max(2, (c1 - c0) * sx - 2),
               Math.max(2, (r1 - r0) * sy - 2));
}

// Click or drag on the minimap: the view centered there.
function listenMini(g) {
  const go = ev => {
    const b = g.mini.getBoundingClientRect(), v = g.view;
    v.ox = Math.round((ev.clientX - b.left) / b.width * g.C * v.cell - g.W / 2);
    v.oy = Math.round((ev.clientY - b.top) / b.height * g.R * v.cell - g.H / 2);
    moved(g);
  };
  g.mini.addEventListener('mousedown', go);
  g.mini.addEventListener('mousemove', ev => {
    if (ev.buttons & 1) go(ev);
  });
}

function drawGridLines(g, r0, r1, c0, c1) {
  const {spec, W, H, R, C} = g, lc = g.lines.getContext('2d');
  lc.clearRect(0, 0, W, H);
  if (!spec.edge) return;
  const paths = [null, new Path2D(), new Path2D(), new Path2D(), new Path2D()], cell = g.view.cell;
  for (let r = r0; r < r1; ++r)
    for (let c = c0; c < c1; ++c) {
      const i = r * C + c, [x, y] = cellRect(g, r, c);
      if (c + 1 < C) {
        const e = spec.edge(i, i + 1);
        if (e && (e > 1 || cell >= 10)) {
          paths[e].moveTo(x + cell - 0.5, y);
          paths[e].lineTo(x + cell - 0.5, y + cell);
        }
      }
      if (r + 1 < R) {
        const e = spec.edge(i, i + C);
        if (e && (e > 1 || cell >= 10)) {
          paths[e].moveTo(x, y + cell - 0.5);
          paths[e].lineTo(x + cell, y + cell - 0.5);
        }
      }
    }
  [[1, 'rgba(0,0,0,0.25)', 1], [4, 'rgba(0,60,220,0.9)', cell >= 8 ? 2 : 1],
   [2, 'rgba(0,0,0,0.8)', cell >= 8 ? 2 : 1], [3, '#c00', cell >= 8 ? 3 : 2]]
      .forEach(([k, s, w]) => {
        lc.strokeStyle = s;
        lc.lineWidth = w;
        lc.stroke(paths[k]);
      });
}

function drawRulers(g, r0, r1, c0, c1) {
  const cell = g.view.cell, step = [1, 2, 4, 8, 16, 32, 64, 128].find(k => k * cell >= 26) || 256;
  const tc = g.top.getContext('2d'), lc = g.left.getContext('2d');
  tc.clearRect(0, 0, g.W, 16);
  lc.clearRect(0, 0, 30, g.H);
  for (const x of [tc, lc]) {
    x.fillStyle = '#5b6673';
    x.font = '10px monospace';
    x.textBaseline = 'middle';
  }
  tc.textAlign = 'center';
  lc.textAlign = 'right';
  for (let c = Math.ceil(c0 / step) * step; c < c1; c += step) {
    const x = cellRect(g, 0, c)[0];
    tc.fillRect(x, 12, 1, 4);
    tc.fillText(c, x + cell / 2, 6);
  }
  for (let r = Math.ceil(r0 / step) * step; r < r1; r += step) {
    const y = cellRect(g, r, 0)[1];
    lc.fillRect(26, y, 4, 1);
    lc.fillText(r, 24, Math.max(6, y + cell / 2));
  }
}

// The hovered thread's outline.
function drawOutline(g) {
  const {W, H, C} = g, hc = g.hi.getContext('2d');
  hc.clearRect(0, 0, W, H);
  const cells = g.spec.marked ? g.spec.marked() : null;
  if (!cells) return;
  const cell = g.view.cell;
  hc.strokeStyle = '#000';
  hc.lineWidth = cell >= 8 ? 2 : 1;
  hc.fillStyle = 'rgba(255,255,255,0.35)';
  for (const i of cells) {
    const [x, y] = cellRect(g, Math.floor(i / C), i % C);
    if (x + cell < 0 || y + cell < 0 || x > W || y > H) continue;
    hc.fillRect(x, y, cell, cell);
    hc.strokeRect(x + 0.5, y + 0.5, Math.max(1, cell - 2), Math.max(1, cell - 2));
  }
}

function clampView(g) {
  const v = g.view;
  v.ox = Math.max(0, Math.min(v.ox, g.C * v.cell - g.W));
  v.oy = Math.max(0, Math.min(v.oy, g.R * v.cell - g.H));
}

// After a pan or a zoom: redrawn, and the linked pictures follow (the MMA's A shares C's rows,
// B its columns: same cell size and offset along the shared axis).
function moved(g) {
  clampView(g);
  drawGrid(g);
  const seen = new Set([g]), todo = [g];
  while (todo.length) {
    const a = todo.pop();
    for (const [b, axis] of a.links) {
      if (seen.has(b)) continue;
      seen.add(b);
      const f = a.view.cell / b.view.cell;
      b.view.cell = a.view.cell;
      if (axis === 'rows')
        b.view.oy = a.view.oy, b.view.ox = Math.round(b.view.ox * f);
      else
        b.view.ox = a.view.ox, b.view.oy = Math.round(b.view.oy * f);
      clampView(b);
      drawGrid(b);
      todo.push(b);
    }
  }
}

// Zoom by f about the point (px, py) of the viewport (its center by default): the point of the
// picture under it stays under it (up to rounding to whole pixels).
function zoomGrid(g, f, px = g.W / 2, py = g.H / 2) {
  const v = g.view, want = f > 1 ? Math.max(v.cell + 1, Math.round(v.cell * f)) :
                                   Math.min(v.cell - 1, Math.round(v.cell * f));
  const cell = Math.max(g.fit, Math.min(MAX_CELL, want));
  if (cell === v.cell) return;
  const x = (v.ox + px) / v.cell, y = (v.oy + py) / v.cell;  // in cells
  v.ox = Math.round(x * cell - px);
  v.oy = Math.round(y * cell - py);
  v.cell = cell;
  moved(g);
}

// The view moved so that cell (row, col) is in it (centered when it was not).
function revealCell(g, row, col) {
  const v = g.view, x = col * v.cell - v.ox, y = row * v.cell - v.oy;
  if (x < 0 || x + v.cell > g.W) v.ox = Math.round((col + 0.5) * v.cell - g.W / 2);
  if (y < 0 || y + v.cell > g.H) v.oy = Math.round((row + 0.5) * v.cell - g.H / 2);
  moved(g);
}

// The cell under the pointer, -1 if none.
function cellAt(g, ev) {
  const b = g.canvas.getBoundingClientRect();
  const col = Math.floor((ev.clientX - b.left + g.view.ox) / g.view.cell),
        row = Math.floor((ev.clientY - b.top + g.view.oy) / g.view.cell);
  return row >= 0 && row < g.R && col >= 0 && col < g.C ? row * g.C + col : -1;
}

// Hover and click a cell; drag or wheel to pan, ctrl+wheel to zoom about the pointer.
function listenPointer(g) {
  const {canvas, spec, view} = g;
  let drag = null;
  const pan = (ox, oy) => {
    view.ox = ox;
    view.oy = oy;
    moved(g);
  };
  canvas.addEventListener('mousedown', ev => {
    drag = {x: ev.clientX, y: ev.clientY, ox: view.ox, oy: view.oy, moved: false};
  });
  window.addEventListener('mouseup', () => {
    setTimeout(() => {
      drag = null;
    }, 0);
  });
  canvas.addEventListener('mousemove', ev => {
    if (drag && ev.buttons & 1) {
      const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
      if (drag.moved) return pan(drag.ox - dx, drag.oy - dy);
    }
    const i = cellAt(g, ev);
    if (i >= 0 && spec.hover) spec.hover(i);
  });
  canvas.addEventListener('click', ev => {
    if (drag && drag.moved) return;
    const i = cellAt(g, ev);
    if (i >= 0 && spec.click) spec.click(i);
  });
  canvas.addEventListener('wheel', ev => {
    const b = canvas.getBoundingClientRect();
    if (ev.ctrlKey || ev.metaKey) {
      ev.preventDefault();
      zoomGrid(g, ev.deltaY < 0 ? 1.5 : 1 / 1.5, ev.clientX - b.left, ev.clientY - b.top);
    } else {  // pan, as a scrolling panel: at the picture's edge the page scrolls instead
      const {ox, oy} = view;
      pan(view.ox + ev.deltaX, view.oy + ev.deltaY);
      if (view.ox !== ox || view.oy !== oy) ev.preventDefault();
    }
  }, {passive: false});
}

// The zoom buttons (about the view's center), the whole picture, the start, and the cell size.
function zoomBar(g) {
  const button = (text, what, title, f) => {
    const b = el('button', {class: 'zoom', id: `${what}-${g.id}`, text, title});
    b.addEventListener('click', f);
    return b;
  };
  const reset = cell => () => {
    g.view.cell = cell();
    g.view.ox = g.view.oy = 0;
    moved(g);
  };
  return el('div', {class: 'zoombar'}, button('+', 'zoom-in', 'zoom in', () => zoomGrid(g, 1.5)),
            button('\u2212', 'zoom-out', 'zoom out', () => zoomGrid(g, 1 / 1.5)),
            button('whole', 'zoom-fit', 'the whole picture', reset(() => g.fit)),
            button('1:1', 'zoom-start', 'the starting size', reset(() => g.start)), g.zoomInfo);
}

// A picture of thread ownership (grid JSON from render.cpp); `transpose` draws it columns down
// (B above C: its n axis across, as C's).
// `box`: the viewport (maxW, maxH) and the starting cell size (start).
function ownershipGrid(g, id, box, transpose, atomOf) {
  const R = transpose ? g.cols : g.rows, C = transpose ? g.rows : g.cols;
  const cellOf =
      transpose ? i => (i % C) * g.cols + Math.floor(i / C) : i => i;  // display -> grid cell
  const shown =
      transpose ? k => (k % g.cols) * C + Math.floor(k / g.cols) : k => k;  // grid cell -> display
  const hover = el('div', {
    class: 'hover mono',
    id: 'hover-' + id,
    text: 'hover: the thread outlined everywhere; click: select it'
  });
  // A wgmma operand in shared memory with its canonical tile: per cell the bank and the swizzled
  // offset; lines at wgmma blocks (red) and swizzle atoms (blue).
  const sm = g.smem && !g.smem.error ? g.smem : null;
  const look = ownershipLook(g, sm);
  const legend = box.legend === false && !sm ? undefined : ownershipLegend(g, sm, look);
  const view = gridView({
    id,
    rows: R,
    cols: C,
    start: box.start,
    maxW: box.maxW,
    maxH: box.maxH,
    legend,
    color: i => look.color(cellOf(i)),
    label: (i, px) => look.label(cellOf(i), px),
    edge: (i, j) => ownershipEdge(g, sm, atomOf, cellOf(i), cellOf(j)),
    marked: () => look.replicated || hovered === null || hovered >= g.frag_of.length ?
        null :
        fragOf(g, hovered).map(shown),
    hover: i => showOwner(g, sm, hover, cellOf(i)),
    click: i => {
      const t = g.owner[cellOf(i)];
      if (t >= 0) select(t);
    },
  });
  grids[grids.length - 1] = () => {
    look.lit = overlayOn(g) ? accessIds(g) : null;
    view.paint();
  };
  if (sm) onSmem.push(view.paint);
  pictures.push({
    id,
    title: g.title,
    rows: R,
    cols: C,
    rowName: transpose ? g.col_name : g.row_name,
    colName: transpose ? g.row_name : g.col_name,
    legend: exportLegend(g, sm, look),
    color: i => look.exportColor(cellOf(i)),
    label: i => {
      const k = cellOf(i);
      return g.owner[k] < 0 ? [] :
          sm                ? [String(sm.bank[k])] :
          look.replicated   ? [`V${g.value[k]}`] :
                              [`T${g.owner[k]}`, `V${g.value[k]}`];
    },
    tip: i => {
      const k = cellOf(i);
      return g.owner[k] < 0 ? '' :
          sm                ? `bank ${sm.bank[k]}, swizzled offset ${sm.phys[k]}` :
                              `T${g.owner[k]}V${g.value[k]}`;
    }
  });
  return el('div', {}, view.node, hover);
}

// What an ownership picture's colors and labels mean (on the page, under the picture).
function ownershipLegend(g, sm, look) {
  if (sm)
    return 'color and number: the 4-byte shared-memory bank of the element\'s swizzled address ' +
        '(or its swizzled offset, as chosen above); ' +
        'lines: wgmma blocks (red), swizzle atoms (blue)';
  if (look.replicated)
    return 'every thread reads the whole tile: color and V# = value index (offset order)';
  return 'color: the owning thread; label T#/V#: thread # holds the element as its value # ' +
      '(smaller cells: V# alone; hover a cell for both); lines: atoms (blue), warps (black), ' +
      'warpgroups (red)';
}
// The same for an export (colors by thread, or by bank for a shared tile; labels T# V#).
function exportLegend(g, sm, look) {
  if (sm) return ['color and number: the 4-byte shared-memory bank of the swizzled address'];
  if (look.replicated) return ['color: owning thread; V#: value index (all threads read it)'];
  return ['color: the owning thread (T#)', 'label T#, V#: thread # holds the element as value #'];
}

// The colors and labels of an ownership picture's cells (grid cell k): by thread, by the
// overlay's bank or sector (`lit`), by offset (a shared-memory operand) or by bank or swizzled
// offset (a wgmma shared tile, `sm`).
function ownershipLook(g, sm) {
  let marks = null, markFor = undefined;
  const mine = () => {  // the selected thread's cells, as a mask
    if (markFor === selected) return marks;
    markFor = selected;
    marks = null;
    if (selected !== null && selected < g.frag_of.length) {
      marks = new Uint8Array(g.owner.length);
      for (const k of fragOf(g, selected)) marks[k] = 1;
    }
    return marks;
  };
  const rest = packed(restColor()), dim = packed(dimColor());
  // A shared-memory operand (wgmma's A and B): every thread's fragment is the whole tile, so the
  // cells are colored by their offset in the tile instead, and hovering outlines nothing.
  const replicated =
      g.frag_of.length > 1 && fragOf(g, 0).length === g.rows * g.cols && !!g.shared[0];
  const maxOffset = replicated ? Math.max(...g.offset) : 0;
  const maxPhys = sm ? Math.max(...sm.phys) : 0;
  const smemRgb = k => smemColor === 'bank' ? idColor(sm.bank[k]) : valueColor(sm.phys[k], maxPhys);
  const threadPacked = [];
  const tp = t => threadPacked[t] || (threadPacked[t] = packed(threadColor(t)));
  const look = {lit: null, replicated};
  look.color = k => {
    const o = g.owner[k];
    if (o < 0) return null;
    if (sm) return packed(smemRgb(k));
    if (look.lit) return look.lit[k] >= 0 ? packed(idColor(look.lit[k])) : rest;
    const m = mine();
    if (replicated)
      return selected === null || (m && m[k]) ? packed(valueColor(g.offset[k], maxOffset)) : dim;
    if (selected === null) return tp(o);
    return m && m[k] ? tp(selected) : dim;
  };
  look.label = (k, px) => {
    if (g.owner[k] < 0) return null;
    if (sm) return [String(smemColor === 'bank' ? sm.bank[k] : sm.phys[k])];
    if (look.lit) return look.lit[k] >= 0 ? [String(look.lit[k])] : null;
    if (replicated) return [`V${g.value[k]}`];
    return px >= TV_PX - 4 ? [`T${g.owner[k]}`, `V${g.value[k]}`] : [`V${g.value[k]}`];
  };
  look.exportColor = k => g.owner[k] < 0 ? null : sm ? smemRgb(k) : threadColor(g.owner[k]);
  return look;
}

// Overlay: the bank or sector id of the cells the chosen warp accesses (-1 elsewhere).
function accessIds(g) {
  const sp = g.access[activeSpace(g.access)], ids = overlay === 'bank' ? sp.bank : sp.sector,
        out = new Int32Array(g.owner.length).fill(-1);
  for (let t = warp * 32; t < Math.min(warp * 32 + 32, g.frag_of.length); ++t) {
    const f = g.frag_of[t], js = sp.instr[f];
    g.frags[f].forEach((k, i) => {
      if (instr < 0 || js[i] === instr) out[k] = ids[k];
    });
  }
  return out;
}

// The line between grid cells ka and kb: 0 none, 1 thread, 2 warp, 3 warpgroup (or wgmma block),
// 4 atom (or swizzle atom).
function ownershipEdge(g, sm, atomOf, ka, kb) {
  if (sm) {
    const [ra, ca] = [Math.floor(ka / g.cols), ka % g.cols], [rb, cb] =
        [Math.floor(kb / g.cols), kb % g.cols];
    const [bm, bk] = sm.block, [am, ak] = sm.atom;
    if (Math.floor(ra / bm) !== Math.floor(rb / bm) || Math.floor(ca / bk) !== Math.floor(cb / bk))
      return 3;
    const apart = Math.floor(ra / am) !== Math.floor(rb / am) ||
        Math.floor(ca / ak) !== Math.floor(cb / ak);
    return apart ? 4 : 0;
  }
  const a = g.owner[ka], b = g.owner[kb];
  if (a < 0 || b < 0 || g.shared[ka] || g.shared[kb]) return 0;
  if ((a >> 7) !== (b >> 7)) return 3;
  if ((a >> 5) !== (b >> 5)) return 2;
  if (atomOf && atomOf(ka) !== atomOf(kb)) return 4;
  return a === b ? 0 : 1;
}

// The hover line of grid cell k: its thread, value, coordinate, offset and the overlay's id.
function showOwner(g, sm, hover, k) {
  const t = g.owner[k];
  if (t < 0) return;
  const row = Math.floor(k / g.cols), col = k % g.cols, sh = g.shared[k];
  const also = sh ?
      ` (and ${sh.n - 1} more: ${sh.t.join(',')}${sh.n - 1 > sh.t.length ? ',…' : ''})` :
      '';
  let where = '';
  if (g.access && !g.access.error) {
    const bank = g.access.shared.bank[k], sector = g.access.global.sector[k];
    Object.assign(hover.dataset, {bank, sector});
    if (overlay === 'bank') where = `, bank ${bank}`;
    if (overlay === 'sector') where = `, sector ${sector} (line ${Math.floor(sector / 4)})`;
  }
  if (sm) {  // the shared tile: its offset, the swizzle's, the bank and the wgmma reading it
    const o = sm.offset[k], p = sm.phys[k], b = sm.bank[k], bi = Math.floor(row / sm.block[0]),
          bj = Math.floor(col / sm.block[1]);
    where = `; shared tile offset ${o} -> swizzled ${p} (byte ${p * sm.elem_bits / 8}), ` +
        `bank ${b}; wgmma MN block ${bi}, k-step ${bj}`;
    Object.assign(hover.dataset, {smemOffset: o, smemPhys: p, smemBank: b});
  }
  hover.textContent = `thread ${t}${also}, value ${g.value[k]}, ` +
      `(${g.row_name},${g.col_name}) = (${row},${col}), offset ${g.offset[k]}${where}`;
  Object.assign(hover.dataset, {thread: t, value: g.value[k], row, col, offset: g.offset[k]});
  hoverThread(t);
}

function hoverThread(t) {
  if (t === hovered) return;
  hovered = t;
  for (const f of onHover) f();
}

// The selected thread's fragment: value index -> (row, col) -> offset, and its layout.
function fragmentPanel(g, id) {
  const line = el('div', {class: 'layout', id: 'fraglayout-' + id});
  const box = el('div', {class: 'frag', id: 'frag-' + id});
  onSelect.push(t => {
    box.textContent = '';
    line.textContent = '';
    if (t === null) {
      line.textContent = 'select a thread to see its fragment';
      return;
    }
    line.textContent = `thread ${t}: fragment = ${g.layouts[t]}`;
    // At most 128 rows (a wgmma thread's shared-memory A or B fragment is the whole tile).
    const tb = el('tbody'), frag = fragOf(g, t), shown = frag.slice(0, 128);
    shown.forEach(
        (cell, i) => tb.append(
            el('tr', {}, el('td', {text: i}),
               el('td', {text: `(${Math.floor(cell / g.cols)},${cell % g.cols})`}),
               el('td', {text: g.offset[cell]}))));
    box.append(
        el('table', {},
           el('thead', {},
              el('tr', {}, el('th', {text: 'value'}),
                 el('th', {text: `(${g.row_name},${g.col_name})`}), el('th', {text: 'offset'}))),
           tb));
    if (frag.length > shown.length)
      box.append(
          el('div', {class: 'what', text: `first ${shown.length} of ${frag.length} values`}));
  });
  return el('div', {}, line, box);
}

// The five derivation steps of one operand (steps 1-4 shared by all threads, step 5 the slice).
function stepsPanel(g) {
  const ol = el('ol', {class: 'steps'});
  for (const s of g.steps.slice(0, 4))
    ol.append(
        el('li', {}, el('b', {text: s.name}), ' ', el('span', {class: 'what', text: s.what}),
           el('br'), el('code', {text: s.layout})));
  const last = el('li');
  ol.append(last);
  onSelect.push(t => {
    const th = t === null ? 0 : t;
    last.textContent = '';
    last.append(
        el('b', {text: 'slice'}), ' ', el('span', {
          class: 'what',
          text: `thread ${th} at (v,m,n,k) = ${
              D.thread_coord ? D.thread_coord[th] : th}: offset + fragment`
        }),
        el('br'), el('code', {text: g.layouts[th]}));
  });
  return ol;
}

// A wgmma operand in shared memory (render.cpp's "smem"): its canonical tile, the descriptor's
// fields (make_gmma_operand) and one row per wgmma of the k-tile; or the rule the tile breaks.
const SMEM_MODE = ['none (interleave)', '128B', '64B', '32B'];  // by the descriptor's layout type
function smemPanel(g, id) {
  const s = g.smem, box = el('div', {class: 'smem', id: 'smem-' + id});
  if (s.error) {
    box.append(
        el('div', {class: 'error', id: 'smem-error-' + id, text: s.error}), el('div', {
          class: 'what',
          text:
              'wgmma cannot read this tile: choose another swizzle or major above ' +
              '(the picture shows the operand without its shared tile)'
        }));
    return box;
  }
  const d = s.descriptor;
  box.append(summary([
    ['tile', s.tile],
    [
      'layout',
      `${s.elem_bits}-bit elements, ${s.major}-major, swizzle ${s.swizzle}${
          s.chosen ? '' : ' (the widest the tile takes)'}; ` +
          `swizzle atom ${s.atom[0]} x ${s.atom[1]}`
    ],
    ['wgmma block', `${s.block[0]} x ${s.block[1]} (MN x K)`],
    [
      'descriptor',
      `swizzle ${SMEM_MODE[d.layout_type]} (layout type ${d.layout_type}), LBO ${
          d.lbo_bytes} B, SBO ${d.sbo_bytes} B, base offset ${d.base_offset}`
    ],
    ['blocks', `${s.blocks} (MN block, k-step) -> element offset in the tile`]
  ]));
  box.querySelectorAll('td.mono')[3].id = 'smem-desc-' + id;
  const tb = el('tbody');
  s.wgmma.forEach((w, n) => {
    const tr =
        el('tr', {id: `smem-wgmma-${id}-${n}`}, el('td', {text: w.k_step}),
           el('td', {text: w.mn_block}), el('td', {text: w.start_bytes}),
           el('td', {text: d.lbo_bytes}), el('td', {text: d.sbo_bytes}),
           el('td', {text: SMEM_MODE[d.layout_type]}), el('td', {text: w.encoded}));
    Object.assign(tr.dataset, {
      kStep: w.k_step,
      mnBlock: w.mn_block,
      start: w.start_bytes,
      lbo: d.lbo_bytes,
      sbo: d.sbo_bytes,
      layoutType: d.layout_type
    });
    tb.append(tr);
  });
  const head =
      el('tr', {},
         ...['k-step', 'MN', 'start B', 'LBO', 'SBO', 'swizzle', 'descriptor (tile at 0)'].map(
             h => el('th', {text: h})));
  box.append(
      el('div', {class: 'frag'}, el('table', {id: 'smem-wgmma-' + id}, el('thead', {}, head), tb)),
      el('div', {
        class: 'what',
        text:
            'one wgmma per row: its descriptor is the start (bits 0-13, 16-byte units) plus ' +
            'the tile\'s shared address, ' +
            'LBO and SBO (16-byte units), the swizzle mode (bits 62-63)'
      }));
  return box;
}

// The analysis of one operand (analysis.hpp via render.cpp): the whole partition's numbers in both
// spaces, the verdict of the overlay's space, and the chosen warp's instruction(s).
function analysisPanel(g, id) {
  const a = g.access, box = el('div', {class: 'analysis', id: 'analysis-' + id});
  if (!a) return box;
  if (a.error) {
    box.append(el('div', {class: 'what', text: `memory-access analysis unavailable: ${a.error}`}));
    return box;
  }
  const G = a.global, S = a.shared, what = a.access + 's',
        sw = a.swizzle === 'Sw<0,0,0>' ? 'unswizzled' : `swizzled by ${a.swizzle}`;
  const row = (k, v, cls, vid) =>
      el('tr', {class: cls || ''}, el('td', {text: k}),
         el('td', {class: 'mono', text: v, id: vid ? `${vid}-${id}` : undefined}));
  const tb = el('tbody');
  box.append(el('table', {class: 'summary'}, tb));
  const draw = () => {
    const sp = activeSpace(a), R = a[sp];
    tb.textContent = '';
    tb.append(
        row('access',
            `${a.elem_bits}-bit elements, ${what}, at most ${a.max_vector_bits}-bit vectors`),
        row('vector',
            `${R.vector_bits}-bit (contiguous aligned run ${R.run_bits} bits; ${
                R.in_order_bits}-bit in fragment order); ` +
                `${R.instructions} ${what} per thread (${R.min_instructions} at 128 bits)`,
            '', 'an-vector'),
        row('global',
            `${G.sectors} sectors per warp access (min ${G.min_sectors}: ${G.sector_eff}%), ${
                G.lines} lines (min ${G.min_lines}); ` +
                `all of a warp's ${what}: ${G.fp_sectors} sectors (min ${G.fp_min_sectors}: ${
                    G.fp_eff}%)`,
            sp === 'global' ? 'active' : '', 'an-global'),
        row('shared',
            `${S.wf_per} wavefronts per warp access (ideal ${S.ideal_per}), worst ${S.way}-way: ${
                S.conflicts} bank conflicts ` +
                `in ${S.requests} warp accesses (${S.wavefronts} wavefronts, ideal ${S.ideal}); ${
                    sw}`,
            sp === 'shared' ? 'active' : '', 'an-shared'));
    const v = el('td', {
      class: `mono grade-${R.grade}`,
      id: 'an-verdict-' + id,
      text: `${R.verdict} [${R.grade}]`
    });
    tb.append(el('tr', {}, el('td', {text: `verdict (${sp})`}), v));
    const per = R.per[warp];
    if (!per) {
      tb.append(row('warp', `warp ${warp}: none (${R.warps} warps)`, '', 'an-warp'));
      return;
    }
    const js = instr < 0 ? per.map((_, j) => j) : instr < per.length ? [instr] : [];
    const sum = k => js.reduce((s, j) => s + per[j][k], 0);
    const which = instr < 0 ? `all ${per.length} instructions` :
        instr < per.length ? `instruction ${instr} of ${per.length}` :
                             `no instruction ${instr} (${per.length})`;
    const nums = sp === 'shared' ?
        `${sum(0)} wavefronts (ideal ${sum(1)}): ${sum(0) - sum(1)} bank conflicts` :
        `${sum(0)} sectors (min ${sum(1)}), ${sum(2)} lines (min ${sum(3)})`;
    tb.append(row('warp', `warp ${warp}, ${which}: ${nums}`, '', 'an-warp'));
  };
  onOverlay.push(draw);
  return box;
}

function summary(rows) {
  const tb = el('tbody');
  for (const [k, v] of rows)
    tb.append(el('tr', {}, el('td', {text: k}), el('td', {class: 'mono', text: v})));
  return el('table', {class: 'summary'}, tb);
}

function controls(threads) {
  const input =
      el('input', {type: 'number', id: 'thread', min: 0, max: threads - 1, placeholder: 'thread'});
  const bad = el('span', {class: 'error inline', id: 'thread-error', role: 'alert'});
  bad.hidden = true;
  input.addEventListener('input', () => {
    const t = Number(input.value), ok = Number.isInteger(t) && t >= 0 && t < threads;
    bad.hidden = input.value === '' || ok;
    bad.textContent = bad.hidden ? '' :
        ` thread ${input.value} is out of range: this page has threads 0 to ${threads - 1}`;
    select(input.value === '' || !ok ? null : t);
  });
  const clear = el('button', {id: 'clear', text: 'show all'});
  clear.addEventListener('click', () => {
    input.value = '';
    select(null);
  });
  const info = el('span', {id: 'selected-info', class: 'mono'});
  onSelect.push(t => {
    if (t !== null || bad.hidden) input.value = t === null ? '' : t;
    info.textContent = t === null ?
        '' :
        ` thread ${t}` + (D.thread_coord ? ` at (v,m,n,k) = ${D.thread_coord[t]}` : '');
  });
  const bar =
      el('div', {class: 'controls'}, 'Thread ', input, ' ', clear, info, bad,
         el('span', {class: 'what', text: '  (type a number, or click a cell)'}));
  if (D.operands && D.operands.some(g => g.access)) bar.append(el('br'), overlayControls(threads));
  if (D.operands && D.operands.some(g => g.smem && !g.smem.error))
    bar.append(el('br'), smemControls());
  return bar;
}

// wgmma's shared A and B: colored by bank or by swizzled offset.
function smemControls() {
  const box =
      el('span', {class: 'overlay', id: 'smem-color'}, 'Shared-memory A/B (wgmma) colored by ');
  for (const [m, name] of [['bank', 'bank'], ['offset', 'swizzled offset']]) {
    const r = el('input', {type: 'radio', name: 'smem-color', id: 'smem-color-' + m, value: m});
    r.checked = smemColor === m;
    r.addEventListener('change', () => {
      if (r.checked) {
        smemColor = m;
        for (const f of onSmem) f();
      }
    });
    box.append(el('label', {}, r, ' ' + name));
  }
  const legend = el('span', {class: 'legend', id: 'smem-legend'});
  const say = () => {
    legend.textContent =
        (smemColor === 'bank' ? '  color = 4-byte bank of the swizzled address (byte / 4 mod 32)' :
                                '  color = swizzled element offset in the tile') +
        '; lines: wgmma blocks (red), swizzle atoms (blue)';
  };
  onSmem.push(say);
  say();
  box.append(legend);
  return box;
}

// Overlay: owner / bank / sector, the warp and the instruction.
function overlayControls(threads) {
  const box = el('span', {class: 'overlay', id: 'overlay'}, 'Color by ');
  for (const m of ['owner', 'bank', 'sector']) {
    const r = el('input', {type: 'radio', name: 'overlay', id: 'overlay-' + m, value: m});
    r.addEventListener('change', () => {
      if (r.checked) setOverlay({overlay: m});
    });
    onOverlay.push(() => {
      r.checked = overlay === m;
    });
    box.append(el('label', {}, r, ' ' + m));
  }
  const warps = Math.ceil(threads / 32);
  const w = el('input', {type: 'number', id: 'warp', min: 0, max: warps - 1, value: 0});
  const bad = el('span', {class: 'error inline', id: 'warp-error', role: 'alert'});
  w.addEventListener('input', () => {
    const k = Number(w.value), ok = Number.isInteger(k) && k >= 0 && k < warps;
    bad.textContent = w.value === '' || ok ? '' :
        ` warp ${w.value} is out of range: this page has warps 0 to ${warps - 1}`;
    if (ok) setOverlay({warp: k});
  });
  const j = el('input', {type: 'number', id: 'instr', min: 0, placeholder: 'all'});
  j.addEventListener('input', () => {
    const k = Number(j.value);
    setOverlay({instr: j.value === '' || !Number.isInteger(k) || k < 0 ? -1 : k});
  });
  const legend = el('span', {class: 'legend', id: 'legend'});
  onOverlay.push(() => {
    if (document.activeElement !== w) w.value = warp;
    if (document.activeElement !== j) j.value = instr < 0 ? '' : instr;
    legend.textContent = overlay === 'bank' ?
        '  color = shared-memory bank (4-byte word mod 32, swizzle applied); ' +
            'gray: other warps or instructions' :
        overlay === 'sector' ?
        '  color = global 32-byte sector (byte address / 32); gray: other warps or instructions' :
        '';
  });
  box.append(
      ` warp `, w, el('span', {class: 'what', text: ` of ${warps}`}), bad, ' instruction ', j,
      legend);
  return box;
}

function setOverlay(s) {
  if (s.overlay !== undefined) overlay = s.overlay;
  if (s.warp !== undefined) warp = s.warp;
  if (s.instr !== undefined) instr = s.instr;
  for (const draw of grids) draw();
  for (const f of onOverlay) f();
}

function select(t) {
  selected = t;
  if (wasm) writeHash();
  if (t !== null && overlay !== 'owner') {
    warp = Math.floor(t / 32);
    for (const f of onOverlay) f();
  }
  for (const draw of grids) draw();
  for (const f of onSelect) f(t);
}


// ---------------------------------------------------------------------------------------------
// The attention kernels (--preset attention; render.cpp's "attention", computed by
// attention_cli.cpp from the kernels' own TiledMMAs): the selected thread's rows of S with the
// lanes that share them and the shuffles that combine them, and its accumulators read as the A
// registers of O += P V. Both pictures are SVG.
function svgEl(tag, attrs, ...kids) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const k of kids) e.append(k);
  return e;
}
function svgText(x, y, text, attrs) {
  return svgEl('text', Object.assign({x, y, 'font-family': 'monospace', 'font-size': 10}, attrs),
               text);
}

function attentionPanel(gC) {
  const A = D.attention, S = A.S, O = A.O;
  const mma = m => `${m.atom} (${m.atom_mnk.join('x')}), atom layout ${m.atom_layout}, ` +
      `permutation ${m.permutation}, ${m.threads} threads (V,M,N,K) ${m.thr_layout_vmnk}, tile ` +
      `${m.tile_mnk.join('x')}, accumulators ${m.fragment_c} f32`;
  const rowsInfo = el('div', {class: 'layout', id: 'attn-rows-info'}),
        rowsBox = el('div', {class: 'attn-svg', id: 'attn-rows-box'}),
        p2aInfo = el('div', {class: 'layout', id: 'attn-p2a-info'}),
        p2aBox = el('div', {class: 'attn-svg', id: 'attn-p2a-box'});
  onSelect.push(t => {
    const th = t === null ? 0 : t, lanes = A.row_threads[th].map(u => u % 32);
    rowsInfo.textContent = `thread ${th} (warp ${th >> 5}, lane ${th % 32}) reduces rows ${
        A.rows_of[th].join(', ')} of S with lanes ${lanes.join(', ')} (threads ${
        A.row_threads[th].join(', ')}): shuffle xor ${A.row_shuffles.join(', ')}`;
    rowsBox.textContent = '';
    rowsBox.append(attentionRows(gC, th));
    p2aInfo.textContent = `thread ${th}: P = convert<T>(S) keeps the registers; two 16-bit ` +
        'values make one 32-bit A register (low half first)';
    p2aBox.textContent = '';
    p2aBox.append(attentionPToA(gC, th));
  });
  return el('div', {class: 'panel', id: 'attention'},
            el('h2', {text: `Attention: ${A.title}, head dim ${A.head_dim}`}), summary([
              ['S = Q K^T', mma(S)], ['O += P V', mma(O)],
              ['rows of S (acc_rowcol)', `(rows, keys) -> register ${A.rowcol}`],
              ['row reduction (row_shuffles)', `shuffle xor ${A.row_shuffles.join(', ')}`],
              ['P as A (acc_as_A)', `(V,M,K) ${A.p_fragment_a} -> register ${A.p_as_a}`]
            ]),
            el('h3', {text: 'The rows of S the selected thread reduces, and the lanes sharing it'}),
            rowsInfo, rowsBox,
            el('h3', {text: 'P\'s accumulators as the A operand of O += P V'}), p2aInfo, p2aBox);
}

// Thread th's rows of S, every cell colored by its owner (all of them the row's lanes; th's own
// cells outlined), and the butterfly of the shuffles that give every lane the rows' results.
function attentionRows(gC, th) {
  const A = D.attention, rows = A.rows_of[th], share = A.row_threads[th], C = gC.cols;
  const cs = Math.max(4, Math.min(16, Math.floor(1000 / C))), top = 14, strip = cs + top + 4;
  const lanesY = rows.length * strip + 10, steps = A.row_shuffles.length, gapX = 90;
  const height = lanesY + share.length * 18 + 8, width = Math.max(C * cs, (steps + 1) * gapX + 120);
  const svg = svgEl('svg', {id: 'attn-rows', width, height, viewBox: `0 0 ${width} ${height}`});
  rows.forEach((r, k) => {
    const y = k * strip + top;
    svg.append(svgText(0, y - 3, `row ${r}`));
    for (let c = 0; c < C; ++c) {
      const u = gC.owner[r * C + c], mine = u === th;
      svg.append(svgEl('rect', {
        class: 'attn-cell' + (mine ? ' attn-mine' : ''), x: c * cs, y, width: cs - 1,
        height: cs, fill: css(share.includes(u) ? threadColor(u) : dimColor()),
        stroke: mine ? '#000' : 'none', 'data-row': r, 'data-col': c, 'data-thread': u
      }, svgEl('title', {}, `S (${r},${c}): thread ${u}, lane ${u % 32}`)));
    }
  });
  // The butterfly: column s holds every lane after s shuffles; xor x pairs lane u with u ^ x.
  const yOf = u => lanesY + 12 + share.indexOf(u) * 18, xOf = s => 60 + s * gapX;
  share.forEach(u => svg.append(svgEl('rect', {
    x: 0, y: yOf(u) - 9, width: 10, height: 10, fill: css(threadColor(u))
  }), svgText(14, yOf(u), `lane ${u % 32}`, {'font-weight': u === th ? 'bold' : 'normal'})));
  A.row_shuffles.forEach((x, s) => {
    svg.append(svgText(xOf(s) + gapX / 2 - 16, lanesY + 2, `xor ${x}`));
    for (const u of share)
      svg.append(svgEl('line', {
        class: 'attn-shuffle', x1: xOf(s), y1: yOf(u) - 4, x2: xOf(s + 1), y2: yOf(u ^ x) - 4,
        stroke: css(threadColor(u)), 'stroke-width': 1.5, 'data-xor': x, 'data-from': u,
        'data-to': u ^ x
      }));
  });
  return svg;
}

// Thread th's accumulator registers (f32, with their (row, key) in S) above the A registers of
// P V they become (two 16-bit halves each), one block per k-step (and m-tile) of the A view.
function attentionPToA(gC, th) {
  const A = D.attention, frag = fragOf(gC, th), bw = 46, blocks = new Map();
  for (const e of A.p_to_a) {
    const key = `${e.k_step},${e.m}`;
    if (!blocks.has(key)) blocks.set(key, []);
    blocks.get(key).push(e);
  }
  const list = [...blocks.values()], wBlock = 2 * bw * list[0].length + 24, bh = 110;
  const per = Math.max(1, Math.floor(1100 / wBlock));
  const width = per * wBlock, height = Math.ceil(list.length / per) * bh;
  const svg = svgEl('svg', {id: 'attn-p2a', width, height, viewBox: `0 0 ${width} ${height}`});
  list.forEach((regs, b) => {
    const x0 = (b % per) * wBlock, y0 = Math.floor(b / per) * bh, e0 = regs[0];
    svg.append(svgText(x0, y0 + 10, `k-step ${e0.k_step}${
        A.kernel === 'fa2_sm80' ? `, m-tile ${e0.m}` : ''} (keys ${16 * e0.k_step}-${
        16 * e0.k_step + 15})`));
    // The block's accumulators in register order above, the A registers' halves below.
    const accs = regs.flatMap(e => e.c).sort((a, b) => a - b);
    accs.forEach((i, p) => {
      const x = x0 + p * bw, k = frag[i], rc = `(${Math.floor(k / gC.cols)},${k % gC.cols})`;
      svg.append(svgEl('rect', {
        class: 'attn-acc', x, y: y0 + 16, width: bw - 2, height: 26, fill: '#eef3fb',
        stroke: '#7a8899', 'data-reg': i, 'data-row': Math.floor(k / gC.cols),
        'data-col': k % gC.cols
      }, svgEl('title', {}, `accumulator ${i} = S${rc}`)),
                 svgText(x + 3, y0 + 27, `S${i}`), svgText(x + 3, y0 + 38, rc, {'font-size': 9}));
    });
    regs.forEach((e, q) => {
      const x = x0 + 2 * q * bw;
      svg.append(
          svgEl('rect', {
            class: 'attn-areg', x, y: y0 + 70, width: 2 * bw - 2, height: 26, fill: '#fbf3e6',
            stroke: '#a8873d', 'data-k': e.k_step, 'data-m': e.m, 'data-register': e.register
          }, svgEl('title', {}, `A register ${e.register} of k-step ${e.k_step}: values ${
              e.a_values.join(', ')} (16 bits each) = accumulators ${e.c.join(', ')}`)),
          svgText(x + 3, y0 + 81, `a${e.register}: A ${e.a_values.join(',')}`),
          svgText(x + 3, y0 + 92, `lo S${e.c[0]} | hi S${e.c[1]}`, {'font-size': 9}));
      e.c.forEach((i, h) => svg.append(svgEl('line', {
        class: 'attn-link', x1: x0 + accs.indexOf(i) * bw + bw / 2 - 1, y1: y0 + 42,
        x2: x + h * bw + bw / 2 - 1, y2: y0 + 70, stroke: '#555', 'data-acc': i,
        'data-a': `${e.k_step}.${e.m}.${e.register}.${h}`
      })));
    });
  });
  return svg;
}

// Kernel 05 (the hopper preset): the CLI's text of its tiles, descriptors and TMA boxes, the
// cuTensorMapEncodeTiled arguments of its four tensors, and the same for any global tensor and
// shared tile typed here (tma_for_tensor through the WebAssembly library). Wide: each table
// scrolls inside the panel.
const ENCODE = ['tensorDataType', 'tensorRank', 'globalDim', 'globalStrides', 'boxDim',
                'elementStrides', 'interleave', 'swizzle', 'l2Promotion', 'oobFill'];
function encodeRow(name, t, id) {
  const cells = ENCODE.map(k => {
    const v = t.encode[k];
    return el('td', {'data-field': k, text: Array.isArray(v) ? `{${v.join(', ')}}` : String(v)});
  });
  const boxes = `${t.boxes.length} x (${t.box.join(',')}), ${t.box_bytes} B each`;
  return el('tr', {id}, el('th', {text: name}), ...cells,
            el('td', {'data-field': 'boxes', text: boxes}));
}
function encodeTable(id) {
  return el('table', {id, class: 'encode'},
            el('thead', {}, el('tr', {}, el('th', {text: 'tensor'}),
                               ...ENCODE.map(k => el('th', {text: k})), el('th', {text: 'boxes'}))),
            el('tbody'));
}

function hopperPanel() {
  const preset = encodeTable('tma-preset');
  D.hopper.operands.forEach(
      (o, k) => preset.tBodies[0].append(encodeRow(
          `${o.operand} ${o.major}-major (${o.tma.global.shape.join(',')}):` +
              `(${o.tma.global.stride.join(',')})`,
          o.tma, `tma-preset-${k}`)));
  return el('div', {class: 'panel', id: 'hopper'},
            el('h2', {text: 'Kernel 05: shared tiles, wgmma descriptors, TMA boxes'}),
            el('div', {class: 'scroll', id: 'hopper-scroll'},
               el('pre', {id: 'hopper-text', text: D.hopper_text})),
            el('h3', {text: 'cuTensorMapEncodeTiled for the preset\u2019s tensors'}),
            el('div', {class: 'scroll', id: 'tma-preset-scroll'}, preset), tmaInputs());
}

// Any tensor: data type, global shape and element strides (modes in the tile's order), the
// shared tile (a shape, or a layout) with its swizzle and the CTAs that multicast it.
function tmaInputs() {
  const a = D.hopper.operands[0], table = encodeTable('tma-table');
  const out = el('div', {class: 'scroll', id: 'tma-scroll'}, table);
  const err = el('div', {class: 'error', id: 'tma-error', role: 'alert'});
  const field = (id, value, size) =>
      el('input', {id, type: 'text', value, size, spellcheck: 'false'});
  const dtype = el('select', {id: 'tma-dtype'}), swz = el('select', {id: 'tma-swizzle'});
  for (const t of ['f16', 'bf16', 'f32', 'u8', 'u16', 'u32'])
    dtype.append(el('option', {value: t, text: t}));
  for (const t of ['none', '32B', '64B', '128B']) swz.append(el('option', {value: t, text: t}));
  const shape = field('tma-shape', a.tma.global.shape.join(','), 14),
        stride = field('tma-stride', a.tma.global.stride.join(','), 14),
        tile = field('tma-tile', `${a.swizzle} o 0 o ${a.tile}`, 40),
        loaders = field('tma-loaders', '1', 3);
  const list = e => e.value.split(/[ ,x()]+/).filter(x => x !== '').map(Number);
  const run = () => {
    const spec = {dtype: dtype.value, shape: list(shape), stride: list(stride),
                  tile: tile.value.trim(), swizzle: swz.value, loaders: Number(loaders.value)};
    if (!wasm && CATALOG.live) return setTimeout(run, 100);  // the library is loading
    const t = wasm ? wasm.tma(spec) : {error: 'live inputs need the WebAssembly build'};
    table.tBodies[0].textContent = '';
    err.textContent = t.error || '';
    out.hidden = !!t.error;
    if (!t.error)
      table.tBodies[0].append(encodeRow(`(${spec.shape}):(${spec.stride})`, t, 'tma-row'));
  };
  for (const e of [dtype, swz]) e.addEventListener('change', run);
  for (const e of [shape, stride, tile, loaders]) e.addEventListener('input', run);
  setTimeout(run, 0);
  return el('div', {id: 'tma-inputs'},
            el('h3', {text: 'cuTensorMapEncodeTiled for any tensor'}),
            el('div', {class: 'inputs'}, el('label', {}, 'data type ', dtype),
               el('label', {}, 'global shape ', shape), el('label', {}, 'strides ', stride),
               el('label', {}, 'shared tile (box) ', tile), el('label', {}, 'swizzle ', swz),
               el('label', {}, 'CTAs sharing it ', loaders)),
            el('div', {class: 'what', text:
                'strides in elements, modes in the tile\u2019s order; the tile is a shape ' +
                '(column-major: mode 0 contiguous) or a layout, swizzled by the choice above ' +
                'unless it is swizzled itself'}),
            err, out);
}

// The MMA arrangement (as CuTe's print_latex draws it): A (M x K) left, B above (drawn K x N, its
// n axis across as C's), C (M x N) in the middle; one cell size for all three so rows and columns
// line up.
function mmaPage() {
  const [M, N, K] = D.tile;
  app.append(
      el('h1', {text: `TiledMMA ${D.name}`}), summary([
        ['atom', `${D.atom} (${D.atom_mnk.join('x')}x)`.replace('x)', ')')],
        ['atom layout', D.atom_layout],
        [
          'permutation',
          `${D.permutation}  =>  M ${D.perm_layouts[0]}, N ${D.perm_layouts[1]}, K ${
              D.perm_layouts[2]}`
        ],
        ['threads', `${D.threads}, thread layout (V,M,N,K) ${D.thr_vmnk}`],
        ['CTA tile', `${M} x ${N} x ${K}`]
      ]),
      controls(D.threads));
  if (D.attention) app.append(attentionPanel(D.operands[0]));  // S's rows, lanes; P -> A
  // C's viewport, A beside it (C's rows) and B above it (C's columns), all at one cell size that
  // shows an atom of C where it fits, and legible T#V# labels.
  const side = Math.max(320, Math.min(512, window.innerWidth - 700)), deep = 224;
  const start = startCell(M, N, side, side, TV_PX, [D.atom_mnk[0], D.atom_mnk[1]]);
  // (the legend under C says what A's and B's thread colors and labels mean as well)
  const boxC = {start, maxW: side, maxH: side},
        boxA = {start, maxW: deep, maxH: side, legend: false},
        boxB = {start, maxW: side, maxH: deep, legend: false};
  const [gC, gA, gB] = D.operands;
  // One atom instance: the atom's threads (a block of D.thr_vmnk's first mode) and a run of values
  // (atom elements / atom threads); a line where it changes. A scalar atom has no boundary to draw.
  const atomThreads = Number((/^\((\d+)/.exec(D.thr_vmnk) || [0, 1])[1]), [am, an, ak] = D.atom_mnk;
  const atomOf = (g, elems) => {
    const per = Math.max(1, elems / atomThreads);
    return elems > 1 ?
        k => Math.floor(g.owner[k] / atomThreads) * 65536 + Math.floor(g.value[k] / per) :
        undefined;
  };
  app.append(
      el('div', {class: 'mma'},
         el('div', {class: 'mma-b'}, operandTitle(gB, 'B'), el('div', {
              class: 'what',
              text: 'B drawn k down, n across (above C); lines: ' +
                  (gB.smem && !gB.smem.error ? 'swizzle atoms (blue), wgmma blocks (red)' :
                                               'atoms (blue), warps (black), warpgroups (red)')
            }),
            ownershipGrid(gB, 'B', boxB, true, atomOf(gB, an * ak))),
         el('div', {class: 'mma-a'}, operandTitle(gA, 'A'),
            ownershipGrid(gA, 'A', boxA, false, atomOf(gA, am * ak))),
         el('div', {class: 'mma-c'}, operandTitle(gC, 'C'),
            ownershipGrid(gC, 'C', boxC, false, atomOf(gC, am * an)))));
  linkViews(gridById.get('C'), gridById.get('A'), gridById.get('B'));
  const row = el('div', {class: 'row'});
  [['C', gC], ['A', gA], ['B', gB]].forEach(
      ([id, g]) => row.append(
          el('div', {class: 'panel side'}, el('h2', {text: g.title}),
             g.smem ? el('h3', {text: 'Shared memory: the wgmma descriptors'}) : null,
             g.smem ? smemPanel(g, id) : null,
             el('h3', {text: 'Memory access (one warp; overlay above)'}), analysisPanel(g, id),
             el('h3', {text: 'Fragment of the selected thread'}), fragmentPanel(g, id),
             el('h3', {text: 'Derivation of the partition'}), stepsPanel(g))));
  app.append(row);
  if (D.hopper) app.append(hopperPanel());  // kernel 05: tiles, descriptors, TMA boxes
  if (D.compare.length) comparePanels(gC);
}

// A shares C's rows, B (drawn k down) C's columns: zoom and pan move them together, and the
// whole of any of them is the smallest cell size of the three.
function linkViews(c, a, b) {
  c.links.push([a, 'rows'], [b, 'cols']);
  a.links.push([c, 'rows']);
  b.links.push([c, 'cols']);
  const fit = Math.min(a.fit, b.fit, c.fit);
  for (const g of [a, b, c]) g.fit = g.canvas.dataset.fit = fit;
}

// The C pictures of the other permutations, beside this TiledMMA's.
function comparePanels(gC) {
  app.append(
      el('h2', {text: 'Alternative permutations of C (same atom, atom layout and tile)'}),
      el('p', {
        class: 'note',
        text:
            'Same element count per thread, different arrangement: selecting a thread shows ' +
            'where its elements go under each permutation.'
      }));
  const cmp = el('div', {class: 'row'});
  const all = [
    Object.assign({}, gC, {title: `permutation ${D.permutation} (this TiledMMA)`}), ...D.compare
  ];
  all.forEach((g, k) => {
    const frag = el('div', {class: 'layout'});
    onSelect.push(t => {
      frag.textContent = `thread ${t === null ? 0 : t}: ${g.layouts[t === null ? 0 : t]}`;
    });
    cmp.append(
        el('div', {class: 'panel'}, el('h3', {text: g.title}),
           el('div', {class: 'layout', text: `logical_divide: ${g.steps[0].layout}`}), frag,
           ownershipGrid(g, 'cmp-' + k, {start: TV_PX, maxW: 320, maxH: 320})));
  });
  app.append(cmp);
}

// Short one-line titles, so A's and C's pictures start on the same row (the tensors are in the
// panels below).
function operandTitle(g, id) {
  const h = el('h3', {id: 'title-' + id});
  const sm = g.smem && !g.smem.error;
  const coloring = () => {
    if (id === 'A') return '';
    if (sm) {
      const by = smemColor === 'bank' ? 'bank' : 'swizzled offset';
      return `: shared memory, ${g.smem.swizzle} ${g.smem.major}-major, by ${by}`;
    }
    if (overlayOn(g)) {
      const which = instr < 0 ? '' : ` instruction ${instr}`;
      const by = overlay === 'bank' ? 'shared-memory bank' : 'global sector';
      return `: warp ${warp}${which} by ${by}`;
    }
    if (g.shared[0] && g.shared[0].n === D.threads)
      return `: shared by all ${D.threads} threads, colored by offset`;
    return ': colored by owning thread';
  };
  const title = () => {
    h.textContent = `${id} (${g.row_name},${g.col_name}) ${g.rows} x ${g.cols}` + coloring();
  };
  onOverlay.push(title);
  if (sm) onSmem.push(title);
  return h;
}

function copyPage() {
  app.append(
      el('h1', {text: `TiledCopy ${D.atom}`}), summary([
        ['atom', `${D.atom}, ${D.elem_bits}-bit elements`], ['thread layout', D.thr],
        ['value layout', D.val], ['tile', D.tile],
        ['TV layout', `${D.layout_tv}  (thread, value) -> index in the tile`],
        ['threads', `${D.threads}`]
      ]),
      controls(D.threads));
  const row = el('div', {class: 'row'});
  D.operands.forEach((g, k) => {
    const id = k === 0 ? 'src' : 'dst';
    row.append(
        el('div', {class: 'panel'}, el('h2', {text: `${g.title}: ${g.rows} x ${g.cols}`}),
           analysisPanel(g, id),
           ownershipGrid(g, id, {start: startCell(g.rows, g.cols, 480, 480, TV_PX), maxW: 480,
                                 maxH: 480}),
           el('h3', {text: 'Fragment of the selected thread'}), fragmentPanel(g, id)));
  });
  app.append(row);
}

// A layout's values (or an op's result) as a picture and an index table.
function layoutPicture() {
  const hover = el('div', {class: 'hover mono', id: 'hover-layout', text: 'hover a cell'});
  const hiOf = D.cosize - 1;
  const view = gridView({
    id: 'layout',
    rows: D.rows,
    cols: D.cols,
    start: startCell(D.rows, D.cols, 640, 640, fitsDigits(String(hiOf).length)),
    maxW: 640,
    maxH: 640,
    legend: valueLegend(hiOf, 'number in a cell: its value index L(row, col) (the offset)'),
    color: i => packed(valueColor(D.values[i], hiOf)),
    label: i => [String(D.values[i])],
    hover: i => {
      const row = Math.floor(i / D.cols), col = i % D.cols;
      hover.textContent = `(${row},${col}): coordinate ${D.coords[i]} -> value ${D.values[i]}`;
      Object.assign(hover.dataset, {row, col, coord: D.coords[i], value: D.values[i]});
    },
  });
  pictures.push({
    id: 'layout',
    title: D.layout,
    rows: D.rows,
    cols: D.cols,
    legend: ['number and color: the value index L(row, col)',
             `color: red (0) to blue (${hiOf})`],
    color: i => valueColor(D.values[i], hiOf),
    label: i => [String(D.values[i])]
  });
  return el(
      'div', {class: 'row'}, el('div', {class: 'panel'}, view.node, hover),
      el('div', {class: 'panel side'}, indexTable()));
}

// The legend of a picture colored by value index: what the number says, and the color ramp.
function valueLegend(hi, what) {
  const stops = [0, 0.25, 0.5, 0.75, 1].map(f => css(valueColor(f * hi, hi))).join(', ');
  return el('span', {}, what, '; color: value index ', el('b', {text: '0'}), ' ',
            el('span', {class: 'ramp', style: `background: linear-gradient(to right, ${stops})`}),
            ' ', el('b', {text: String(hi)}));
}

// Rows: mode 0; columns: the rest (colexicographic), at most 32 x 32 as the CLI's table.
function indexTable() {
  const rs = Math.min(D.rows, 32), cs = Math.min(D.cols, 32), tb = el('tbody');
  const head = el('tr', {}, el('th'));
  for (let c = 0; c < cs; ++c) head.append(el('th', {text: c}));
  for (let r = 0; r < rs; ++r) {
    const tr = el('tr', {}, el('th', {text: r}));
    for (let c = 0; c < cs; ++c) tr.append(el('td', {text: D.values[r * D.cols + c]}));
    tb.append(tr);
  }
  const cut = rs < D.rows || cs < D.cols ?
      `first ${rs} of ${D.rows} rows and ${cs} of ${D.cols} columns` :
      '';
  return el(
      'div', {}, el('h3', {text: 'Index table'}),
      el('div', {class: 'frag'}, el('table', {id: 'index-table'}, el('thead', {}, head), tb)),
      cut ? el('div', {class: 'what', text: cut}) : null);
}

function layoutPage() {
  app.append(
      el('h1', {text: `Layout ${plainName(D.layout)}`}), summary([
        ['size', D.size], ['cosize', D.cosize], ['rank', D.rank],
        [
          'picture',
          D.rank > 2 ?
              `${D.rows} x ${D.cols}: mode 0 down, modes 1.. folded across (colexicographic)` :
              `${D.rows} x ${D.cols}`
        ]
      ]),
      layoutPicture());
}

function opPage() {
  const call =
      `${D.op}(${D.args.map(a => typeof a === 'string' ? a : JSON.stringify(a)).join(', ')})`;
  app.append(el('h1', {text: call}), summary([
               ['result', D.result], ...(D.note ? [['note', D.note]] : []),
               ...(D.rows ? [['size', D.size], ['cosize', D.cosize]] : []),
               ...(D.tiles ? [['colours', `${D.tiles} (one per ${D.tile_kind})`]] : []),
               ...(D.pictures_error ? [['pictures', D.pictures_error]] : [])
             ]));
  app.lastChild.querySelector('td.mono').id = 'result';
  if (D.pictures && D.pictures.length)
    app.append(opPictures());
  else if (D.rows)
    app.append(layoutPicture());
}

// One color per tile (op_pictures.cpp's tile_color: the same golden-angle hues).
const tileColor = k => hsl((k * 137.508 + 20) % 360, 0.65, 0.68);
let hoverTile = null;  // the tile under the pointer: outlined in every picture of the op

// An op's inputs beside its result (render.cpp's "pictures", computed by op_pictures.cpp): every
// cell colored by the tile the library tags it with (untagged cells by value), the boundaries
// between tiles drawn, and the hovered cell's tile outlined in every picture. The first result
// keeps the id "layout" (grid-layout), as a layout's picture.
function opPictures() {
  const hover = el('div', {class: 'hover mono', id: 'hover-op', text: 'hover a cell'});
  const rows = {
    input: el('div', {class: 'row', id: 'op-inputs'}),
    result: el('div', {class: 'row', id: 'op-results'})
  };
  let results = 0;
  hoverTile = null;
  D.pictures.forEach((p, k) => {
    const id = p.role === 'result' && results++ === 0 ? 'layout' : `pic${k}`;
    const hi = p.values.reduce((a, b) => Math.max(a, b), 1), byTile = new Map();
    p.tile.forEach((t, i) => t >= 0 && (byTile.get(t) || byTile.set(t, []).get(t)).push(i));
    const color = i => p.tile[i] >= 0 ? tileColor(p.tile[i]) : valueColor(p.values[i], hi);
    const wide = p.cols > 4 * p.rows;
    const view = gridView({
      id,
      rows: p.rows,
      cols: p.cols,
      // 420 x 420 pixels, a wide picture (a swizzle's block) 1000 across
      start: startCell(p.rows, p.cols, wide ? 1000 : 420, 420, fitsDigits(String(hi).length)),
      maxW: wide ? 1000 : 420,
      maxH: 420,
      legend: D.tiles ? `color: the ${D.tile_kind} (one color each, the same in every picture); ` +
              'number: the value index' :
                        valueLegend(hi, 'number in a cell: its value index'),
      color: i => packed(color(i)),
      label: i => [String(p.values[i])],
      edge: (i, j) => p.tile[i] !== p.tile[j] ? 2 : 0,
      hover: i => {
        const row = Math.floor(i / p.cols), col = i % p.cols, t = p.tile[i];
        hover.textContent = `${p.title}: (${row},${col}) -> ${p.values[i]}` +
            (t >= 0 ? `, ${D.tile_kind} ${t}` : '');
        Object.assign(hover.dataset, {pic: k, row, col, value: p.values[i], tile: t});
        hoverTile = t >= 0 ? t : null;
        for (const f of onHover) f();
      },
      marked: () => hoverTile === null ? null : byTile.get(hoverTile) || [],
    });
    rows[p.role].append(el(
        'div',
        {class: 'panel op-picture', 'data-role': p.role, 'data-pic': k, 'data-grid': id},
        el('h3', {text: p.title}), view.node));
    pictures.push({
      id,
      title: p.title,
      rows: p.rows,
      cols: p.cols,
      legend: [D.tiles ? `color: the ${D.tile_kind}; number: the value index` :
                         `number and color: the value index (red 0 to blue ${hi})`],
      color,
      label: i => [String(p.values[i])]
    });
  });
  if (D.rows) rows.result.append(el('div', {class: 'panel side'}, indexTable()));
  return el(
      'div', {}, el('h2', {text: 'Inputs'}), rows.input, el('h2', {text: 'Result'}),
      rows.result, hover);
}

// ---------------------------------------------------------------------------------------------
// The thread trace (tools/trace.hpp through page_data): the problem's whole A, B and C, the CTA's
// tiles outlined, the thread's elements lit; a k_tile stepper moves A's and B's tiles and fills
// the thread's accumulators. Every number is the library's (D), drawn, never recomputed.
let playTimer = 0;
const TRACE_THREAD = [230, 120, 20], TRACE_DONE = [246, 200, 150], TRACE_MASK = [200, 30, 30];

// One operand of the problem on a canvas: rows x cols cells (the grid's tiles, so the ragged edge
// beyond the problem shows), `inside(r, c)` the problem.
function traceCanvas(id, rows, cols, cell) {
  const c = el('canvas', {id: 'trace-' + id, width: cols * cell + 1, height: rows * cell + 1});
  c.dataset.rows = rows, c.dataset.cols = cols, c.dataset.cell = cell;
  return c;
}
function paintTrace(c, probRows, probCols, marks, tiles) {
  const g = c.getContext('2d'), s = +c.dataset.cell, R = +c.dataset.rows, C = +c.dataset.cols;
  g.fillStyle = '#c9ced6';  // beyond the problem: the ragged tiles' outside
  g.fillRect(0, 0, c.width, c.height);
  g.fillStyle = '#eef0f3';
  g.fillRect(0, 0, probCols * s, probRows * s);
  for (const [r, col, rgb, masked] of marks) {
    g.fillStyle = css(masked && s < 4 ? TRACE_MASK : rgb);  // too small for a cross: red
    g.fillRect(col * s, r * s, Math.max(1, s - (s > 3)), Math.max(1, s - (s > 3)));
    if (masked && s >= 4) {  // a masked element: a cross over it
      g.strokeStyle = css(TRACE_MASK);
      g.lineWidth = 1;
      g.beginPath();
      g.moveTo(col * s, r * s), g.lineTo(col * s + s, r * s + s);
      g.moveTo(col * s + s, r * s), g.lineTo(col * s, r * s + s);
      g.stroke();
    }
  }
  for (const [r0, c0, h, w, color, width] of tiles) {
    g.strokeStyle = color;
    g.lineWidth = width;
    g.strokeRect(c0 * s + 0.5, r0 * s + 0.5, w * s, h * s);
  }
}

function traceNumbers() {
  const j = D, k = j.k_loop, rows = [];
  const add = (field, name, value) => rows.push(el(
      'tr', {}, el('td', {text: name}),
      el('td', {class: 'mono', 'data-field': field, text: value})));
  add('grid', 'grid (CTAs)', `${j.grid[0]} x ${j.grid[1]}`);
  for (const n of ['A', 'B', 'C'])
    add(`local_tile.${n}`, j.local_tile[n].name + ' = local_tile', j.local_tile[n].layout);
  for (const n of ['A', 'B', 'C'])
    add(`partitions.${n}`, j.partitions[n].name, j.partitions[n].layout);
  for (const n of ['A', 'B', 'C']) add(`fragments.${n}`, j.fragments[n].name, j.fragments[n].shape);
  add('k_loop.k_tiles', 'k_tiles', String(k.k_tiles));
  add('k_loop.k_blocks', 'k_blocks per k_tile', String(k.k_blocks));
  add('k_loop.per_k_block', `${k.unit}s per k_block`, String(k.per_k_block));
  add('k_loop.per_k_tile', `${k.unit}s per k_tile`, String(k.per_k_tile));
  add('k_loop.total', `${k.unit}s in all`, String(k.total));
  for (const n of ['A', 'B'])
    add(`k_loop.loads.${n}`, `${n} loads per k_tile`, String(k.loads[n].elements));
  add('epilogue.elements', 'C stores (epilogue)', String(j.epilogue.elements));
  for (const n of ['A', 'B', 'C'])
    add(`predicates.${n}`, `${j.predicates[n].name} masked per k_tile`,
        j.predicates[n].masked_per_k_tile.join(', '));
  return el('table', {class: 'summary', id: 'trace-numbers'}, el('tbody', {}, ...rows));
}

function tracePage() {
  const j = D, [BM, BN, BK] = j.config.tile_mnk, [M, N, K] = j.problem, kt = j.k_loop.k_tiles;
  const [cm, cn] = j.cta, Mp = j.grid[0] * BM, Np = j.grid[1] * BN, Kp = kt * BK;
  let k = Math.min(Math.max(0, state.k_tile || 0), kt - 1);
  const cell = Math.max(2, Math.min(12, Math.floor(900 / (Math.max(Mp, Np) + Kp))));
  const cA = traceCanvas('A', Mp, Kp, cell), cB = traceCanvas('B', Kp, Np, cell),
        cC = traceCanvas('C', Mp, Np, cell);
  const label = el('span', {id: 'trace-k', class: 'mono'}), step = el('div', {id: 'trace-step'});
  const button = (id, text, f) => {
    const b = el('button', {id, text});
    b.addEventListener('click', f);
    return b;
  };
  const draw = () => {
    const E = j.elements, mark = (list, rgb) => list.map(([a, b, v]) => [a, b, rgb, !v]);
    // A: the thread's elements at earlier k_tiles (done), at this one (lit); m down, k across.
    const a = [], b = [];
    for (let q = 0; q <= k; ++q) {
      a.push(...mark(E.A[q], q === k ? TRACE_THREAD : TRACE_DONE));
      b.push(...mark(E.B[q], q === k ? TRACE_THREAD : TRACE_DONE).map(([n, kk, rgb, m]) =>
                                                                        [kk, n, rgb, m]));
    }
    const fill = (k + 1) / kt, acc = [255 - 200 * fill, 255 - 130 * fill, 255 - 40 * fill];
    const grey = '#7a8594', blue = '#1f5fbf';
    paintTrace(cA, M, K, a, [[cm * BM, 0, BM, Kp, grey, 1], [cm * BM, k * BK, BM, BK, blue, 2]]);
    paintTrace(cB, K, N, b, [[0, cn * BN, Kp, BN, grey, 1], [k * BK, cn * BN, BK, BN, blue, 2]]);
    paintTrace(cC, M, N, mark(E.C[0], acc.map(Math.round)), [[cm * BM, cn * BN, BM, BN, blue, 2]]);
    const masked = q => q.filter(e => !e[2]).length;
    cA.dataset.tile = [cm * BM, k * BK, BM, BK].join(',');
    cB.dataset.tile = [k * BK, cn * BN, BK, BN].join(',');
    cA.dataset.lit = E.A[k].length, cB.dataset.lit = E.B[k].length;
    cA.dataset.masked = masked(E.A[k]), cB.dataset.masked = masked(E.B[k]);
    cC.dataset.masked = masked(E.C[0]), cC.dataset.filled = `${k + 1}/${kt}`;
    label.textContent = `k_tile ${k} of ${kt}`;
    step.textContent =
        `after k_tile ${k}: tCrC holds sums over k in [0, ${Math.min(K, (k + 1) * BK)})` +
        ` = ${j.k_loop.per_k_tile * (k + 1)} of ${j.k_loop.total} ${j.k_loop.unit}s; ` +
        `this k_tile: ${E.A[k].length} loads of A (${masked(E.A[k])} masked), ` +
        `${E.B[k].length} of B (${masked(E.B[k])} masked)`;
  };
  const go = q => {
    k = (q + kt) % kt;
    state.k_tile = k;
    draw();
    if (wasm) writeHash();
  };
  const play = button('trace-play', 'play', () => {
    if (playTimer) {
      clearInterval(playTimer), playTimer = 0, play.textContent = 'play';
      return;
    }
    play.textContent = 'pause';
    playTimer = setInterval(() => go(k + 1), 800);
  });
  app.append(
      el('h1', {text: `Thread ${j.thread} of CTA (${cm},${cn}): ${j.config.name}`}),
      el('p', {class: 'what',
               text: `problem M=${M}, N=${N}, K=${K}; A ${j.layouts.A}, B ${j.layouts.B}, ` +
                   `C ${j.layouts.C}; CTA tile ${BM}x${BN}x${BK}, ${j.config.threads} threads`}),
      el('div', {class: 'controls'}, button('trace-prev', '◀', () => go(k - 1)), ' ', label, ' ',
         button('trace-next', '▶', () => go(k + 1)), ' ', play, step),
      el('div', {class: 'row'},
         el('div', {class: 'mma'},
            el('div', {class: 'mma-b'}, el('h3', {text: 'B (k down, n across)'}), cB),
            el('div', {class: 'mma-a'}, el('h3', {text: 'A (m down, k across)'}), cA),
            el('div', {class: 'mma-c'}, el('h3', {text: 'C: the accumulators fill'}), cC)),
         el('div', {class: 'panel side'}, el('h2', {text: 'The trace'}), traceNumbers(),
            el('p', {class: 'legend',
                     text: 'blue: the CTA\u2019s tiles (A and B at this k_tile); orange: the ' +
                         'thread\u2019s elements (pale: earlier k_tiles); red (a cross on ' +
                         'large cells): masked, outside the problem; grey: the ragged tiles ' +
                         'beyond it'}))),
      el('pre', {id: 'trace-text', text: j.text}));
  draw();
}

// ---------------------------------------------------------------------------------------------
// The inputs: one field per key of the state; typing recomputes the page through the library
// (WebAssembly) and writes the state into the URL's fragment, so the link restores it.
const FIELDS = {
  layout: [['layout', 'layout', '(8,8):(8,1), a shape (4,8), or Sw<3,4,3> o 0 o (8,64):(64,1)']],
  op: [
    ['op', 'op'], ['arg0', 'A', 'layout'], ['arg1', 'B', 'tiler, layout or integer'],
    ['arg2', 'C', '(third argument)']
  ],
  mma: [
    ['preset', 'preset'], ['kernel', 'kernel'], ['head_dim', 'head dim'], ['atom', 'atom'],
    ['atom_layout', 'atom layout', '(2,2,1)'],
    ['perm', 'permutation', 'none or (32,32,16)'], ['tile', 'CTA tile M,N,K', '128,128,32'],
    ['swizzle', 'shared swizzle', 'Sw<3,3,3>'], ['space', 'space'],
    ['smem_swizzle', 'wgmma smem swizzle'], ['smem_major', 'major']
  ],
  trace: [
    ['preset', 'preset'], ['atom', 'atom'], ['atom_layout', 'atom layout', '(16,16,1):(16,1,0)'],
    ['perm', 'permutation', 'none or (32,32,16)'], ['tile', 'CTA tile M,N,K', '128,128,8'],
    ['problem', 'problem M,N,K', '256,128,32'], ['layout_A', 'A', 'M, K or (256,32):(1,256)'],
    ['layout_B', 'B', 'N, K or (128,32):(1,128)'], ['layout_C', 'C', 'M, N or (256,128):(128,1)'],
    ['cta', 'CTA m,n', '0,0'], ['thread', 'thread', '0']
  ],
  copy: [
    ['atom', 'copy atom', 'cp_async:16'], ['elem_bits', 'element bits', '32'],
    ['thr', 'thread layout', '(32,8):(1,32)'], ['val', 'value layout', '(4,1)'],
    ['src', 'source', '(default: the tile)'], ['dst', 'destination', '(default: the tile)'],
    ['swizzle', 'shared swizzle', 'Sw<3,3,3>'], ['space', 'space']
  ],
};
// Each op's example arguments: what its fields hold after picking it (the roles come from the
// op table: CATALOG.ops[].args). Ops not listed start empty.
const L816 = '(8,16):(16,1)';
const OP_EXAMPLES = {
  size: [L816], cosize: [L816], rank: [L816], depth: [L816], filter: ['(4,2,3):(1,0,4)'],
  coalesce: ['(2,(1,6)):(1,(6,2))'], composition: [L816, '(4,2):(2,1)'],
  complement: ['4:2', '24'], right_inverse: ['(4,8):(8,1)'], left_inverse: ['(4,8):(8,1)'],
  logical_divide: [L816, '(2,4)'], zipped_divide: [L816, '(2,4)'], tiled_divide: [L816, '(2,4)'],
  flat_divide: [L816, '(2,4)'], logical_product: ['(2,2):(1,2)', '(3,4)'],
  zipped_product: ['(2,2):(1,2)', '(3,4)'], tiled_product: ['(2,2):(1,2)', '(3,4)'],
  flat_product: ['(2,2):(1,2)', '(3,4)'], blocked_product: ['(2,2):(1,2)', '(3,4)'],
  raked_product: ['(2,2):(1,2)', '(3,4)'], swizzle: ['3', '4', '3'],
  swizzle_layout: ['[3,4,3]', '(8,64):(64,1)'], nullspace: ['(4,8):(0,1)'],
  upcast: [L816, '2'], downcast: [L816, '2'], recast_layout: [L816, '16', '32'],
  max_common_layout: ['(8,16):(1,8)', '(8,16):(1,8)'],
  max_common_vector: ['(8,16):(1,8)', '(8,16):(1,8)'], make_ordered_layout: ['(4,8)', '(1,0)'],
  make_layout_like: ['(4,8):(8,1)'], compact_col_major: ['(4,8)'], compact_row_major: ['(4,8)'],
  tile_to_shape: ['(2,4):(4,1)', '(8,16)'], layout_add: ['(4,8):(1,4)', '(4,8):(32,128)'],
  crd2idx: ['(1,2)', '(4,8):(8,1)'], idx2crd: ['13', '(4,8)'],
};
const opOf = name => CATALOG.ops.find(o => o.name === name) || {args: []};

// The argument fields of op `name`: its roles as placeholders, fields it does not take disabled;
// `fill`: the values set to its example arguments (after picking another op).
function opFields(name, fill) {
  const roles = opOf(name).args, ex = OP_EXAMPLES[name] || [];
  for (let i = 0; i < 3; ++i) {
    const f = document.getElementById('in-arg' + i);
    if (!f) continue;
    f.disabled = i >= roles.length;
    f.placeholder = i < roles.length ? `${roles[i]}${ex[i] ? ', e.g. ' + ex[i] : ''}` :
                                       `(${name} takes ${roles.length})`;
    if (fill) f.value = i < roles.length ? ex[i] || '' : '';
  }
}

const KINDS =
    [['layout', 'layout'], ['op', 'algebra op'], ['mma', 'TiledMMA'], ['trace', 'thread trace'],
     ['copy', 'TiledCopy']];
const LISTS = ['tile', 'problem', 'cta'];  // fields of integers, typed as M,N,K
// The attention preset's choices (attention_cli.hpp): shown only with that preset.
const ATTENTION_FIELDS = {kernel: ['fa3_sm90', 'fa2_sm80'], head_dim: ['64', '128', '256']};
const fieldValue = (s, k) => k.startsWith('arg') ? ((s.args || [])[+k.slice(3)] ?? '') :
    LISTS.includes(k)                            ? (s[k] || []).join(',') :
    s[k] === undefined || s[k] === null          ? '' :
                                                   String(s[k]);
const errorBox = el('div', {id: 'error', class: 'error', role: 'alert'});
const inputs = el('div', {id: 'inputs', class: 'inputs'});

function stateFromInputs() {
  const kind = document.getElementById('in-kind').value, s = {kind};
  for (const [k] of FIELDS[kind]) {
    const e = document.getElementById('in-' + k);
    if (!e) continue;  // a field this state does not show (the attention preset's)
    const v = e.value.trim();
    if (k.startsWith('arg')) {
      if (v !== '') (s.args = s.args || []).push(v);
    } else if (LISTS.includes(k)) {
      const list = v.split(/[ ,x]+/).filter(x => x !== '')
                      .map(x => /^\d+$/.test(x) ? Number(x) : x);
      if (k === 'tile' || list.length) s[k] = list;
    } else if (k === 'elem_bits' || (k === 'thread' && kind === 'trace')) {
      if (v !== '') s[k] = /^\d+$/.test(v) ? Number(v) : v;
    } else if (v !== '')
      s[k] = v;
  }
  if (kind === 'op' && !s.args) s.args = [];
  if ((kind === 'mma' || kind === 'trace') && s.preset)
    for (const k of ['atom', 'atom_layout', 'perm', 'tile']) delete s[k];
  if (s.preset !== 'attention') delete s.kernel, delete s.head_dim;
  if (kind === 'trace') s.k_tile = 0;  // the stepper starts again on a new trace
  if (kind === 'mma' && !s.preset) s.compare = [];
  if (kind === 'mma' && s.preset && state.kind === 'mma' && state.preset === s.preset)
    s.compare = state.compare || [];
  return s;
}

function buildInputs() {
  inputs.textContent = '';
  const kind = el('select', {id: 'in-kind'});
  for (const [k, name] of KINDS) kind.append(el('option', {value: k, text: name}));
  kind.value = state.kind || 'layout';
  kind.addEventListener('change', () => {
    state = defaults(kind.value);
    buildInputs();
    recompute();
  });
  inputs.append(el('label', {}, 'show ', kind));
  for (const [k, name, hint] of FIELDS[kind.value]) {
    let f;
    if (ATTENTION_FIELDS[k] && state.preset !== 'attention') continue;
    if (ATTENTION_FIELDS[k]) {  // the attention preset's kernel and head dim ('': the default)
      f = el('select', {id: 'in-' + k}, el('option', {value: '', text: '(default)'}));
      for (const v of ATTENTION_FIELDS[k]) f.append(el('option', {value: v, text: v}));
    } else if (k === 'op') {
      f = el('select', {id: 'in-op'});
      for (const o of CATALOG.ops)
        f.append(el('option', {value: o.name, text: o.name, title: o.help}));
    } else if (k === 'preset') {
      f = el('select', {id: 'in-preset'}, el('option', {value: '', text: '(none: the fields)'}));
      for (const p of CATALOG.presets) f.append(el('option', {value: p, text: p}));
    } else if (k === 'space') {
      f = el('select', {id: 'in-space'});
      for (const p of ['global', 'shared']) f.append(el('option', {value: p, text: p}));
    } else if (k === 'smem_swizzle' || k === 'smem_major') {  // wgmma's shared A/B tiles ('': the
                                                              // library's default)
      f = el('select', {id: 'in-' + k});
      for (const [v, t] of k === 'smem_major' ? [['', 'K (default)'], ['K', 'K'], ['MN', 'MN']] : [
             ['', 'auto (128B, else the widest)'], ['none', 'none'], ['32B', '32B'], ['64B', '64B'],
             ['128B', '128B']
           ])
        f.append(el('option', {value: v, text: t}));
    } else
      f = el('input', {
        id: 'in-' + k,
        type: 'text',
        placeholder: hint,
        spellcheck: 'false',
        list: k === 'atom' ? `atoms-${kind.value}` : undefined,
        size: k === 'elem_bits'                   ? 4 :
            k.startsWith('arg') || k === 'layout' ? 28 :
                                                    18
      });
    f.value = fieldValue(state, k) || (k === 'space' ? 'global' : '');
    f.addEventListener(f.tagName === 'SELECT' ? 'change' : 'input', () => {
      const keep =
          ['preset', 'swizzle', 'space', 'smem_swizzle', 'smem_major', 'kernel', 'head_dim'];
      if (kind.value === 'mma' && !keep.includes(k) ||
          kind.value === 'trace' && ['atom', 'atom_layout', 'perm', 'tile'].includes(k))
        document.getElementById('in-preset').value = '';
      if (k === 'op') opFields(f.value, true);  // the new op's arguments, not the old one's
      state = stateFromInputs();
      if (k === 'preset' && kind.value === 'mma') buildInputs();  // the attention fields
      schedule();
    });
    inputs.append(el('label', {}, name + ' ', f));
  }
  if (kind.value === 'op') opFields(state.op, false);
  const atoms = kind.value === 'mma' || kind.value === 'trace' ? CATALOG.atoms : CATALOG.copy_atoms;
  inputs.append(
      el('datalist', {id: `atoms-${kind.value}`}, ...atoms.map(a => el('option', {value: a}))));
  inputs.append(...shareButtons());
  exportChoices();
  if (!wasm)
    inputs.append(el('span', {
      class: 'what',
      id: 'live',
      text: CATALOG.live ?
          ' loading the library (WebAssembly)…' :
          ' this page was written without the WebAssembly build: ' +
              'build the playground target (see README) for live inputs'
    }));
}

// Copy the link; export all pictures or one as SVG or PNG.
function shareButtons() {
  const exp = (text, id, f) => {
    const b = el('button', {id, text});
    b.addEventListener('click', f);
    return b;
  };
  const which = () => exportWhich.value;
  return [
    exp('copy link', 'share',
        () => {
          writeHash();
          navigator.clipboard && navigator.clipboard.writeText(location.href).catch(() => {});
        }),
    el('label', {}, ' export ', exportWhich),
    exp('SVG', 'export-svg',
        () => download(`tessera-${which()}.svg`,
                       'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(toSvg(which())))),
    exp('PNG', 'export-png', () => download(`tessera-${which()}.png`, toPng(which())))
  ];
}

// Which pictures the export buttons write: all, or one.
const exportWhich = el('select', {id: 'export-which'});
function exportChoices() {
  const was = exportWhich.value;
  exportWhich.textContent = '';
  exportWhich.append(el('option', {value: 'all', text: 'all pictures'}));
  for (const p of pictures)
    exportWhich.append(el('option', {value: p.id, text: `${p.id}: ${p.title}`.slice(0, 60)}));
  exportWhich.value = pictures.some(p => p.id === was) ? was : 'all';
}

function defaults(kind) {
  return {
    layout: {kind, layout: '((2,4),(2,4)):((1,8),(2,16))'},
    op: {kind, op: 'logical_divide', args: ['(8,16):(16,1)', '(2,4)']},
    mma: {kind, preset: 'step4', compare: []},
    trace: {kind, preset: 'step1', problem: [256, 128, 32], cta: [0, 0], thread: 0, k_tile: 0},
    copy: {kind, atom: 'cp_async:16', elem_bits: 32, thr: '(32,8):(1,32)', val: '(4,1)'}
  }[kind];
}

function download(name, url) {
  const a = el('a', {href: url, download: name});
  document.body.append(a);
  a.click();
  a.remove();
}

// The state as the URL fragment: key=value pairs (args as a0, a1, ...; the tile as M,N,K).
function toHash(s) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(s)) {
    if (k === 'args')
      v.forEach((a, i) => p.set('a' + i, typeof a === 'string' ? a : JSON.stringify(a)));
    else if (Array.isArray(v)) {
      if (v.length) p.set(k, v.join(k === 'compare' ? ';' : ','));
    } else if (v !== '' && v !== null && v !== undefined)
      p.set(k, String(v));
  }
  return '#' + p.toString();
}
function fromHash(h) {
  const p = new URLSearchParams(h.slice(1)), s = {};
  for (const [k, v] of p) {
    if (/^a\d+$/.test(k))
      (s.args = s.args || [])[+k.slice(1)] = v;
    else if (LISTS.includes(k))
      s[k] = v.split(',').map(Number);
    else if (k === 'compare')
      s.compare = v.split(';');
    else if (['thread', 'warp', 'elem_bits', 'max_vector_bits', 'k_tile'].includes(k) &&
             /^\d+$/.test(v))
      s[k] = Number(v);
    else
      s[k] = v;
  }
  return s;
}
function writeHash() {
  history.replaceState(
      null, '', toHash(Object.assign({}, state, selected === null ? {} : {thread: selected})));
}

// An error of the library, with the text it names and a caret under the position, if any.
function showError(msg) {
  errorBox.textContent = '';
  if (!msg) {
    errorBox.hidden = true;
    app.classList.remove('stale');
    return;
  }
  errorBox.hidden = false;
  app.classList.add('stale');
  errorBox.append(el('div', {id: 'error-message', text: msg}));
  const m = /at position (\d+) in "(.*)"/.exec(msg);
  if (m) {
    errorBox.dataset.position = m[1];
    errorBox.append(el('pre', {id: 'error-caret', text: `${m[2]}\n${' '.repeat(+m[1])}^`}));
  }
}

let timer = 0;
function schedule() {
  clearTimeout(timer);
  timer = setTimeout(recompute, 60);
}
function recompute() {
  clearTimeout(timer);
  if (!wasm) {
    showError('live inputs need the WebAssembly build of the library (the playground target)');
    return;
  }
  const d = wasm.page(state);
  if (d.error) {
    showError(d.error);
    return;
  }
  showError('');
  D = d;
  show();
  writeHash();
}

function show() {
  onOverlay = [];
  grids = [];
  onSelect = [];
  onHover = [];
  pictures = [];
  onSmem = [];
  gridById = new Map();
  hovered = null;
  app.textContent = '';
  clearInterval(playTimer), playTimer = 0;
  if (D.kind === 'trace') {  // its own thread (the state's), drawn by tracePage
    selected = null;
    tracePage();
    const c = D.config, f = {
      atom: c.atom, atom_layout: c.atom_layout, perm: c.permutation, tile: c.tile_mnk.join(',')
    };
    if (state.preset)
      for (const [k, v] of Object.entries(f)) {
        const e = document.getElementById('in-' + k);
        if (e) e.value = v;
      }
    return;
  }
  if (D.kind === 'mma')
    mmaPage();
  else if (D.kind === 'copy')
    copyPage();
  else if (D.kind === 'op')
    opPage();
  else
    layoutPage();
  if (D.kind === 'mma' && state.preset) {  // a preset's fields, to edit from
    const f =
        {atom: D.atom, atom_layout: D.atom_layout, perm: D.permutation, tile: D.tile.join(',')};
    for (const [k, v] of Object.entries(f)) {
      const e = document.getElementById('in-' + k);
      if (e) e.value = v;
    }
  }
  exportChoices();
  setOverlay({overlay: D.initial_overlay || 'owner', warp: D.initial_warp || 0, instr: -1});
  select(Number.isInteger(D.initial_thread) ? D.initial_thread : null);
}

// ---------------------------------------------------------------------------------------------
// Export: each picture alone or all of them, as SVG or PNG, for slides and papers: the title, the
// column indices above and the row indices left (ticks), the cells with their labels where they
// fit, a legend under the cells saying what the colors and labels mean, and a margin. One scene
// (rectangles, lines, texts) drawn twice: as SVG elements and onto a canvas. SVG's namespace,
// read from the HTML parser (the page itself spells out no URL).
const SVG_NS = (() => {
  const d = document.createElement('div');
  d.innerHTML = '<svg></svg>';
  return d.firstChild.namespaceURI;
})();
const EXPORT_MARGIN = 24, FONT = 'monospace';
const measurer = document.createElement('canvas').getContext('2d');
function textWidth(text, size, bold) {
  measurer.font = `${bold ? 'bold ' : ''}${size}px ${FONT}`;
  return Math.ceil(measurer.measureText(text).width);
}

// A layout's name without the identity swizzle CuTe prints before a plain layout.
const plainName = t => String(t).replace(/^Sw<0,0,0> o 0 o /, '');

// The pictures to export: all, or the one with id `which`.
function exported(which) {
  const all = which === undefined || which === null || which === '' || which === 'all';
  return pictures.filter(p => all || p.id === which);
}

// One picture's items at (x0, y0); returns [width, height].
function sceneOf(p, x0, y0, items) {
  // labelled 28-pixel cells (as CuTe's print_latex labels every cell) up to 128 x 128, smaller
  // unlabelled ones beyond
  const s = Math.max(4, Math.min(28, Math.floor(3600 / Math.max(p.rows, p.cols))));
  const step = [1, 2, 4, 8, 16, 32, 64, 128].find(k => k * s >= 24) || 256;
  const rowName = p.rowName || 'row', colName = p.colName || 'column';
  const tickW = textWidth(String(p.rows - 1), 10) + 8, axisW = 14;
  const left = x0 + axisW + tickW, top = y0 + 20 + 14 + 16;
  const text = (x, y, t, size, extra) =>
      items.push(Object.assign({k: 'text', x, y, t, size}, extra));
  text(x0, y0 + 14, plainName(p.title), 14, {bold: true, cls: 'x-title'});
  text(left, y0 + 32, `${colName} \u2192`, 11, {cls: 'x-axis'});
  text(x0 + 10, top, `\u2190 ${rowName}`, 11, {cls: 'x-axis', rotate: true});  // reads down
  for (let c = 0; c < p.cols; c += step) {
    const x = left + c * s + s / 2;
    items.push({k: 'line', x1: x, y1: top - 4, x2: x, y2: top});
    text(left + c * s + s / 2, top - 6, String(c), 10, {anchor: 'middle', cls: 'x-tick'});
  }
  for (let r = 0; r < p.rows; r += step) {
    const y = top + r * s + s / 2;
    items.push({k: 'line', x1: left - 4, y1: y, x2: left, y2: y});
    text(left - 6, top + r * s + s / 2 + 3, String(r), 10, {anchor: 'end', cls: 'x-tick'});
  }
  for (let i = 0; i < p.rows * p.cols; ++i) {
    const c = p.color(i);
    if (!c) continue;
    const x = left + (i % p.cols) * s, y = top + Math.floor(i / p.cols) * s;
    items.push({k: 'rect', x, y, w: s - 1, h: s - 1, fill: css(c), tip: (p.tip || p.label)(i)});
    const ls = p.label(i), chars = Math.max(0, ...ls.map(t => t.length));
    const fs = Math.floor(Math.min(12, (s - 3) / (ls.length * 1.15), (s - 3) / (0.62 * chars)));
    if (s >= 20 && ls.length && fs >= 7)
      ls.forEach((t, k) => text(x + s / 2,
                                y + s / 2 + (k - (ls.length - 1) / 2) * fs * 1.1 + fs * 0.35,
                                t, fs, {anchor: 'middle', cls: 'x-label'}));
  }
  let y = top + p.rows * s + 18, w = left - x0 + p.cols * s;
  w = Math.max(w, textWidth(plainName(p.title), 14, true));
  for (const line of p.legend || []) {
    text(x0, y, line, 11, {cls: 'x-legend'});
    w = Math.max(w, textWidth(line, 11));
    y += 15;
  }
  return [w, y - y0];
}

// The scene of the chosen pictures, stacked: {width, height, groups: [{id, items}]}.
function exportScene(which) {
  let y = EXPORT_MARGIN, width = 0;
  const groups = exported(which).map(p => {
    const items = [], [w, h] = sceneOf(p, EXPORT_MARGIN, y, items);
    y += h + EXPORT_MARGIN;
    width = Math.max(width, w + 2 * EXPORT_MARGIN);
    return {id: p.id, items};
  });
  return {width: Math.ceil(width), height: Math.ceil(y), groups};
}

const xml = t => String(t).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
function svgItem(it) {
  if (it.k === 'rect')
    return `<rect class="cell" x="${it.x}" y="${it.y}" width="${it.w}" height="${it.h}" ` +
        `fill="${it.fill}"><title>${xml(it.tip)}</title></rect>`;
  if (it.k === 'line')
    return `<line x1="${it.x1}" y1="${it.y1}" x2="${it.x2}" y2="${it.y2}" stroke="#5b6673"/>`;
  const rot = it.rotate ? ` transform="rotate(-90 ${it.x} ${it.y})" text-anchor="end"` :
                          ` text-anchor="${it.anchor || 'start'}"`;
  return `<text class="${it.cls}" x="${it.x}" y="${it.y}" font-family="${FONT}" ` +
      `font-size="${it.size}"${it.bold ? ' font-weight="bold"' : ''}${rot}>${xml(it.t)}</text>`;
}
function toSvg(which) {
  const sc = exportScene(which);
  const body = sc.groups.map(
      g => `<g id="${g.id}" class="picture">${g.items.map(svgItem).join('')}</g>`);
  return `<svg xmlns="${SVG_NS}" width="${sc.width}" height="${sc.height}" ` +
      `viewBox="0 0 ${sc.width} ${sc.height}"><rect class="background" width="100%" ` +
      `height="100%" fill="#fff"/>${body.join('')}</svg>`;
}
function toPng(which) {
  const sc = exportScene(which), c = el('canvas', {width: sc.width, height: sc.height});
  const g = c.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, sc.width, sc.height);
  for (const it of sc.groups.flatMap(x => x.items)) {
    if (it.k === 'rect') {
      g.fillStyle = it.fill;
      g.fillRect(it.x, it.y, it.w, it.h);
    } else if (it.k === 'line') {
      g.strokeStyle = '#5b6673';
      g.beginPath(), g.moveTo(it.x1, it.y1), g.lineTo(it.x2, it.y2), g.stroke();
    } else {
      g.save();
      g.fillStyle = '#000';
      g.font = `${it.bold ? 'bold ' : ''}${it.size}px ${FONT}`;
      g.textAlign = it.rotate ? 'right' : it.anchor === 'middle' ? 'center' :
          it.anchor === 'end'                              ? 'right' :
                                                             'left';
      g.translate(it.x, it.y);
      if (it.rotate) g.rotate(-Math.PI / 2);
      g.fillText(it.t, 0, 0);
      g.restore();
    }
  }
  return c.toDataURL('image/png');
}

// ---------------------------------------------------------------------------------------------
// Start: the state from the URL fragment if there is one (then the embedded data is not its
// answer), the inputs, the embedded picture, then the library when its module is in the page.
document.getElementById('top').append(inputs, errorBox);
errorBox.hidden = true;
if (CATALOG.live && location.hash.length > 1) {
  state = fromHash(location.hash);
  D = null;
}
buildInputs();
if (D) show();
// The page's JavaScript interface (the tests drive the page through it, as a user would): the
// state, the exports, and the view of a picture (its cell size and offset; revealing a cell,
// showing the whole).
window.tessera = {
  state: () => state,
  svg: toSvg,
  png: toPng,
  view: id => Object.assign({}, gridById.get(id).view, {W: gridById.get(id).W,
                                                       H: gridById.get(id).H}),
  reveal: (id, row, col) => revealCell(gridById.get(id), row, col),
  whole: id => document.getElementById('zoom-fit-' + id).click(),
};
window.tesseraReady = true;
if (typeof TesseraWasm === 'function') {
  const b64 = atob(document.getElementById('tessera-wasm').textContent),
        bytes = new Uint8Array(b64.length);
  for (let i = 0; i < b64.length; ++i) bytes[i] = b64.charCodeAt(i);
  TesseraWasm({wasmBinary: bytes})
      .then(
          M => {
            const call = (fn, text) => {
              const n = M.lengthBytesUTF8(text) + 1, p = M._malloc(n);
              M.stringToUTF8(text, p, n);
              try {
                return M.UTF8ToString(fn(p));
              } finally {
                M._free(p);
              }
            };
            wasm = {
              batch: text => call(M._tessera_batch, String(text)),
              page: s => JSON.parse(call(M._tessera_page, JSON.stringify(s))),
              tma: s => JSON.parse(call(M._tessera_tma, JSON.stringify(s)))
            };
            // The JavaScript contract: JSON Lines in and out, exactly as `tessera batch`.
            window.tessera.batch = wasm.batch;
            window.tessera.page = wasm.page;
            window.tessera.tma = wasm.tma;
            const live = document.getElementById('live');
            if (live) live.remove();
            if (!D) recompute();
            window.tesseraLive = true;
          },
          e => {
            showError('the WebAssembly library did not load: ' + e);
          });
}
