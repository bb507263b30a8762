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

  /*
   * The params that split a line chart's cases into series: the row's own
   * (spec.series) and, by rule, every other param (not x) that still varies
   * inside one of those series, so that two kinds of measurement (a read and a
   * write sweep, two pointer-chase hints) are never one zigzag line.
   */
  function seriesParams(spec, cases) {
    const keys = (spec.series || '').split(',').filter(Boolean);
    const all = [];
    for (const c of cases) for (const k in c.params) if (all.indexOf(k) < 0 && k !== spec.x) all.push(k);
    for (const k of all) {
      if (keys.indexOf(k) >= 0) continue;
      const seen = new Map();
      const varies = cases.some(function (c) {
        const g = keys.map((q) => String(field(c, q))).join('|');
        const v = String(field(c, k));
        if (!seen.has(g)) seen.set(g, v);
        return seen.get(g) !== v;
      });
      if (varies) keys.push(k);
    }
    return keys;
  }

  /* "l2_*": the labels' common stem up to an underscore, "" when there is none */
  function labelStem(cases) {
    let p = cases[0].label;
    for (const c of cases) while (c.label.indexOf(p) !== 0) p = p.slice(0, -1);
    const cut = p.lastIndexOf('_');
    return cut > 0 ? p.slice(0, cut) + '_*' : '';
  }

  function seriesKey(keys, c) { return keys.map((k) => String(field(c, k))).join('|'); }

  /* A series' legend: named values of the row's series_names, else key=value, with the labels' stem where the values are codes. */
  function seriesLabel(spec, keys, cs, names) {
    if (!keys.length) return 'measured';
    const c = cs[0];
    if (keys.length === 1 && String(field(c, keys[0])) in names) return names[String(field(c, keys[0]))];
    /* a param the series' cases do not have (l2stag_*'s stagger beside l1_*) names nothing */
    const kv = keys.filter((k) => field(c, k) !== undefined && field(c, k) !== null)
      .map((k) => (k === keys[0] && String(field(c, k)) in names) ? names[String(field(c, k))] : k + '=' + field(c, k));
    const stem = labelStem(cs);
    return (stem ? stem + ' (' : '') + kv.join(' ') + (stem ? ')' : '');
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

  /* ---- the model mark of a case: the launch model's prediction where it has one, else the warp model's bound ---- */
  function modelMark(c) {
    if (c.launch_gbs > 0) return { v: c.launch_gbs, kind: 'launch' };
    if (c.unit === 'GB/s' && c.pred_gbs > 0) return { v: c.pred_gbs, kind: 'warp' };
    return null;
  }
  const markNames = { launch: 'launch model prediction', warp: 'warp-model bound (no launch prediction)' };

  /* "; launch model 332 GB/s, measured / predicted 97 %" for a tooltip */
  function markText(c) {
    const m = c && modelMark(c);
    if (!m) return '';
    return '; ' + (m.kind === 'launch' ? 'launch model ' : 'warp-model bound ') + fmt(m.v, c.unit) +
           ', measured / ' + (m.kind === 'launch' ? 'predicted ' : 'bound ') + Math.round(100 * c.value / m.v) + ' %';
  }

  /* ---- chart kinds: each returns a Chart.js config, null when there is nothing to draw, or { note } ---- */
  function lineConfig(spec, sel) {
    const names = seriesNames(spec), datasets = [], series = [];
    const keys = seriesParams(spec, [].concat.apply([], sel)).filter((k) => sel.some((cs) => cs.some((c) => k in c.params)));
    let unit = '', ymin = Infinity, ymax = 0, longest = 0;
    sel.forEach(function (cases, ri) {
      const groups = new Map();
      for (const c of cases) {
        const k = seriesKey(keys, c);
        if (!groups.has(k)) groups.set(k, []);
        groups.get(k).push(c);
        unit = c.unit;
      }
      for (const [k, cs] of groups) {
        if (series.indexOf(k) < 0) series.push(k);
        const si = series.indexOf(k), label = seriesLabel(spec, keys, cs, names);
        cs.sort((a, b) => field(a, spec.x) - field(b, spec.x));
        const ok = (p) => p.x !== undefined && p.y !== undefined && (!spec.xlog || p.x > 0) && (!spec.ylog || p.y > 0);
        const pts = cs.map((c) => ({ x: field(c, spec.x), y: field(c, spec.y), name: c.name, c: c })).filter(ok);
        longest = Math.max(longest, new Set(pts.map((p) => p.x)).size);
        pts.forEach((p) => { ymin = Math.min(ymin, p.y); ymax = Math.max(ymax, p.y); });
        datasets.push({ label: runPrefix(D.runs[ri]) + label, data: pts, borderColor: color(si), gmUnit: unit,
                        backgroundColor: color(si), borderDash: runDash[ri % runDash.length], pointRadius: 2,
                        borderWidth: 2 });
        if (ri !== 0 || spec.y !== 'value') continue;
        for (const kind of ['launch', 'warp']) {
          const mp = cs.filter((c) => { const m = modelMark(c); return m && m.kind === kind; })
                       .map((c) => ({ x: field(c, spec.x), y: modelMark(c).v, name: c.name, c: c })).filter(ok);
          if (mp.length)
            datasets.push({ label: markNames[kind] + ': ' + label, data: mp, borderColor: color(si, 0.55), gmUnit: unit,
                            gmMark: kind, backgroundColor: color(si, 0.55), borderDash: kind === 'launch' ? [3, 3] : [1, 4],
                            pointRadius: 0, borderWidth: 1.5 });
        }
      }
    });
    if (!datasets.some((d) => d.data.length)) return null;
    if (longest < 3)
      return { note: 'This run measured ' + (longest === 1 ? 'one ' : 'only ' + longest + ' ') +
                     (spec.x in byteParams ? 'size' : spec.x.replace(/_/g, ' ')) + (longest === 1 ? '' : 's') +
                     ' per line, and a curve needs three or more: no chart (the cases are in the table below and in the charts that follow). ' +
                     '`gpumem run --full ' + spec.family + '` measures the sweep that draws it.' };
    addMarks(spec, datasets, ymin, ymax, unit);
    return { type: 'line', data: { datasets: datasets }, gmUnit: unit,
             options: baseOptions(spec, spec.xlog ? 'logarithmic' : 'linear', spec.ylog ? 'logarithmic' : 'linear', unit) };
  }

  /* Detected sizes (derived results of the family) as vertical lines. */
  function addMarks(spec, datasets, ymin, ymax, unit) {
    if (!spec.marks || !(ymax > 0)) return;
    D.runs.forEach(function (r, ri) {
      for (const d of r.derived) {
        if (d.family !== spec.family || d.quantity.indexOf(spec.marks) < 0 || !(d.value > 0)) continue;
        datasets.push({ label: runPrefix(r) + (d.level || d.name) + ' ' + d.quantity + ' ' + fmt(d.value, d.unit),
                        data: [{ x: d.value, y: ymin }, { x: d.value, y: ymax }], borderColor: '#555', gmUnit: unit,
                        backgroundColor: '#555', borderDash: [2, 2].concat(runDash[ri % runDash.length]),
                        pointRadius: 0, borderWidth: 1 });
      }
    });
  }

  function barConfig(spec, sel) {
    const labels = [], datasets = [];
    let unit = '';
    /* a param that does not tell the cases apart would hide bars behind each other: one bar per case then */
    if (spec.x !== 'label' && sel.some((cs) => new Set(cs.map((c) => String(field(c, spec.x)))).size < cs.length))
      spec = Object.assign({}, spec, { x: 'label' });
    sel.forEach((cases) => cases.forEach((c) => {
      const x = String(field(c, spec.x));
      if (labels.indexOf(x) < 0) labels.push(x);
      unit = c.unit;
    }));
    if (!labels.length) return null;
    sel.forEach(function (cases, ri) {
      const at = (x) => cases.find((c) => String(field(c, spec.x)) === x);
      const row = labels.map(at);
      datasets.push({ type: 'bar', label: multi ? D.runs[ri].label : 'measured (median)', gmUnit: unit, gmCases: row,
                      data: row.map((c) => c ? field(c, spec.y) : null),
                      backgroundColor: color(ri, 0.75), borderColor: color(ri), borderWidth: 1,
                      gmRange: row.map((c) => c && spec.y === 'value' ? [c.min, c.max] : null) });
      if (ri === 0 && spec.y === 'value')
        for (const kind of ['launch', 'warp']) {
          const ys = row.map((c) => { const m = c && modelMark(c); return m && m.kind === kind ? m.v : null; });
          if (ys.some((v) => v !== null))
            datasets.push({ type: 'line', label: markNames[kind], showLine: false, pointStyle: 'line', pointRadius: 10,
                            pointBorderWidth: 2, borderColor: kind === 'launch' ? '#000' : '#999', gmMark: kind,
                            backgroundColor: '#000', gmUnit: unit, gmCases: row, data: ys });
        }
      if (spec.ceiling)
        cases.filter((c) => c.label.indexOf(spec.ceiling) === 0).forEach(function (c, k) {
          datasets.push({ type: 'line', label: runPrefix(D.runs[ri]) + 'ceiling: ' + c.label + ' ' + fmt(c.value, c.unit),
                          data: labels.map(() => c.value), pointRadius: 0, borderWidth: 2, gmUnit: unit,
                          borderColor: color(k + 3), borderDash: runDash[ri % runDash.length] });
        });
    });
    const o = baseOptions(spec, 'category', spec.ylog ? 'logarithmic' : 'linear', unit);
    o.plugins.tooltip.callbacks.label = function (ctx) {
      const c = ctx.dataset.gmCases ? ctx.dataset.gmCases[ctx.dataIndex] : null;
      if (ctx.dataset.gmMark && c) return markNames[ctx.dataset.gmMark] + ': ' + fmt(ctx.parsed.y, unit) + markText(c).replace(/^; [^,]*,/, ',');
      return ctx.dataset.label + ': ' + fmt(ctx.parsed.y, unit) + (c ? markText(c) : '');
    };
    return { type: 'bar', data: { labels: labels, datasets: datasets }, options: o, plugins: [whiskers], gmUnit: unit };
  }

  function scatterConfig(spec, sel) {
    const names = seriesNames(spec), datasets = [], series = [];
    const keys = (spec.series || '').split(',').filter(Boolean);
    let lo = Infinity, hi = 0;
    sel.forEach(function (cases, ri) {
      const groups = new Map();
      for (const c of cases) {
        const x = field(c, spec.x), y = field(c, spec.y);
        if (!(x > 0) || !(y > 0)) continue;
        const k = seriesKey(keys, c);
        if (!groups.has(k)) groups.set(k, []);
        groups.get(k).push({ x: x, y: y, name: c.name, src: c });  /* src, not c: y is not the case's value */
        lo = Math.min(lo, x, y); hi = Math.max(hi, x, y);
      }
      for (const [k, pts] of groups) {
        if (series.indexOf(k) < 0) series.push(k);
        const si = series.indexOf(k);
        datasets.push({ type: 'scatter', label: runPrefix(D.runs[ri]) + seriesLabel(spec, keys, pts.map((p) => p.src), names),
                        data: pts, gmUnit: 'x', borderColor: color(si), backgroundColor: color(si, 0.6), pointRadius: 4,
                        pointStyle: ['circle', 'triangle', 'rect', 'star'][ri % 4] });
      }
    });
    if (!datasets.length) return null;
    datasets.push({ type: 'line', label: 'model = measured', data: [{ x: lo * 0.8, y: lo * 0.8 }, { x: hi * 1.25, y: hi * 1.25 }],
                    borderColor: '#888', borderDash: [4, 4], pointRadius: 0, borderWidth: 1, gmUnit: 'x' });
    const o = baseOptions(spec, spec.xlog ? 'logarithmic' : 'linear', spec.ylog ? 'logarithmic' : 'linear', 'x');
    o.scales.x.title.text = 'model: ' + spec.x.replace(/_/g, ' ') + ' (x, log scale)';
    o.scales.y.title.text = 'measured: ' + spec.y.replace(/_/g, ' ') + ' (x, log scale)';
    return { type: 'scatter', data: { datasets: datasets }, options: o, gmUnit: 'x' };
  }

  /* ---- the roofline: ceilings and roofs from the run's derived results, every case with flops at its intensity ---- */
  const hostLinks = /pcie|nvlink|host|c2c/i;

  /* the bandwidth roofs: per memory level its read bandwidths (L2 has two: each line read by one SM, and by all
     SMs), else its highest; host links left out */
  function roofs(r) {
    const by = new Map();
    for (const d of r.derived) {
      if (d.unit !== 'GB/s' || !d.level || hostLinks.test(d.level) || !(d.value > 0) || !/bandwidth|\bbw\b/.test(d.quantity)) continue;
      const read = /read/.test(d.quantity), old = by.get(d.level) || { read: false, ds: [] };
      if (read && !old.read) by.set(d.level, { read: true, ds: [d] });
      else if (read) old.ds.push(d);
      else if (!old.read && (!old.ds.length || d.value > old.ds[0].value)) by.set(d.level, { read: false, ds: [d] });
    }
    const out = [].concat.apply([], Array.from(by.values()).map((x) => x.ds));
    if (!out.length && r.device && r.device.peak_gbs > 0)
      out.push({ level: 'HBM', quantity: 'theoretical peak', value: r.device.peak_gbs });
    return out.sort((a, b) => a.value - b.value);
  }

  /* the compute ceilings: every derived TFLOP/s result with a level */
  function ceilings(r) {
    return r.derived.filter((d) => d.unit === 'TFLOP/s' && d.level && d.value > 0).sort((a, b) => a.value - b.value);
  }

  /* ladders: a family's numbered versions (label vN..., version >= 0) doing the same flops, naive to best */
  function ladders(cases) {
    const by = new Map();
    for (const c of cases) {
      if (!(c.version >= 0) || !(c.ai_dram > 0)) continue;
      const stem = (c.label.match(/^[a-z]*/) || [''])[0];
      const k = c.family + '|' + stem + '|' + (c.intensity > 0 ? c.intensity.toPrecision(4) : '');  /* the same flops per useful byte */
      if (!by.has(k)) by.set(k, []);
      by.get(k).push(c);
    }
    return Array.from(by.values()).filter((l) => l.length >= 3).map((l) => l.sort((a, b) => a.version - b.version));
  }

  function rooflineConfig(spec) {
    const datasets = [], fams = [], r0 = D.runs[0];
    let xlo = Infinity, xhi = 0, ylo = Infinity, top = 0;
    const span = (x, y) => { xlo = Math.min(xlo, x); xhi = Math.max(xhi, x); ylo = Math.min(ylo, y); top = Math.max(top, y); };
    D.runs.forEach(function (r, ri) {
      const cs = r.cases.filter((c) => c.status === 'ok' && c.tflops > 0 && c.ai_dram > 0);
      for (const c of cs) if (fams.indexOf(c.family) < 0) fams.push(c.family);
      for (const fam of fams) {
        const pts = cs.filter((c) => c.family === fam).map((c) => ({ x: c.ai_dram, y: c.tflops, name: c.name, src: c }));
        pts.forEach((p) => span(p.x, p.y));
        if (pts.length)
          datasets.push({ type: 'scatter', label: runPrefix(r) + fam + ' (flops per DRAM byte)', data: pts, gmUnit: 'TFLOP/s',
                          gmRole: 'point', borderColor: color(fams.indexOf(fam)), backgroundColor: color(fams.indexOf(fam), 0.6),
                          pointRadius: 4, pointStyle: ['circle', 'triangle', 'rect', 'star'][ri % 4] });
        const l2 = cs.filter((c) => c.family === fam && c.ai_l2 > 0).map((c) => ({ x: c.ai_l2, y: c.tflops, name: c.name, src: c }));
        l2.forEach((p) => span(p.x, p.y));
        if (l2.length)
          datasets.push({ type: 'scatter', label: runPrefix(r) + fam + ' (flops per L2 byte, counters)', data: l2, gmUnit: 'TFLOP/s',
                          gmRole: 'point', borderColor: color(fams.indexOf(fam)), backgroundColor: 'rgba(0,0,0,0)', pointRadius: 4 });
      }
      if (ri === 0)
        for (const l of ladders(cs)) {
          const f = l[0], e = l[l.length - 1];
          datasets.push({ type: 'line', label: f.family + ' ladder ' + f.label + ' \u2192 ' + e.label, gmUnit: 'TFLOP/s', gmRole: 'path',
                          data: l.map((c) => ({ x: c.ai_dram, y: c.tflops, name: c.name, src: c })), showLine: true,
                          borderColor: color(fams.indexOf(f.family), 0.5), borderWidth: 1, pointRadius: 1, borderDash: [4, 2] });
        }
    });
    if (!(xhi > 0)) return null;
    const cl = ceilings(r0), rf = roofs(r0);
    cl.forEach((d) => { top = Math.max(top, d.value); });
    const best = top;
    xlo = xlo / 4;
    for (const b of rf) xhi = Math.max(xhi, best * 1000 / b.value * 2);
    xhi *= 2;
    cl.forEach(function (d, i) {
      datasets.push({ type: 'line', label: 'ceiling: ' + d.level + ' ' + d.quantity + ' ' + fmt(d.value, 'TFLOP/s'), gmUnit: 'TFLOP/s',
                      gmRole: 'ceiling', data: [{ x: xlo, y: d.value }, { x: xhi, y: d.value }], borderColor: color(i + 4),
                      pointRadius: 0, borderWidth: 1.5 });
    });
    rf.forEach(function (b, i) {
      const knee = best * 1000 / b.value;
      datasets.push({ type: 'line', label: 'roof: ' + b.level + ' ' + b.quantity + ' ' + fmt(b.value, 'GB/s'), gmUnit: 'TFLOP/s',
                      gmRole: 'ceiling', data: [{ x: xlo, y: b.value * xlo / 1000 }, { x: knee, y: best }],
                      borderColor: ['#444', '#8c564b', '#7f7f7f', '#bcbd22', '#17becf'][i % 5], borderDash: [6, 3],
                      pointRadius: 0, borderWidth: 2 });
      ylo = Math.min(ylo, b.value * xlo / 1000);
    });
    const o = baseOptions(spec, 'logarithmic', 'logarithmic', 'TFLOP/s');
    o.scales.x.title.text = 'arithmetic intensity (FLOP per DRAM byte; hollow: per L2 byte; log scale)';
    o.scales.y.title.text = 'TFLOP/s (log scale)';
    o.scales.x.min = xlo; o.scales.x.max = xhi;
    o.scales.y.min = Math.max(ylo, top / 1e5);
    o.scales.y.max = top * 1.6;
    o.interaction = { mode: 'nearest', intersect: true };
    o.plugins.tooltip.callbacks.label = function (ctx) {
      const p = ctx.raw;
      if (p && p.name) return p.name + ': ' + fmt(p.y, 'TFLOP/s') + ' at ' + fmtNum(p.x) + ' FLOP/B';
      return ctx.dataset.label;
    };
    return { type: 'scatter', data: { datasets: datasets }, options: o, gmUnit: 'TFLOP/s' };
  }

  const kinds = { line: lineConfig, bar: barConfig, scatter: scatterConfig, roofline: rooflineConfig };
  let drawn = 0;
  const made = [];   /* every chart drawn: { chart, unit, family, kind } (the self-check reads them) */

  /* The cases of a chart with their numbers, collapsed under it. */
  function caseDetails(cases) {
    if (!cases.length) return null;
    const head = ['case', 'params', 'median', 'min', 'max', 'unit', 'CoV %', 'model', 'measured / model'];
    const t = el('table', { class: 'small' }, [el('tr', {}, head.map((h) => el('th', { text: h })))]);
    for (const c of cases) {
      const m = modelMark(c);
      t.appendChild(el('tr', {}, [c.name, Object.keys(c.params).map((k) => k + '=' + c.params[k]).join(' '),
        c.status === 'ok' ? fmtNum(c.value) : '-', c.status === 'ok' ? fmtNum(c.min) : '-', c.status === 'ok' ? fmtNum(c.max) : '-',
        c.unit, c.cov.toFixed(2), m ? fmt(m.v, c.unit) + (m.kind === 'launch' ? ' (launch)' : ' (warp bound)') : '-',
        m && c.status === 'ok' ? Math.round(100 * c.value / m.v) + ' %' : '-'].map((v, i) => el('td', { text: v, class: i >= 2 && i !== 5 && i !== 7 ? 'num' : '' }))));
    }
    return el('details', { class: 'cases-of-chart' }, [el('summary', { text: 'The ' + cases.length + ' case(s) of this chart with their numbers' }),
                                                       el('div', { class: 'scroll-x' }, [t])]);
  }

  function chartBox(spec, config, cases, family) {
    const canvas = el('canvas', { 'aria-label': spec.title, role: 'img' });
    const kids = [
      el('figcaption', {}, [el('strong', { text: spec.title }), el('span', { text: spec.what }), el('span', { text: spec.how })]),
      el('div', { class: 'canvas-box' + (spec.kind === 'roofline' ? ' tall' : config.type === 'bar' && config.data.labels.length > 14 ? ' wide' : '') }, [canvas])
    ];
    const det = caseDetails(cases);
    if (det) kids.push(det);
    const box = el('figure', { class: 'chart' }, kids);
    return { box: box, draw: function () {
      try {
        made.push({ chart: new Chart(canvas.getContext('2d'), config), unit: config.gmUnit, family: family, kind: spec.kind });
        drawn++;
      } catch (e) {
        box.appendChild(el('p', { class: 'warn', text: 'this chart could not be drawn: ' + e.message }));
        console.error('gpumem report: chart "' + spec.title + '": ' + e.message);
      }
    } };
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
    const vers = new Set(D.runs.map((x) => x.schema_version));
    if (vers.size > 1)
      root.appendChild(el('p', { class: 'warn', text: 'warning: these runs were written by different schema versions (' +
        D.runs.map((x) => x.label + ': ' + x.schema_version).join(', ') + '); a field the older one lacks is left out of its charts and shown as -.' }));
    for (const x of D.runs) {
      const lacks = [];
      if (!x.cases.length) lacks.push('no case at all');
      else if (!x.cases.some((c) => c.status === 'ok')) lacks.push('no case that measured');
      if (x.cases.length && !x.cases.some((c) => c.status === 'ok' && c.unit === 'GB/s'))
        lacks.push('no bandwidth (GB/s) case, so no bandwidth chart and no roof from cases');
      if (!x.device) lacks.push('no device record');
      if (!x.derived.some((d) => d.level)) lacks.push('no derived spec-sheet result (the sheet shows device attributes only)');
      if (lacks.length)
        root.appendChild(el('p', { class: 'warn', text: (multi ? x.label + ': ' : '') + 'this run has ' + lacks.join('; ') + '.' }));
    }
  }

  /* compare -o: each case's change first, coloured by its verdict (src/io/html.c comparison_obj) */
  function comparison() {
    const C = D.comparison;
    if (!C) return;
    const order = { BROKEN: 0, WORSE: 1, better: 2, fixed: 3, same: 4 };
    const rows = C.rows.slice().sort((x, y) => ((order[x.verdict] ?? 5) - (order[y.verdict] ?? 5)) || (y.worse_pct - x.worse_pct));
    const t = el('table', { class: 'cases compare' }, [el('tr', {}, ['case', 'unit', 'A median', 'B median', 'B / A',
      'change (+ = worse)', 'beyond noise', 'verdict'].map((h) => el('th', { text: h })))]);
    for (const w of rows)
      t.appendChild(el('tr', { class: 'v-' + w.verdict.toLowerCase().replace(/[^a-z]/g, '') }, [w.name, w.unit,
        w.a ? fmtNum(w.a) : '-', w.b ? fmtNum(w.b) : '-', w.ratio ? w.ratio.toFixed(3) : '-',
        w.a && w.b ? (w.worse_pct > 0 ? '+' : '') + w.worse_pct.toFixed(2) + ' %' : '-', w.beyond_noise ? 'yes' : 'no',
        w.verdict].map((v, i) => el('td', { text: v, class: i >= 2 && i <= 5 ? 'num' : '' }))));
    const sec = el('section', { id: 'comparison' }, [el('h2', { text: 'Comparison: ' + D.runs[1].label + ' against ' + D.runs[0].label }),
      el('p', { class: 'note', text: C.worse + ' worse, ' + C.better + ' better beyond ' + C.threshold_pct + ' % and the noise (both runs\' max - min); ' +
        C.only_a + ' only in A, ' + C.only_b + ' only in B. Red: worse or broken; green: better or fixed. Every chart below overlays both runs (B dashed).' })]);
    if (C.different_device) sec.appendChild(el('p', { class: 'warn', text: 'The runs come from different devices: the changes compare GPUs, not versions of one.' }));
    if (C.different_schema) sec.appendChild(el('p', { class: 'warn', text: 'The runs have different schema versions.' }));
    sec.appendChild(el('div', { class: 'scroll' }, [t]));
    root.appendChild(sec);
  }

  function findings() {
    if (!D.findings || !D.findings.length) return;
    const ol = el('ol', { class: 'findings' });
    for (const f of D.findings)
      ol.appendChild(el('li', {}, [f.text + ' ', el('a', { href: '#' + f.anchor, text: f.anchor === 'cases' ? '(table)' : f.anchor === 'spec' ? '(spec sheet)' : '(chart)' })]));
    root.appendChild(el('section', { id: 'findings' }, [el('h2', { text: 'What this run found' }),
      el('p', { class: 'note', text: 'Sentences written by rules over ' + (multi ? 'the first run (' + D.runs[0].label + ')' : 'the run') + ': the largest slowdowns against the best case of the same work, the spec-sheet lines furthest from their reference, the launch model\'s worst predictions, noisy and missing cases.' }),
      ol]));
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
    const side = D.runs.length === 2 ? el('div', { class: 'side' }) : sec;
    if (side !== sec) sec.appendChild(side);
    for (const r of D.runs) {
      const t = el('table', { class: 'spec' });
      t.appendChild(el('tr', {}, ['level', 'quantity', 'measured', 'reference', 'reached', 'reference is', 'how'].map((h) => el('th', { text: h }))));
      for (const d of specRows(r)) {
        const pct = d.value > 0 && d.reference > 0 ? (100 * d.value / d.reference).toFixed(1) + ' %' : '-';
        t.appendChild(el('tr', {}, [d.level, d.quantity, fmt(d.value, d.unit), d.reference > 0 ? fmt(d.reference, d.unit) : '-',
                                    pct, d.reference_what || '', d.how || ''].map((v, i) => el('td', { text: v, class: i >= 2 && i <= 4 ? 'num' : '' }))));
      }
      if (side !== sec) side.appendChild(el('div', {}, [el('h3', { text: r.label }), t]));
      else {
        if (multi) sec.appendChild(el('h3', { text: r.label }));
        sec.appendChild(t);
      }
    }
    root.appendChild(sec);
  }

  /* the charts of one spec: one per unit of its cases (an axis has one unit) */
  function specCharts(spec, fam) {
    const sel = D.runs.map((r) => r.cases.filter((c) => matches(spec, c)));
    if (spec.kind === 'roofline') {
      const cfg = rooflineConfig(spec);
      return cfg ? [{ spec: spec, cfg: cfg, cases: D.runs[0].cases.filter((c) => c.status === 'ok' && c.tflops > 0) }] : [];
    }
    const units = [];
    sel.forEach((cs) => cs.forEach((c) => { if (units.indexOf(c.unit) < 0) units.push(c.unit); }));
    const out = [], count = (u) => sel.reduce((n, cs) => n + cs.filter((c) => c.unit === u).length, 0);
    const someChart = units.some((u) => count(u) > 1);
    for (const u of units) {
      const s = Object.assign({}, spec, { unit: u, title: units.length > 1 ? spec.title + ' (' + u + ')' : spec.title });
      const su = sel.map((cs) => cs.filter((c) => c.unit === u));
      if (spec.kind === 'bar' && someChart && count(u) === 1) {   /* one case in its unit beside a chart: words, not a bar */
        const c = su.find((cs) => cs.length)[0];
        out.push({ spec: s, cfg: { note: c.name + ' measured ' + fmt(c.value, c.unit) + ' (min ' + fmtNum(c.min) + ', max ' +
                                         fmtNum(c.max) + '): the only case in ' + u + ', so no chart of its own.' } });
        continue;
      }
      const cfg = kinds[spec.kind](s, su);
      if (cfg) out.push({ spec: s, cfg: cfg, cases: su[0] });
    }
    return out;
  }

  function place(sec, list, pending, fam) {
    let n = 0;
    for (const x of list) {
      if (x.cfg.note) { sec.appendChild(el('p', { class: 'note curve-note', text: x.spec.title + ': ' + x.cfg.note })); continue; }
      const b = chartBox(x.spec, x.cfg, x.cases, fam);
      sec.appendChild(b.box);
      pending.push(b.draw);
      n++;
    }
    return n;
  }

  function familySections(pending) {
    const fams = [];
    D.runs.forEach((r) => r.cases.forEach((c) => { if (fams.indexOf(c.family) < 0) fams.push(c.family); }));
    const roofSpecs = D.charts.filter((s) => s.kind === 'roofline');
    const hasFlops = D.runs.some((r) => r.cases.some((c) => c.status === 'ok' && c.tflops > 0));
    if (hasFlops && fams.indexOf('roofline') < 0) fams.push('roofline');
    const toc = el('nav', {}, (D.comparison ? [el('a', { href: '#comparison', text: 'comparison' })] : []).concat([el('a', { href: '#findings', text: 'findings' }), el('a', { href: '#spec', text: 'spec sheet' })]));
    root.appendChild(toc);
    for (const fam of fams) {
      const sec = el('section', { id: 'fam-' + fam, class: 'family' }, [el('h2', { text: fam })]);
      toc.appendChild(el('a', { href: '#fam-' + fam, text: fam }));
      const mine = [].concat.apply([], D.runs.map((r) => r.cases.filter((c) => c.family === fam)));
      const bad = mine.filter((c) => c.status !== 'ok');
      if (mine.length)
        sec.appendChild(el('p', { class: 'note', text: mine.length + ' cases' + (bad.length ? ', ' + bad.length + ' without a number (' +
          bad[0].name + ': ' + bad[0].status + (bad[0].message ? ', ' + bad[0].message : '') + (bad.length > 1 ? '; see the table' : '') + ')' : '') + '.' }));
      let charts = place(sec, [].concat.apply([], D.charts.filter((s) => s.family === fam && s.kind !== 'roofline').map((s) => specCharts(s, fam))), pending, fam);
      if (fam === 'roofline' && hasFlops) {
        sec.appendChild(el('h3', { text: 'Roofline', id: 'roofline' }));
        charts += place(sec, [].concat.apply([], roofSpecs.map((s) => specCharts(s, fam))), pending, fam);
      }
      if (!charts && mine.length - bad.length >= 2) {   /* a family without a row of its own: one bar chart per unit */
        const dflt = { family: fam, unit: '', kind: 'bar', title: fam + ': every case', x: 'label', series: '', series_names: '',
                       y: 'value', model: '', filter: '', ceiling: '', marks: '', xlog: false, ylog: false,
                       what: 'Each measured case of the family in its unit.', how: 'Bars are measured medians with min-max whiskers.' };
        charts += place(sec, specCharts(dflt, fam), pending, fam);
      }
      if (!charts)
        sec.appendChild(el('p', { class: 'note', text: mine.length - bad.length ? 'One measured case: no chart; it is in the table below.'
                                                                                : 'No case of this family measured: nothing to draw.' }));
      root.appendChild(sec);
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
      { h: 'model', v: (r, c) => c.launch_gbs > 0 ? fmt(c.launch_gbs, 'GB/s') + ' predicted' +
                                 (c.launch_high_gbs > 0 ? ' [' + Math.round(c.launch_low_gbs) + '-' +
                                  Math.round(c.launch_high_gbs) + ']' : '') + ' (' + c.launch_limited_by +
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

  /*
   * The page's self-check, read by tests/report/browser_test.sh from body
   * attributes: data-charts (drawn), data-empty-charts (canvases with no
   * painted pixel), data-bad-labels (datasets whose label is empty or says
   * "undefined"/"NaN"), data-mixed-units (datasets whose unit, or whose
   * cases' unit, is not their axis's), data-families-without-chart (families
   * with two or more measured cases and no chart), data-roofline-ceilings
   * and data-roofline-points, data-page-width (the document's scroll width).
   * window.gmSelfCheck() runs it again (the test's planted pages call it).
   */
  function selfCheck() {
    const bad = [], mixed = [], missing = [];
    let ceil = -1, pts = 0;
    for (const m of made) {
      if (!m.chart.canvas || !m.chart.canvas.isConnected) continue;
      for (const ds of m.chart.data.datasets) {
        if (typeof ds.label !== 'string' || !ds.label.trim() || /undefined|NaN/.test(ds.label)) bad.push(String(ds.label));
        const units = new Set([ds.gmUnit]);
        for (const p of ds.data || []) if (p && p.c) units.add(p.c.unit);   /* points that plot their case's value */
        for (const c of ds.gmCases || []) if (c) units.add(c.unit);
        if (units.size !== 1 || ds.gmUnit !== m.unit) mixed.push(ds.label + ' [' + Array.from(units).join(', ') + ' on a ' + m.unit + ' axis]');
      }
      if (m.kind === 'roofline') {
        ceil = Math.max(ceil, 0) + m.chart.data.datasets.filter((d) => d.gmRole === 'ceiling').length;
        pts += m.chart.data.datasets.filter((d) => d.gmRole === 'point').reduce((s, d) => s + d.data.length, 0);
      }
    }
    const fams = new Map();
    D.runs.forEach((r) => r.cases.forEach((c) => { if (c.status === 'ok') fams.set(c.family, (fams.get(c.family) || 0) + 1); }));
    for (const [f, n] of fams) {
      const sec = document.getElementById('fam-' + f);
      const live = made.filter((m) => m.family === f && m.chart.canvas && m.chart.canvas.isConnected).length;
      if (n >= 2 && (!sec || !live)) missing.push(f);
    }
    let empty = 0;
    for (const cv of document.querySelectorAll('canvas')) {
      const px = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
      let any = false;
      for (let i = 3; i < px.length; i += 4) if (px[i]) { any = true; break; }
      if (!any) empty++;
    }
    const b = document.body;
    b.setAttribute('data-charts', String(made.filter((m) => m.chart.canvas && m.chart.canvas.isConnected).length));
    b.setAttribute('data-empty-charts', String(empty));
    b.setAttribute('data-bad-labels', String(bad.length));
    b.setAttribute('data-bad-label-list', bad.slice(0, 5).join(' | '));
    b.setAttribute('data-mixed-units', String(mixed.length));
    b.setAttribute('data-mixed-unit-list', mixed.slice(0, 5).join(' | '));
    b.setAttribute('data-families-without-chart', missing.join(' '));
    b.setAttribute('data-roofline-ceilings', String(ceil));
    b.setAttribute('data-roofline-points', String(pts));
    b.setAttribute('data-page-width', String(document.documentElement.scrollWidth));
    b.setAttribute('data-window-width', String(window.innerWidth));
  }

  const pending = [];
  header();
  comparison();
  findings();
  specSheet();
  familySections(pending);
  caseTable();
  metadata();
  if (window.Chart) Chart.defaults.animation = false;
  for (const draw of pending) draw();
  window.gmCharts = made;
  window.gmSelfCheck = selfCheck;
  selfCheck();
})();
