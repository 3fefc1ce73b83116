// The page of `tessera render`: one HTML file with its style, script and data inline, so it
// opens from disk with no network. The script only draws the embedded data and handles events;
// every number it shows was computed by the library (render.cpp).
#include <string>

#include "render.hpp"

namespace tessera::tools {
namespace {

constexpr const char* kStyle = R"CSS(
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 24px 48px; color: #1d232b; background: #fafbfc; }
h1 { font-size: 20px; margin: 18px 0 4px; } h2 { font-size: 17px; margin: 26px 0 6px; }
h3 { font-size: 15px; margin: 12px 0 4px; }
code, .mono, td, .layout { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; }
.summary td { padding: 1px 12px 1px 0; } .summary td:first-child { color: #5b6673; }
.controls { position: sticky; top: 0; background: #fafbfc; padding: 8px 0; border-bottom: 1px solid #d8dde3; z-index: 2; }
.controls input { width: 80px; font-size: 14px; }
.row { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
.panel { background: #fff; border: 1px solid #d8dde3; border-radius: 6px; padding: 10px 12px; }
canvas { display: block; cursor: crosshair; image-rendering: pixelated; }
.hover { min-height: 1.5em; color: #24303c; }
.frag { max-height: 300px; overflow: auto; }
.frag table { border-collapse: collapse; } .frag td, .frag th { padding: 0 10px; text-align: right; }
.frag th { position: sticky; top: 0; background: #fff; font-weight: 600; }
ol.steps li { margin-bottom: 4px; } .what { color: #5b6673; }
.note { color: #5b6673; max-width: 900px; }
)CSS";

constexpr const char* kScript = R"JS(
'use strict';
const D = JSON.parse(document.getElementById('tessera-data').textContent);
const app = document.getElementById('app');
let selected = null;           // the thread whose elements are highlighted
const grids = [];              // every drawn picture
const onSelect = [];           // text that follows the selected thread

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'text') e.textContent = v; else if (k === 'class') e.className = v; else e.setAttribute(k, v);
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k);
  return e;
}

// One color per thread: hues spread by the golden angle so neighbouring threads differ.
const colorCache = new Map();
function hsl(h, s, l) {
  const f = n => { const k = (n + h / 30) % 12; return l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1)); };
  return [Math.round(255 * f(0)), Math.round(255 * f(8)), Math.round(255 * f(4))];
}
function threadColor(t) {
  if (!colorCache.has(t)) {
    const [r, g, b] = hsl((t * 137.508) % 360, 0.62 + 0.2 * ((t >> 3) % 2), 0.50 + 0.1 * (t % 3 - 1));
    colorCache.set(t, [r, g, b]);
  }
  return colorCache.get(t);
}
// Cells of other threads while one is selected: grays only (r = g = b), so tests can count.
function dimColor() { return [226, 226, 226]; }
// An opaque RGBA pixel as one little-endian 32-bit word (byte order r, g, b, a in memory).
const packed = ([r, g, b]) => ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;

const fragOf = (g, t) => g.frags[g.frag_of[t]];
function cellSize(rows, cols, px, lo, hi) { return Math.max(lo, Math.min(hi, Math.floor(px / Math.max(rows, cols)))); }

// A picture of thread ownership (grid JSON from render.cpp).
function ownershipGrid(g, id, px) {
  const cell = cellSize(g.rows, g.cols, px, 2, 28);
  const canvas = el('canvas', { id: 'grid-' + id, width: g.cols * cell, height: g.rows * cell, 'data-cell': cell,
                               'data-rows': g.rows, 'data-cols': g.cols });
  const hover = el('div', { class: 'hover mono', id: 'hover-' + id, text: 'hover a cell; click it to select its thread' });
  const ctx = canvas.getContext('2d');
  const gap = cell >= 5 ? 1 : 0;
  // Drawn into a pixel buffer (one fill per cell row): a 256x256 tile redraws in milliseconds.
  const img = ctx.createImageData(canvas.width, canvas.height), buf = new Uint32Array(img.data.buffer);
  const paint = (i, rgba) => {
    const x = (i % g.cols) * cell, y = Math.floor(i / g.cols) * cell;
    for (let dy = 0; dy < cell - gap; ++dy) { const at = (y + dy) * canvas.width + x; buf.fill(rgba, at, at + cell - gap); }
  };
  const draw = () => {
    buf.fill(0xffffffff);
    for (let i = 0; i < g.owner.length; ++i) {
      if (g.owner[i] < 0) continue;
      paint(i, packed(selected === null ? threadColor(g.owner[i]) : dimColor(g.owner[i])));
    }
    if (selected !== null && selected < g.frag_of.length) {
      const c = packed(threadColor(selected));
      for (const i of fragOf(g, selected)) paint(i, c);
    }
    ctx.putImageData(img, 0, 0);
    if (cell >= 18) {  // large cells: the value index in the owning thread's fragment
      ctx.fillStyle = '#000'; ctx.font = `${Math.floor(cell / 2.4)}px monospace`; ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
      for (let i = 0; i < g.owner.length; ++i)
        if (g.owner[i] >= 0) ctx.fillText(g.value[i], (i % g.cols + 0.5) * cell, (Math.floor(i / g.cols) + 0.5) * cell);
    }
  };
  const at = ev => {
    const r = canvas.getBoundingClientRect();
    const col = Math.floor((ev.clientX - r.left) / cell), row = Math.floor((ev.clientY - r.top) / cell);
    return row >= 0 && row < g.rows && col >= 0 && col < g.cols ? row * g.cols + col : -1;
  };
  canvas.addEventListener('mousemove', ev => {
    const i = at(ev);
    if (i < 0 || g.owner[i] < 0) return;
    const row = Math.floor(i / g.cols), col = i % g.cols, t = g.owner[i];
    const sh = g.shared[i];
    const also = sh ? ` (and ${sh.n - 1} more: ${sh.t.join(',')}${sh.n - 1 > sh.t.length ? ',…' : ''})` : '';
    hover.textContent = `thread ${t}${also}, value ${g.value[i]}, (${g.row_name},${g.col_name}) = (${row},${col}), offset ${g.offset[i]}`;
    Object.assign(hover.dataset, { thread: t, value: g.value[i], row, col, offset: g.offset[i] });
  });
  canvas.addEventListener('click', ev => { const i = at(ev); if (i >= 0 && g.owner[i] >= 0) select(g.owner[i]); });
  grids.push(draw);
  draw();
  return el('div', {}, canvas, hover);
}

// The selected thread's fragment: value index -> (row, col) -> offset, and its layout.
function fragmentPanel(g, id) {
  const line = el('div', { class: 'layout', id: 'fraglayout-' + id });
  const box = el('div', { class: 'frag', id: 'frag-' + id });
  onSelect.push(t => {
    box.textContent = ''; line.textContent = '';
    if (t === null) { line.textContent = 'select a thread to see its fragment'; return; }
    line.textContent = `thread ${t}: fragment = ${g.layouts[t]}`;
    const tb = el('tbody');
    fragOf(g, t).forEach((cell, i) => tb.append(el('tr', {}, el('td', { text: i }),
      el('td', { text: `(${Math.floor(cell / g.cols)},${cell % g.cols})` }), el('td', { text: g.offset[cell] }))));
    box.append(el('table', {}, el('thead', {}, el('tr', {}, el('th', { text: 'value' }),
      el('th', { text: `(${g.row_name},${g.col_name})` }), el('th', { text: 'offset' }))), tb));
  });
  return el('div', {}, line, box);
}

// The five derivation steps of one operand (steps 1-4 shared by all threads, step 5 the slice).
function stepsPanel(g) {
  const ol = el('ol', { class: 'steps' });
  for (const s of g.steps.slice(0, 4))
    ol.append(el('li', {}, el('b', { text: s.name }), ' ', el('span', { class: 'what', text: s.what }), el('br'), el('code', { text: s.layout })));
  const last = el('li');
  ol.append(last);
  onSelect.push(t => {
    const th = t === null ? 0 : t;
    last.textContent = '';
    last.append(el('b', { text: 'slice' }), ' ', el('span', { class: 'what', text: `thread ${th} at (v,m,n,k) = ${D.thread_coord ? D.thread_coord[th] : th}: offset + fragment` }),
                el('br'), el('code', { text: g.layouts[th] }));
  });
  return ol;
}

function summary(rows) {
  const tb = el('tbody');
  for (const [k, v] of rows) tb.append(el('tr', {}, el('td', { text: k }), el('td', { class: 'mono', text: v })));
  return el('table', { class: 'summary' }, tb);
}

function controls(threads) {
  const input = el('input', { type: 'number', id: 'thread', min: 0, max: threads - 1, placeholder: 'thread' });
  input.addEventListener('input', () => {
    const t = Number(input.value);
    select(input.value === '' || !Number.isInteger(t) || t < 0 || t >= threads ? null : t);
  });
  const clear = el('button', { id: 'clear', text: 'show all' });
  clear.addEventListener('click', () => { input.value = ''; select(null); });
  const info = el('span', { id: 'selected-info', class: 'mono' });
  onSelect.push(t => { input.value = t === null ? '' : t;
    info.textContent = t === null ? '' : ` thread ${t}` + (D.thread_coord ? ` at (v,m,n,k) = ${D.thread_coord[t]}` : ''); });
  return el('div', { class: 'controls' }, 'Thread ', input, ' ', clear, info,
            el('span', { class: 'what', text: '  (type a number, or click a cell)' }));
}

function select(t) {
  selected = t;
  for (const draw of grids) draw();
  for (const f of onSelect) f(t);
}

function mmaPage() {
  const [M, N, K] = D.tile;
  app.append(el('h1', { text: `TiledMMA ${D.name}` }), summary([
    ['atom', `${D.atom} (${D.atom_mnk.join('x')}x)`.replace('x)', ')')],
    ['atom layout', D.atom_layout], ['permutation', `${D.permutation}  =>  M ${D.perm_layouts[0]}, N ${D.perm_layouts[1]}, K ${D.perm_layouts[2]}`],
    ['threads', `${D.threads}, thread layout (V,M,N,K) ${D.thr_vmnk}`], ['CTA tile', `${M} x ${N} x ${K}`]]),
    controls(D.threads));
  const ids = ['C', 'A', 'B'];
  D.operands.forEach((g, k) => {
    const id = ids[k];
    app.append(el('h2', { text: `${g.title}: ${g.rows} x ${g.cols}, colored by owning thread` }),
      el('div', { class: 'row' }, el('div', { class: 'panel' }, ownershipGrid(g, id, 640)),
         el('div', { class: 'panel' }, el('h3', { text: 'Fragment of the selected thread' }), fragmentPanel(g, id),
            el('h3', { text: 'Derivation (seed 002)' }), stepsPanel(g))));
  });
  if (D.compare.length) {
    app.append(el('h2', { text: 'Alternative permutations of C (same atom, atom layout and tile)' }),
      el('p', { class: 'note', text: 'Same element count per thread, different arrangement: selecting a thread shows where its elements go under each permutation.' }));
    const row = el('div', { class: 'row' });
    const all = [Object.assign({}, D.operands[0], { title: `permutation ${D.permutation} (this TiledMMA)` }), ...D.compare];
    all.forEach((g, k) => {
      const frag = el('div', { class: 'layout' });
      onSelect.push(t => { frag.textContent = `thread ${t === null ? 0 : t}: ${g.layouts[t === null ? 0 : t]}`; });
      row.append(el('div', { class: 'panel' }, el('h3', { text: g.title }),
        el('div', { class: 'layout', text: `logical_divide: ${g.steps[0].layout}` }), frag, ownershipGrid(g, 'cmp-' + k, 320)));
    });
    app.append(row);
  }
}

function copyPage() {
  app.append(el('h1', { text: `TiledCopy ${D.atom}` }), summary([
    ['atom', `${D.atom}, ${D.elem_bits}-bit elements`], ['thread layout', D.thr], ['value layout', D.val],
    ['tile', D.tile], ['TV layout', `${D.layout_tv}  (thread, value) -> index in the tile`], ['threads', `${D.threads}`]]),
    controls(D.threads));
  const row = el('div', { class: 'row' });
  D.operands.forEach((g, k) => {
    const id = k === 0 ? 'src' : 'dst';
    row.append(el('div', { class: 'panel' }, el('h2', { text: `${g.title}: ${g.rows} x ${g.cols}` }),
      ownershipGrid(g, id, 560), el('h3', { text: 'Fragment of the selected thread' }), fragmentPanel(g, id)));
  });
  app.append(row);
}

function layoutPage() {
  app.append(el('h1', { text: `Layout ${D.layout}` }), summary([['size', D.size], ['cosize', D.cosize], ['rank', D.rank],
    ['picture', D.rank > 2 ? `${D.rows} x ${D.cols}: mode 0 down, modes 1.. folded across (colexicographic)` : `${D.rows} x ${D.cols}`]]));
  const cell = cellSize(D.rows, D.cols, 720, 3, 44);
  const canvas = el('canvas', { id: 'grid-layout', width: D.cols * cell, height: D.rows * cell, 'data-cell': cell });
  const hover = el('div', { class: 'hover mono', id: 'hover-layout', text: 'hover a cell' });
  const ctx = canvas.getContext('2d');
  const gap = cell >= 5 ? 1 : 0;
  for (let i = 0; i < D.values.length; ++i) {
    const [r, g, b] = hsl(240 * D.values[i] / Math.max(1, D.cosize - 1), 0.55, 0.72);
    ctx.fillStyle = `rgb(${r},${g},${b})`;
    ctx.fillRect((i % D.cols) * cell, Math.floor(i / D.cols) * cell, cell - gap, cell - gap);
  }
  if (cell >= 16) {
    ctx.fillStyle = '#000'; ctx.font = `${Math.floor(cell / 2.6)}px monospace`; ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
    for (let i = 0; i < D.values.length; ++i) ctx.fillText(D.values[i], (i % D.cols + 0.5) * cell, (Math.floor(i / D.cols) + 0.5) * cell);
  }
  canvas.addEventListener('mousemove', ev => {
    const rc = canvas.getBoundingClientRect();
    const col = Math.floor((ev.clientX - rc.left) / cell), row = Math.floor((ev.clientY - rc.top) / cell);
    if (row < 0 || row >= D.rows || col < 0 || col >= D.cols) return;
    const i = row * D.cols + col;
    hover.textContent = `(${row},${col}): coordinate ${D.coords[i]} -> value ${D.values[i]}`;
    Object.assign(hover.dataset, { row, col, coord: D.coords[i], value: D.values[i] });
  });
  app.append(el('div', { class: 'panel' }, canvas, hover));
}

if (D.kind === 'mma') mmaPage(); else if (D.kind === 'copy') copyPage(); else layoutPage();
select(Number.isInteger(D.initial_thread) ? D.initial_thread : null);
window.tesseraReady = true;
)JS";

// The data inside a <script> element: "</" would end it, so it becomes "<\/" (same JSON).
std::string script_safe(std::string s) {
  for (size_t at = s.find("</"); at != std::string::npos; at = s.find("</", at + 3)) s.insert(at + 1, "\\");
  return s;
}

std::string html_escape(std::string const& s) {
  std::string o;
  for (char c : s) o += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
  return o;
}

}  // namespace

std::string render_page(nlohmann::json const& data) {
  std::string kind = data.value("kind", "layout");
  std::string title = "tessera: " + (kind == "mma" ? "TiledMMA " + data.value("name", std::string())
                                     : kind == "copy" ? "TiledCopy " + data.value("atom", std::string())
                                                      : "layout " + data.value("layout", std::string()));
  std::string page = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                     "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                     "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
                     "<title>" + html_escape(title) + "</title>\n<style>" + kStyle + "</style></head>\n"
                     "<body>\n<main id=\"app\"></main>\n"
                     "<script type=\"application/json\" id=\"tessera-data\">" + script_safe(data.dump()) +
                     "</script>\n<script>" + kScript + "</script>\n</body></html>\n";
  return page;
}

}  // namespace tessera::tools
