/*
 * report.js - builds gpumem's HTML report from the JSON island "gm-data"
 * (written by src/io/html.c) with Chart.js, which the page embeds.
 * Sections: measured spec sheet, one section per family with the charts of
 * the chart table (src/io/report_charts.c; drawn by report_charts.js), the sortable table of every
 * case, the runs' metadata. With several runs every chart overlays them.
 * No network: everything is in the page.
 */
(function () {
  'use strict';
  const D = JSON.parse(document.getElementById('gm-data').textContent);
  const root = document.getElementById('report');
  const multi = D.runs.length > 1;
  const levels = ['registers', 'L1', 'smem', 'L2', 'L2 near', 'L2 far', 'HBM', 'TLB', 'constant', 'texture',
                  'local', 'PCIe', 'NVLink'];

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

  /* ---- the model mark of a case: the launch model's prediction where it has one, else the warp model's bound ---- */
  function modelMark(c) {
    if (c.launch_gbs > 0) return { v: c.launch_gbs, kind: 'launch' };
    if (c.unit === 'GB/s' && c.pred_gbs > 0) return { v: c.pred_gbs, kind: 'warp' };
    return null;
  }

  /* the chart kinds (report_charts.js, loaded before this script) */
  const kinds = window.gmReportCharts({ D: D, multi: multi, field: field, fmt: fmt, fmtNum: fmtNum, fmtBytes: fmtBytes,
                                        modelMark: modelMark });
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
      const cfg = kinds.roofline(spec);
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
