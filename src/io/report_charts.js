/*
 * report_charts.js - the chart kinds of gpumem's HTML report: line, bar, scatter and the roofline. Each turns a
 * row of the chart table (src/io/report_charts.c) and the runs' cases into a Chart.js config, null when there is
 * nothing to draw, or { note }. The page loads it before report.js, which calls window.gmReportCharts() with the
 * runs and the helpers both share (src/io/html.c embeds both).
 */
window.gmReportCharts = function (R) {
  'use strict';
  const D = R.D, multi = R.multi, field = R.field, fmt = R.fmt, fmtNum = R.fmtNum, fmtBytes = R.fmtBytes;
  const modelMark = R.modelMark;
  const palette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf',
                   '#7f7f7f', '#bcbd22'];
  const runDash = [[], [6, 4], [2, 3], [10, 3, 2, 3]];
  const byteParams = { footprint: 1, bytes: 1, working_set: 1, size: 1 };

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

  return { line: lineConfig, bar: barConfig, scatter: scatterConfig, roofline: rooflineConfig };
};
