// perfkit HTML report: reads the profile embedded as JSON in the page and
// draws a summary, the top functions, a flame graph, the inverted
// (callers) graph and a timeline of samples per thread and CPU.
// Names come from the recorded program: they are only ever set with
// textContent / d3's .text(), never parsed as HTML.
import { select } from 'd3-selection';
import { scaleSequential } from 'd3-scale';
import { interpolateYlOrRd } from 'd3-scale-chromatic';
import { flamegraph } from 'd3-flame-graph';

const data = JSON.parse(document.getElementById('perfkit-data').textContent);

function el(parent, tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  parent.appendChild(e);
  return e;
}

function fmtPct(v, total) {
  return total ? (100 * v / total).toFixed(2) + '%' : '0%';
}

function fmtNs(ns) {
  if (ns >= 1e9) return (ns / 1e9).toFixed(3) + ' s';
  if (ns >= 1e6) return (ns / 1e6).toFixed(3) + ' ms';
  return (ns / 1e3).toFixed(1) + ' us';
}

function summary(root) {
  const m = data.meta;
  el(root, 'h1', 'perfkit report: ' + (m.title || ''));
  const t = el(root, 'table', undefined, 'summary');
  const rows = [
    ['Command', m.cmdline || '(unknown)'],
    ['Host', m.hostname || '(unknown)'],
    ['Duration', fmtNs(m.duration_ns)],
    ['Samples', String(m.samples)],
    ['Lost', String(m.lost)],
    ['Events', m.events.map((e) => e.name + ' (' + e.samples + ')').join(', ')],
  ];
  for (const [k, v] of rows) {
    const tr = el(t, 'tr');
    el(tr, 'th', k);
    el(tr, 'td', v);
  }
}

function topTable(root, title, key) {
  const sec = el(root, 'section', undefined, 'top');
  el(sec, 'h2', title);
  const t = el(sec, 'table', undefined, 'top-table');
  const head = el(t, 'tr');
  for (const h of ['Self', 'Total', 'Function', 'Object']) el(head, 'th', h);
  const total = data.top_total || 1;
  const rows = data.top.slice().sort((a, b) => b[key] - a[key] || (a.name < b.name ? -1 : 1));
  for (const f of rows.slice(0, 25)) {
    const tr = el(t, 'tr');
    el(tr, 'td', fmtPct(f.self, total), 'num');
    el(tr, 'td', fmtPct(f.total, total), 'num');
    el(tr, 'td', f.name, 'fn');
    el(tr, 'td', f.dso || '', 'dso');
  }
}

function flameSection(root, id, title, tree, inverted) {
  const sec = el(root, 'section', undefined, 'flame');
  sec.id = id;
  el(sec, 'h2', title);
  const bar = el(sec, 'div', undefined, 'bar');
  const input = el(bar, 'input');
  input.type = 'search';
  input.placeholder = 'Search (regular expression)';
  input.className = 'search';
  const reset = el(bar, 'button', 'Reset zoom');
  const details = el(sec, 'div', '\u00a0', 'details');
  const box = el(sec, 'div', undefined, 'chart');
  const width = Math.max(400, (root.clientWidth || 1200) - 20);
  const chart = flamegraph()
    .width(width)
    .cellHeight(18)
    .transitionDuration(300)
    .minFrameSize(1)
    .inverted(inverted)
    .sort(true)
    .title('')
    .setDetailsElement(details);
  select(box).datum(tree).call(chart);
  input.addEventListener('input', () => {
    let ok = true;
    try { new RegExp(input.value); } catch (e) { ok = false; }
    if (!ok) { details.textContent = 'bad regular expression'; return; }
    if (input.value) chart.search(input.value); else chart.clear();
  });
  reset.addEventListener('click', () => chart.resetZoom());
  return chart;
}

function timeline(root) {
  const tl = data.timeline;
  const sec = el(root, 'section', undefined, 'timeline');
  el(sec, 'h2', 'Timeline (samples per ' + fmtNs(tl.width_ns) + ')');
  const rows = tl.threads.map((t) => ({ label: t.label, counts: t.counts }))
    .concat(tl.cpus.map((c) => ({ label: 'CPU ' + c.cpu, counts: c.counts })));
  const n = tl.buckets, labelW = 260, cellW = Math.max(2, Math.floor(900 / Math.max(1, n)));
  const rowH = 14;
  let max = 1;
  for (const r of rows) for (const v of r.counts) if (v > max) max = v;
  const color = scaleSequential(interpolateYlOrRd).domain([0, max]);
  const svg = select(sec).append('svg')
    .attr('width', labelW + n * cellW + 10)
    .attr('height', rows.length * rowH + 10);
  const g = svg.selectAll('g.row').data(rows).enter().append('g')
    .attr('class', 'row')
    .attr('transform', (d, i) => 'translate(0,' + (i * rowH) + ')');
  g.append('text').attr('x', 0).attr('y', rowH - 3).attr('class', 'label')
    .text((d) => d.label.length > 40 ? d.label.slice(0, 38) + '..' : d.label)
    .append('title').text((d) => d.label);
  g.each(function (d) {
    const cells = [];
    d.counts.forEach((v, i) => { if (v) cells.push([i, v]); });
    select(this).selectAll('rect').data(cells).enter().append('rect')
      .attr('x', (c) => labelW + c[0] * cellW).attr('y', 1)
      .attr('width', cellW).attr('height', rowH - 2)
      .attr('fill', (c) => color(c[1]))
      .append('title').text((c) => d.label + ': ' + c[1] + ' samples at +' +
        fmtNs(c[0] * tl.width_ns));
  });
}

function main() {
  const root = document.getElementById('app');
  summary(root);
  const tops = el(root, 'div', undefined, 'tops');
  topTable(tops, 'Top functions (self)', 'self');
  topTable(tops, 'Top functions (total)', 'total');
  window.perfkitFlame = flameSection(root, 'flamegraph', 'Flame graph', data.flame, false);
  window.perfkitCallers = flameSection(root, 'callers', 'Callers (inverted)', data.inverted, true);
  timeline(root);
  document.body.dataset.ready = '1';
}

main();
