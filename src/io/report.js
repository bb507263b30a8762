/*
 * report.js - builds gpumem's HTML report from the JSON island "gm-data"
 * (written by src/io/html.c) with Chart.js, which the page embeds.
 * Sections: measured spec sheet, one section per family with the charts of
 * the chart table (src/io/report_charts.c), the sortable table of every
 * case, the runs' metadata. With several runs every chart overlays them.
 * No network: everything is in the page.
 */
(function () {
  'use strict';
  const D = JSON.parse(document.getElementById('gm-data').textContent);
  const root = document.getElementById('report');
  const multi = D.runs.length > 1;
  const palette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf',
                   '#7f7f7f', '#bcbd22'];
  const runDash = [[], [6, 4], [2, 3], [10, 3, 2, 3]];
  const levels = ['registers', 'L1', 'smem', 'L2', 'L2 near', 'L2 far', 'HBM', 'TLB', 'constant', 'texture',
                  'local', 'PCIe', 'NVLink'];
  const byteParams = { footprint: 1, bytes: 1, working_set: 1, size: 1 };

  function el(tag, attrs, kids) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      if (k === 'text') e.textContent = attrs[k];
      else e.setAttribute(k, attrs[k]);
    }
    for (const kid of kids || []) e.appendChild(typeof kid === 'string' ? document.createTextNode(kid) : kid);
    return e;
  }

  function fmtBytes(b) {
    const u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let i = 0;
    while (Math.abs(b) >= 1024 && i < u.length - 1) { b /= 1024; i++; }
    return (Number.isInteger(b) ? b.toString() : b.toPrecision(3)) + ' ' + u[i];
  }

  function fmtNum(v) {
    const a = Math.abs(v);
    if (a === 0) return '0';
    if (a >= 1000) return v.toFixed(0);
    if (a >= 100) return v.toFixed(1);
    if (a >= 10) return v.toFixed(2);
    return v.toPrecision(3);
  }

  function fmt(v, unit) {
    if (v === null || v === undefined || Number.isNaN(v)) return '-';
    if (unit === 'B') return fmtBytes(v);
    return fmtNum(v) + (unit ? ' ' + unit : '');
  }

  /* ---- case fields and selection ---- */
  function field(c, name) {
    if (name === 'label') return c.label;
    if (c.params && name in c.params) return c.params[name];
    if (name in c.extras) return c.extras[name].v;
    const v = c[name];
    return typeof v === 'number' ? v : undefined;
  }

  function matches(spec, c) {
    if (c.status !== 'ok') return false;
    if (spec.family ? c.family !== spec.family : c.unit !== spec.unit) return false;
    if (spec.unit && c.unit !== spec.unit) return false;
    if (spec.filter) {
      const kv = spec.filter.split('=');
      if (String(field(c, kv[0])) !== kv[1]) return false;
    }
    return true;
  }

  function seriesNames(spec) {
    const m = {};
    for (const kv of (spec.series_names || '').split(',').filter(Boolean)) {
      const p = kv.split('=');
      m[p[0]] = p[1];
    }
    return m;
  }

  function seriesKey(spec, c, names) {
    if (!spec.series) return '';
    const keys = spec.series.split(',');
    if (keys.length === 1 && String(field(c, keys[0])) in names) return names[String(field(c, keys[0]))];
    return keys.map((k) => k + '=' + field(c, k)).join(' ');
  }

  function axisTitle(name, unit) {
    if (name in byteParams) return name + ' (bytes, log scale)';
    return name.replace(/_/g, ' ') + (unit ? ' (' + unit + ')' : '');
  }

  function ticks(isBytes, unit) {
    return {
      callback: function (v) {
        const mant = v / Math.pow(10, Math.floor(Math.log10(Math.abs(v)) + 1e-9));
        if (this.type === 'logarithmic' && !isBytes && [1, 2, 5].indexOf(Math.round(mant)) < 0) return '';
        if (isBytes) {
          const l = Math.log2(v);
          return Math.abs(l - Math.round(l)) < 1e-6 && Math.round(l) % 2 === 0 ? fmtBytes(v) : '';
        }
        return fmtNum(v);
      },
      autoSkip: !isBytes, maxRotation: 0
    };
  }

  function color(i, alpha) {
    const c = palette[i % palette.length];
    if (alpha === undefined) return c;
    const n = parseInt(c.slice(1), 16);
    return 'rgba(' + (n >> 16) + ',' + ((n >> 8) & 255) + ',' + (n & 255) + ',' + alpha + ')';
  }

  function runPrefix(r) { return multi ? r.label + ': ' : ''; }

  /* ---- whiskers: min-max of each bar, drawn after the bars (Chart.js has no error bars) ---- */
  const whiskers = {
    id: 'gmWhiskers',
    afterDatasetsDraw: function (chart) {
      const ctx = chart.ctx;
      chart.data.datasets.forEach(function (ds, i) {
        if (!ds.gmRange || !chart.isDatasetVisible(i)) return;
        const meta = chart.getDatasetMeta(i), y = chart.scales.y;
        ctx.save();
        ctx.strokeStyle = '#333';
        ctx.lineWidth = 1;
        meta.data.forEach(function (bar, j) {
          const r = ds.gmRange[j];
          if (!r) return;
          const x = bar.x, lo = y.getPixelForValue(r[0]), hi = y.getPixelForValue(r[1]);
          ctx.beginPath();
          ctx.moveTo(x, lo); ctx.lineTo(x, hi);
          ctx.moveTo(x - 4, lo); ctx.lineTo(x + 4, lo);
          ctx.moveTo(x - 4, hi); ctx.lineTo(x + 4, hi);
          ctx.stroke();
        });
        ctx.restore();
      });
    }
  };

  function baseOptions(spec, xType, yType, unit) {
    const xBytes = spec.x in byteParams;
    return {
      animation: false, responsive: true, maintainAspectRatio: false,
      interaction: { mode: 'nearest', intersect: false },
      plugins: {
        legend: { position: 'bottom', labels: { boxWidth: 18, font: { size: 11 } } },
        tooltip: {
          callbacks: {
            label: function (ctx) {
              const p = ctx.raw, who = ctx.dataset.label;
              if (p && p.name) return who + ' ' + p.name + ': ' + fmt(p.y, unit);
              return who + ': ' + fmt(ctx.parsed.y, unit);
            }
          }
        }
      },
      scales: {
        x: { type: xType, title: { display: true, text: spec.x === 'label' ? 'case' : axisTitle(spec.x) },
             ticks: xType === 'category' ? { autoSkip: false, maxRotation: 60 } : ticks(xBytes),
             /* a byte axis ticks at powers of 4 (1 KiB, 4 KiB, ...), not at 1-2-5 decades */
             afterBuildTicks: xBytes && xType === 'logarithmic' ? function (axis) {
               const t = [];
               for (let e = Math.ceil(Math.log2(axis.min) / 2) * 2; Math.pow(2, e) <= axis.max; e += 2) t.push({ value: Math.pow(2, e) });
               if (t.length) axis.ticks = t;
             } : undefined },
        y: { type: yType, title: { display: true, text: (spec.y === 'value' ? 'measured' : spec.y.replace(/_/g, ' ')) +
                                   ' (' + unit + (yType === 'logarithmic' ? ', log scale' : '') + ')' },
             ticks: ticks(false), beginAtZero: yType !== 'logarithmic' }
      }
    };
  }

  /* ---- chart kinds: each returns a Chart.js config, or null when there is nothing to draw ---- */
  function lineConfig(spec, sel) {
    const names = seriesNames(spec), datasets = [], series = [];
    let unit = '', ymin = Infinity, ymax = 0;
    sel.forEach(function (cases, ri) {
      const groups = new Map();
      for (const c of cases) {
        const k = seriesKey(spec, c, names);
        if (!groups.has(k)) groups.set(k, []);
        groups.get(k).push(c);
        unit = c.unit;
      }
      for (const [k, cs] of groups) {
        if (series.indexOf(k) < 0) series.push(k);
        const si = series.indexOf(k);
        cs.sort((a, b) => field(a, spec.x) - field(b, spec.x));
        const pts = cs.map((c) => ({ x: field(c, spec.x), y: field(c, spec.y), name: c.name }))
                      .filter((p) => p.x !== undefined && p.y !== undefined && (!spec.xlog || p.x > 0) &&
                              (!spec.ylog || p.y > 0));
        pts.forEach((p) => { ymin = Math.min(ymin, p.y); ymax = Math.max(ymax, p.y); });
        datasets.push({ label: runPrefix(D.runs[ri]) + (k || 'measured'), data: pts, borderColor: color(si),
                        backgroundColor: color(si), borderDash: runDash[ri % runDash.length], pointRadius: 2,
                        borderWidth: 2 });
        if (spec.model && ri === 0) {
          const mp = cs.map((c) => ({ x: field(c, spec.x), y: field(c, spec.model), name: c.name }))
                       .filter((p) => p.y > 0 && (!spec.xlog || p.x > 0));
          if (mp.length)
            datasets.push({ label: 'model' + (k ? ': ' + k : ''), data: mp, borderColor: color(si, 0.55),
                            backgroundColor: color(si, 0.55), borderDash: [3, 3], pointRadius: 0, borderWidth: 1.5 });
        }
      }
    });
    if (!datasets.some((d) => d.data.length)) return null;
    addMarks(spec, datasets, ymin, ymax);
    return { type: 'line', data: { datasets: datasets },
             options: baseOptions(spec, spec.xlog ? 'logarithmic' : 'linear', spec.ylog ? 'logarithmic' : 'linear', unit) };
  }

  /* Detected sizes (derived results of the family) as vertical lines. */
  function addMarks(spec, datasets, ymin, ymax) {
    if (!spec.marks || !(ymax > 0)) return;
    D.runs.forEach(function (r, ri) {
      for (const d of r.derived) {
        if (d.family !== spec.family || d.quantity !== spec.marks || !(d.value > 0)) continue;
        datasets.push({ label: runPrefix(r) + (d.level || d.name) + ' ' + d.quantity + ' ' + fmt(d.value, d.unit),
                        data: [{ x: d.value, y: ymin }, { x: d.value, y: ymax }], borderColor: '#555',
                        backgroundColor: '#555', borderDash: [2, 2].concat(runDash[ri % runDash.length]),
                        pointRadius: 0, borderWidth: 1 });
      }
    });
  }

  function barConfig(spec, sel) {
    const labels = [], datasets = [];
    let unit = '';
    sel.forEach((cases) => cases.forEach((c) => {
      const x = String(field(c, spec.x));
      if (labels.indexOf(x) < 0) labels.push(x);
      unit = c.unit;
    }));
    if (!labels.length) return null;
    sel.forEach(function (cases, ri) {
      const at = (x) => cases.find((c) => String(field(c, spec.x)) === x);
      const ys = labels.map((x) => { const c = at(x); return c ? field(c, spec.y) : null; });
      datasets.push({ type: 'bar', label: multi ? D.runs[ri].label : 'measured (median)', data: ys,
                      backgroundColor: color(ri, 0.75), borderColor: color(ri), borderWidth: 1,
                      gmRange: labels.map((x) => { const c = at(x); return c && spec.y === 'value' ? [c.min, c.max] : null; }) });
      if (spec.model && ri === 0 && cases.some((c) => field(c, spec.model) > 0))
        datasets.push({ type: 'line', label: 'model bound', showLine: false, pointStyle: 'line', pointRadius: 10,
                        pointBorderWidth: 2, borderColor: '#000', backgroundColor: '#000', borderDash: [3, 3],
                        data: labels.map((x) => { const c = at(x); return c && field(c, spec.model) > 0 ? field(c, spec.model) : null; }) });
      if (spec.ceiling)
        cases.filter((c) => c.label.indexOf(spec.ceiling) === 0).forEach(function (c, k) {
          datasets.push({ type: 'line', label: runPrefix(D.runs[ri]) + 'ceiling: ' + c.label + ' ' + fmt(c.value, c.unit),
                          data: labels.map(() => c.value), pointRadius: 0, borderWidth: 2,
                          borderColor: color(k + 3), borderDash: runDash[ri % runDash.length] });
        });
    });
    const o = baseOptions(spec, 'category', spec.ylog ? 'logarithmic' : 'linear', unit);
    return { type: 'bar', data: { labels: labels, datasets: datasets }, options: o, plugins: [whiskers] };
  }

  function scatterConfig(spec, sel) {
    const names = seriesNames(spec), datasets = [], series = [];
    let lo = Infinity, hi = 0, unit = '';
    sel.forEach(function (cases, ri) {
      const groups = new Map();
      for (const c of cases) {
        const x = field(c, spec.x), y = field(c, spec.y);
        if (!(x > 0) || !(y > 0)) continue;
        const k = seriesKey(spec, c, names);
        if (!groups.has(k)) groups.set(k, []);
        groups.get(k).push({ x: x, y: y, name: c.name });
        lo = Math.min(lo, x, y); hi = Math.max(hi, x, y);
        unit = 'x';
      }
      for (const [k, pts] of groups) {
        if (series.indexOf(k) < 0) series.push(k);
        const si = series.indexOf(k);
        datasets.push({ type: 'scatter', label: runPrefix(D.runs[ri]) + (k || 'measured'), data: pts,
                        borderColor: color(si), backgroundColor: color(si, 0.6), pointRadius: 4,
                        pointStyle: ['circle', 'triangle', 'rect', 'star'][ri % 4] });
      }
    });
    if (!datasets.length) return null;
    datasets.push({ type: 'line', label: 'model = measured', data: [{ x: lo * 0.8, y: lo * 0.8 }, { x: hi * 1.25, y: hi * 1.25 }],
                    borderColor: '#888', borderDash: [4, 4], pointRadius: 0, borderWidth: 1 });
    const o = baseOptions(spec, spec.xlog ? 'logarithmic' : 'linear', spec.ylog ? 'logarithmic' : 'linear', unit);
    o.scales.x.title.text = 'model: ' + spec.x.replace(/_/g, ' ') + ' (x, log scale)';
    o.scales.y.title.text = 'measured: ' + spec.y.replace(/_/g, ' ') + ' (x, log scale)';
    return { type: 'scatter', data: { datasets: datasets }, options: o };
  }

  function rooflineConfig(spec, sel) {
    const datasets = [];
    let xlo = Infinity, xhi = 0, top = 0;
    sel.forEach(function (cases, ri) {
      const pts = cases.map((c) => ({ x: field(c, spec.x), y: c.value, name: c.name })).filter((p) => p.x > 0 && p.y > 0);
      pts.forEach((p) => { xlo = Math.min(xlo, p.x); xhi = Math.max(xhi, p.x); top = Math.max(top, p.y); });
      if (pts.length)
        datasets.push({ type: 'scatter', label: runPrefix(D.runs[ri]) + 'compute cases', data: pts,
                        borderColor: color(ri), backgroundColor: color(ri, 0.6), pointRadius: 5 });
    });
    if (!datasets.length) return null;
    const r0 = D.runs[0];
    const hbm = r0.derived.find((d) => d.level === 'HBM' && d.unit === 'GB/s');
    const bw = hbm ? hbm.value : r0.device ? r0.device.peak_gbs : 0;
    const fp32 = r0.derived.find((d) => d.level === 'FP32' && d.unit === 'TFLOP/s');
    if (fp32) top = fp32.value; /* the measured FP32 FMA ceiling, when the run has it */
    if (bw > 0) {
      const xs = [xlo / 4, top * 1000 / bw, xhi * 4];
      datasets.push({ type: 'line', label: 'roof: ' + (hbm ? 'measured HBM ' : 'peak HBM ') + fmt(bw, 'GB/s') + ', ' + (fp32 ? 'FP32 FMA ' : '') + fmt(top, 'TFLOP/s'),
                      data: xs.map((x) => ({ x: x, y: Math.min(top, bw * x / 1000) })), borderColor: '#444',
                      pointRadius: 0, borderWidth: 2 });
    }
    const o = baseOptions(spec, 'logarithmic', 'logarithmic', 'TFLOP/s');
    o.scales.x.title.text = 'arithmetic intensity (FLOP per DRAM byte, log scale)';
    return { type: 'scatter', data: { datasets: datasets }, options: o };
  }

  const kinds = { line: lineConfig, bar: barConfig, scatter: scatterConfig, roofline: rooflineConfig };
  let drawn = 0;

  function chartBox(spec, config) {
    const canvas = el('canvas', { 'aria-label': spec.title, role: 'img' });
    const box = el('figure', { class: 'chart' }, [
      el('figcaption', {}, [el('strong', { text: spec.title }), el('span', { text: spec.what }), el('span', { text: spec.how })]),
      el('div', { class: 'canvas-box' + (config.type === 'bar' && config.data.labels.length > 14 ? ' wide' : '') }, [canvas])
    ]);
    return { box: box, draw: function () { new Chart(canvas.getContext('2d'), config); drawn++; } };
  }

  /* ---- sections ---- */
  function header() {
    const r = D.runs[0];
    root.appendChild(el('h1', { text: 'gpumem report: ' + (r.device ? r.device.name : 'no device') }));
    root.appendChild(el('p', { class: 'sub', text: D.runs.map((x) => x.label + ' (' + (x.started_utc || 'no date') + ', ' +
                                                              x.cases.length + ' cases)').join(' vs ') +
                                                   '. Written by gpumem ' + D.tool_version + '.' }));
    const devs = new Set(D.runs.map((x) => x.device ? x.device.name : 'no device'));
    if (devs.size > 1)
      root.appendChild(el('p', { class: 'warn', text: 'warning: these runs come from different devices (' + Array.from(devs).join(', ') + ')' }));
  }

  function specRows(r) {
    const rows = r.derived.filter((d) => d.level);
    const order = (d) => { const i = levels.indexOf(d.level); return i < 0 ? levels.length : i; };
    rows.sort((a, b) => order(a) - order(b));
    if (!rows.some((d) => d.level === 'HBM')) {
      const dram = r.cases.filter((c) => c.status === 'ok' && c.unit === 'GB/s' && c.pred_gbs > 0);
      const best = dram.reduce((b, c) => (!b || c.value > b.value ? c : b), null);
      if (best && r.device)
        rows.push({ level: 'HBM', quantity: 'best kernel bandwidth', unit: 'GB/s', value: best.value,
                    reference: r.device.peak_gbs, reference_what: 'theoretical peak (2 x memory clock x bus width)',
                    how: 'the fastest validated case, ' + best.name + ' (this run has no derived HBM result)' });
    }
    if (r.device && !rows.some((d) => d.level === 'L2' && d.quantity === 'capacity'))
      rows.push({ level: 'L2', quantity: 'size (not measured)', unit: 'B', value: null, reference: r.device.l2_bytes,
                  reference_what: 'device attribute', how: 'no hierarchy sweep in this run' });
    if (r.device && !rows.some((d) => d.level === 'smem'))
      rows.push({ level: 'smem', quantity: 'per SM (not measured)', unit: 'B', value: null, reference: r.device.smem_per_sm,
                  reference_what: 'device attribute', how: 'no shared-memory capacity case in this run' });
    return rows;
  }

  function specSheet() {
    const sec = el('section', { id: 'spec' }, [el('h2', { text: 'Measured spec sheet' }),
      el('p', { class: 'note', text: 'What the runs measured per level of the memory system, next to the figure the device reports or its theoretical value, and the share of it reached.' })]);
    for (const r of D.runs) {
      const t = el('table', { class: 'spec' });
      t.appendChild(el('tr', {}, ['level', 'quantity', 'measured', 'reference', 'reached', 'reference is', 'how'].map((h) => el('th', { text: h }))));
      for (const d of specRows(r)) {
        const pct = d.value > 0 && d.reference > 0 ? (100 * d.value / d.reference).toFixed(1) + ' %' : '-';
        t.appendChild(el('tr', {}, [d.level, d.quantity, fmt(d.value, d.unit), d.reference > 0 ? fmt(d.reference, d.unit) : '-',
                                    pct, d.reference_what || '', d.how || ''].map((v, i) => el('td', { text: v, class: i >= 2 && i <= 4 ? 'num' : '' }))));
      }
      if (multi) sec.appendChild(el('h3', { text: r.label }));
      sec.appendChild(t);
    }
    root.appendChild(sec);
  }

  function familySections(pending) {
    const fams = [];
    D.runs.forEach((r) => r.cases.forEach((c) => { if (fams.indexOf(c.family) < 0) fams.push(c.family); }));
    const toc = el('nav', {}, [el('a', { href: '#spec', text: 'spec sheet' })]);
    root.appendChild(toc);
    for (const fam of fams) {
      const sec = el('section', { id: 'fam-' + fam }, [el('h2', { text: fam })]);
      toc.appendChild(el('a', { href: '#fam-' + fam, text: fam }));
      const n = D.runs.reduce((s, r) => s + r.cases.filter((c) => c.family === fam).length, 0);
      const bad = D.runs.reduce((s, r) => s + r.cases.filter((c) => c.family === fam && c.status !== 'ok').length, 0);
      sec.appendChild(el('p', { class: 'note', text: n + ' cases' + (bad ? ', ' + bad + ' not ok (see the table)' : '') + '.' }));
      let charts = 0;
      for (const spec of D.charts.filter((s) => s.family === fam)) {
        const cfg = kinds[spec.kind](spec, D.runs.map((r) => r.cases.filter((c) => matches(spec, c))));
        if (!cfg) continue;
        const b = chartBox(spec, cfg);
        sec.appendChild(b.box);
        pending.push(b.draw);
        charts++;
      }
      if (!charts) sec.appendChild(el('p', { class: 'note', text: 'No chart for this family; its cases are in the table below.' }));
      root.appendChild(sec);
    }
    for (const spec of D.charts.filter((s) => !s.family)) {
      const cfg = kinds[spec.kind](spec, D.runs.map((r) => r.cases.filter((c) => matches(spec, c))));
      if (!cfg) continue;
      const b = chartBox(spec, cfg);
      root.appendChild(el('section', { id: 'roofline' }, [el('h2', { text: spec.title }), b.box]));
      toc.appendChild(el('a', { href: '#roofline', text: spec.kind }));
      pending.push(b.draw);
    }
    toc.appendChild(el('a', { href: '#cases', text: 'all cases' }));
    toc.appendChild(el('a', { href: '#meta', text: 'runs' }));
  }

  /* ---- the sortable table of every case ---- */
  function caseTable() {
    const cols = [
      { h: 'run', v: (r) => r.label, skip: !multi },
      { h: 'case', v: (r, c) => c.name },
      { h: 'params', v: (r, c) => Object.keys(c.params).map((k) => k + '=' + c.params[k]).join(' ') },
      { h: 'median', v: (r, c) => c.status === 'ok' ? c.value : null, show: (r, c) => c.status === 'ok' ? fmtNum(c.value) : '-', num: true },
      { h: 'unit', v: (r, c) => c.unit + (c.higher_better ? ' \u2191' : ' \u2193') },
      { h: 'min', v: (r, c) => c.status === 'ok' ? c.min : null, show: (r, c) => c.status === 'ok' ? fmtNum(c.min) : '-', num: true },
      { h: 'max', v: (r, c) => c.status === 'ok' ? c.max : null, show: (r, c) => c.status === 'ok' ? fmtNum(c.max) : '-', num: true },
      { h: 'CoV %', v: (r, c) => c.cov, show: (r, c) => c.cov.toFixed(2), num: true },
      { h: 'verified', v: (r, c) => c.verified ? 'yes' : 'no' },
      { h: 'status', v: (r, c) => c.status + (c.message ? ': ' + c.message : '') },
      { h: 'model', v: (r, c) => c.launch_gbs > 0 ? fmt(c.launch_gbs, 'GB/s') + ' predicted (' + c.launch_limited_by +
                                 ', measured ' + Math.round(100 * c.value / c.launch_gbs) + '%); ' + c.model
                                 : c.pred_gbs > 0 ? fmt(c.pred_gbs, 'GB/s') + ' bound; ' + c.model
                                 : c.pred_slowdown > 0 ? fmtNum(c.pred_slowdown) + 'x predicted; ' + c.model : c.model }
    ].filter((c) => !c.skip);
    const rows = [];
    D.runs.forEach((r) => r.cases.forEach((c) => rows.push(cols.map((col) => col.v(r, c)))));
    const shown = [];
    D.runs.forEach((r) => r.cases.forEach((c) => shown.push(cols.map((col) => col.show ? col.show(r, c) : col.v(r, c)))));
    const t = el('table', { class: 'cases' });
    const thead = el('tr');
    const tbody = el('tbody');
    let order = rows.map((_, i) => i), last = -1, dir = 1;
    function fill() {
      tbody.textContent = '';
      for (const i of order)
        tbody.appendChild(el('tr', { class: shown[i][cols.findIndex((c) => c.h === 'status')].indexOf('ok') === 0 ? '' : 'bad' },
                             shown[i].map((v, j) => el('td', { text: String(v), class: cols[j].num ? 'num' : '' }))));
    }
    cols.forEach(function (col, j) {
      const th = el('th', { text: col.h, title: 'click to sort' });
      th.addEventListener('click', function () {
        dir = last === j ? -dir : 1; last = j;
        order.sort(function (a, b) {
          const x = rows[a][j], y = rows[b][j];
          if (x === y) return 0;
          if (x === null) return 1;
          if (y === null) return -1;
          return (col.num ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true })) * dir;
        });
        fill();
      });
      thead.appendChild(th);
    });
    t.appendChild(el('thead', {}, [thead]));
    t.appendChild(tbody);
    fill();
    const filter = el('input', { type: 'search', placeholder: 'filter cases (e.g. stride.b04)' });
    filter.addEventListener('input', function () {
      const q = filter.value.toLowerCase();
      for (const tr of tbody.rows) tr.style.display = tr.textContent.toLowerCase().indexOf(q) >= 0 ? '' : 'none';
    });
    root.appendChild(el('section', { id: 'cases' }, [el('h2', { text: 'Every case' }),
      el('p', { class: 'note', text: 'Click a column to sort. median/min/max are in the case\'s unit (\u2191 higher is better, \u2193 lower is better); CoV is the spread of the timed samples; a case that failed validation has no number.' }),
      filter, el('div', { class: 'scroll' }, [t])]));
  }

  function metadata() {
    const sec = el('section', { id: 'meta' }, [el('h2', { text: 'Runs' })]);
    for (const r of D.runs) {
      const d = r.device || {};
      const kv = [['run', r.label], ['device', d.name || 'none'], ['compute capability', d.cc], ['SMs', d.sms],
                  ['SM clock', d.sm_mhz ? fmtNum(d.sm_mhz) + ' MHz' : '-'], ['memory clock', d.mem_mhz ? fmtNum(d.mem_mhz) + ' MHz' : '-'],
                  ['memory bus', d.bus_bits ? d.bus_bits + ' bit' : '-'], ['peak DRAM bandwidth', fmt(d.peak_gbs, 'GB/s')],
                  ['L2', d.l2_bytes ? fmtBytes(d.l2_bytes) : '-'], ['ECC', d.ecc ? 'on' : 'off'],
                  ['PCIe', d.pcie_gen > 0 ? 'gen ' + d.pcie_gen + ' x' + d.pcie_width : 'unknown'],
                  ['driver / runtime', d.driver_runtime], ['command', r.command], ['tool version', r.tool_version],
                  ['started (UTC)', r.started_utc], ['wall time', fmtNum(r.wall_s) + ' s' + (r.interrupted ? ' (interrupted)' : '')],
                  ['per-array working set', fmtBytes(r.array_bytes)], ['samples / warm-up', r.reps + ' / ' + r.warmup],
                  ['byte convention', r.byte_convention]];
      sec.appendChild(el('table', { class: 'meta' }, kv.map((p) => el('tr', {}, [el('th', { text: p[0] }), el('td', { text: p[1] === undefined ? '-' : String(p[1]) })]))));
    }
    root.appendChild(sec);
  }

  const pending = [];
  header();
  specSheet();
  familySections(pending);
  caseTable();
  metadata();
  if (window.Chart) Chart.defaults.animation = false;
  for (const draw of pending) draw();
  document.body.setAttribute('data-charts', String(drawn));
  /* self-check for the browser test: a canvas with no painted pixel is an empty chart */
  let empty = 0;
  for (const cv of document.querySelectorAll('canvas')) {
    const px = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
    let any = false;
    for (let i = 3; i < px.length; i += 4) if (px[i]) { any = true; break; }
    if (!any) empty++;
  }
  document.body.setAttribute('data-empty-charts', String(empty));
})();
