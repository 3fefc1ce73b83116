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
.overlay label { margin-right: 8px; } .controls .overlay input[type=radio] { width: auto; }
.row > .panel.side { flex: 1 1 380px; min-width: 0; } .side code, .side td { overflow-wrap: anywhere; }
.summary td:first-child { white-space: nowrap; overflow-wrap: normal; } .overlay input[type=number] { width: 64px; }
.analysis { margin-bottom: 8px; max-width: 640px; } .analysis td { vertical-align: top; }
.analysis .active td { font-weight: 600; } .grade-bad { color: #b3261e; } .grade-ok { color: #8a6100; } .grade-great { color: #1e7b34; }
.legend { color: #5b6673; font-size: 12px; }
)CSS";

constexpr const char* kScript = R"JS(
'use strict';
const D = JSON.parse(document.getElementById('tessera-data').textContent);
const app = document.getElementById('app');
let selected = null;           // the thread whose elements are highlighted
// The memory-access overlay: 'owner' (threads), 'bank' (shared memory) or 'sector' (global), one
// warp's accesses, all of its instructions (-1) or one. The numbers are the library's (render.cpp).
let overlay = 'owner', warp = 0, instr = -1;
const onOverlay = [];          // text that follows the overlay state
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
// One color per bank or sector id (the same spread as threads, brighter); other cells: light gray.
function idColor(k) { return hsl((k * 137.508 + 20) % 360, 0.75, 0.55); }
function restColor() { return [240, 240, 240]; }
// The overlay's space: banks are shared memory, sectors global; 'owner' shows the page's --space.
const activeSpace = a => overlay === 'bank' ? 'shared' : overlay === 'sector' ? 'global' : a.space;
const overlayOn = g => overlay !== 'owner' && g.access && !g.access.error;

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
  // The overlay: the cells one warp accesses (in one instruction or all), colored by bank or sector.
  const drawOverlay = () => {
    const sp = g.access[activeSpace(g.access)], ids = overlay === 'bank' ? sp.bank : sp.sector, lit = [];
    buf.fill(0xffffffff);
    const rest = packed(restColor());
    for (let i = 0; i < g.owner.length; ++i) if (g.owner[i] >= 0) paint(i, rest);
    for (let t = warp * 32; t < Math.min(warp * 32 + 32, g.frag_of.length); ++t) {
      const f = g.frag_of[t], cells = g.frags[f], js = sp.instr[f];
      cells.forEach((c, i) => { if (instr < 0 || js[i] === instr) { paint(c, packed(idColor(ids[c]))); lit.push(c); } });
    }
    ctx.putImageData(img, 0, 0);
    if (cell >= 18) {
      ctx.fillStyle = '#000'; ctx.font = `${Math.floor(cell / 2.6)}px monospace`; ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
      for (const i of new Set(lit)) ctx.fillText(ids[i], (i % g.cols + 0.5) * cell, (Math.floor(i / g.cols) + 0.5) * cell);
    }
  };
  const draw = () => {
    if (overlayOn(g)) return drawOverlay();
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
    let where = '';
    if (g.access && !g.access.error) {
      const bank = g.access.shared.bank[i], sector = g.access.global.sector[i];
      Object.assign(hover.dataset, { bank, sector });
      if (overlay === 'bank') where = `, bank ${bank}`;
      if (overlay === 'sector') where = `, sector ${sector} (line ${Math.floor(sector / 4)})`;
    }
    hover.textContent = `thread ${t}${also}, value ${g.value[i]}, (${g.row_name},${g.col_name}) = (${row},${col}), offset ${g.offset[i]}${where}`;
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

// The analysis of one operand (analysis.hpp via render.cpp): the whole partition's numbers in both
// spaces, the verdict of the overlay's space, and the chosen warp's instruction(s).
function analysisPanel(g, id) {
  const a = g.access, box = el('div', { class: 'analysis', id: 'analysis-' + id });
  if (!a) return box;
  if (a.error) { box.append(el('div', { class: 'what', text: `memory-access analysis unavailable: ${a.error}` })); return box; }
  const G = a.global, S = a.shared, what = a.access + 's', sw = a.swizzle === 'Sw<0,0,0>' ? 'unswizzled' : `swizzled by ${a.swizzle}`;
  const row = (k, v, cls, vid) => el('tr', { class: cls || '' }, el('td', { text: k }), el('td', { class: 'mono', text: v, id: vid ? `${vid}-${id}` : undefined }));
  const tb = el('tbody');
  box.append(el('table', { class: 'summary' }, tb));
  const draw = () => {
    const sp = activeSpace(a), R = a[sp];
    tb.textContent = '';
    tb.append(row('access', `${a.elem_bits}-bit elements, ${what}, at most ${a.max_vector_bits}-bit vectors`),
      row('vector', `${R.vector_bits}-bit (contiguous aligned run ${R.run_bits} bits; ${R.in_order_bits}-bit in fragment order); ` +
          `${R.instructions} ${what} per thread (${R.min_instructions} at 128 bits)`, '', 'an-vector'),
      row('global', `${G.sectors} sectors per warp access (min ${G.min_sectors}: ${G.sector_eff}%), ${G.lines} lines (min ${G.min_lines}); ` +
          `all of a warp's ${what}: ${G.fp_sectors} sectors (min ${G.fp_min_sectors}: ${G.fp_eff}%)`, sp === 'global' ? 'active' : '', 'an-global'),
      row('shared', `${S.wf_per} wavefronts per warp access (ideal ${S.ideal_per}), worst ${S.way}-way: ${S.conflicts} bank conflicts ` +
          `in ${S.requests} warp accesses (${S.wavefronts} wavefronts, ideal ${S.ideal}); ${sw}`, sp === 'shared' ? 'active' : '', 'an-shared'));
    const v = el('td', { class: `mono grade-${R.grade}`, id: 'an-verdict-' + id, text: `${R.verdict} [${R.grade}]` });
    tb.append(el('tr', {}, el('td', { text: `verdict (${sp})` }), v));
    const per = R.per[warp];
    if (!per) { tb.append(row('warp', `warp ${warp}: none (${R.warps} warps)`, '', 'an-warp')); return; }
    const js = instr < 0 ? per.map((_, j) => j) : instr < per.length ? [instr] : [];
    const sum = k => js.reduce((s, j) => s + per[j][k], 0);
    const which = instr < 0 ? `all ${per.length} instructions` : instr < per.length ? `instruction ${instr} of ${per.length}` : `no instruction ${instr} (${per.length})`;
    const nums = sp === 'shared' ? `${sum(0)} wavefronts (ideal ${sum(1)}): ${sum(0) - sum(1)} bank conflicts`
                                 : `${sum(0)} sectors (min ${sum(1)}), ${sum(2)} lines (min ${sum(3)})`;
    tb.append(row('warp', `warp ${warp}, ${which}: ${nums}`, '', 'an-warp'));
  };
  onOverlay.push(draw);
  return box;
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
  const bar = el('div', { class: 'controls' }, 'Thread ', input, ' ', clear, info,
            el('span', { class: 'what', text: '  (type a number, or click a cell)' }));
  if (D.operands && D.operands.some(g => g.access)) bar.append(el('br'), overlayControls(threads));
  return bar;
}

// Overlay: owner / bank / sector, the warp and the instruction.
function overlayControls(threads) {
  const box = el('span', { class: 'overlay', id: 'overlay' }, 'Color by ');
  for (const m of ['owner', 'bank', 'sector']) {
    const r = el('input', { type: 'radio', name: 'overlay', id: 'overlay-' + m, value: m });
    r.addEventListener('change', () => { if (r.checked) setOverlay({ overlay: m }); });
    onOverlay.push(() => { r.checked = overlay === m; });
    box.append(el('label', {}, r, ' ' + m));
  }
  const warps = Math.ceil(threads / 32);
  const w = el('input', { type: 'number', id: 'warp', min: 0, max: warps - 1, value: 0 });
  w.addEventListener('input', () => { const k = Number(w.value); if (Number.isInteger(k) && k >= 0 && k < warps) setOverlay({ warp: k }); });
  const j = el('input', { type: 'number', id: 'instr', min: 0, placeholder: 'all' });
  j.addEventListener('input', () => { const k = Number(j.value); setOverlay({ instr: j.value === '' || !Number.isInteger(k) || k < 0 ? -1 : k }); });
  const legend = el('span', { class: 'legend', id: 'legend' });
  onOverlay.push(() => {
    if (document.activeElement !== w) w.value = warp;
    if (document.activeElement !== j) j.value = instr < 0 ? '' : instr;
    legend.textContent = overlay === 'bank' ? '  color = shared-memory bank (4-byte word mod 32, swizzle applied); gray: other warps or instructions'
      : overlay === 'sector' ? '  color = global 32-byte sector (byte address / 32); gray: other warps or instructions' : '';
  });
  box.append(` warp `, w, el('span', { class: 'what', text: ` of ${warps}` }), ' instruction ', j, legend);
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
  if (t !== null && overlay !== 'owner') { warp = Math.floor(t / 32); for (const f of onOverlay) f(); }
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
  if (D.hopper_text) app.append(el('pre', { text: D.hopper_text }));  // kernel 05: tiles, descriptors, TMA boxes
  const ids = ['C', 'A', 'B'];
  D.operands.forEach((g, k) => {
    const id = ids[k];
    const h = el('h2', { text: `${g.title}: ${g.rows} x ${g.cols}, colored by owning thread` });
    onOverlay.push(() => { h.textContent = `${g.title}: ${g.rows} x ${g.cols}, ` + (overlayOn(g)
      ? `warp ${warp}${instr < 0 ? '' : ` instruction ${instr}`} colored by ${overlay === 'bank' ? 'shared-memory bank' : 'global sector'}`
      : 'colored by owning thread'); });
    app.append(h,
      el('div', { class: 'row' }, el('div', { class: 'panel' }, ownershipGrid(g, id, 640)),
         el('div', { class: 'panel side' }, el('h3', { text: 'Memory access (one warp; overlay above)' }), analysisPanel(g, id),
            el('h3', { text: 'Fragment of the selected thread' }), fragmentPanel(g, id),
            el('h3', { text: 'Derivation of the partition' }), stepsPanel(g))));
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
      analysisPanel(g, id), ownershipGrid(g, id, 560),
      el('h3', { text: 'Fragment of the selected thread' }), fragmentPanel(g, id)));
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
setOverlay({ overlay: D.initial_overlay || 'owner', warp: D.initial_warp || 0 });
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
