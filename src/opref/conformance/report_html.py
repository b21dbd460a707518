"""The HTML conformance report: one self-contained file (inline CSS and JS, no fonts, images or
scripts from anywhere, a CSP that forbids every fetch) that works from file://.

The page embeds the report's aggregated rows (one per op version x backend) and the failures as JSON
in a <script type="application/json"> and renders the matrix from them, so 100,000 results cost a
few hundred rows; a cell's failures are rendered only when it is opened. Filters (op text, opset,
category, backend, status) live in the URL fragment too (`#op=conv&backend=openvino&status=failed`),
so a filtered view can be linked to, and tests can apply filters by loading a URL."""
from __future__ import annotations

import html
import json

from .report import href

CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'"


def page_data(report: dict) -> dict:
    """The compact data the page renders: rows as arrays, failures as arrays per row."""
    backends = [b["name"] for b in report["backends"]]
    rows, fails = [], []
    for row in report["rows"]:
        tol = row["min_tolerance"] or {}
        rows.append([row["op"], row["category"], row["opsets"], backends.index(row["backend"]),
                     [row["counts"][s] for s in report["statuses"]], tol.get("rtol"), tol.get("atol"),
                     row["implemented"]])
        fails.append([[f["id"], f["status"], f["message"], (f["min_tolerance"] or {}).get("rtol"),
                       (f["min_tolerance"] or {}).get("atol"), href(f["repro"]), f["files"], f["command"],
                       f["element_type"], f["mode"]] for f in row["failures"]])
    info = [{k: b.get(k) for k in ("name", "spec", "version", "device", "config", "formats")}
            for b in report["backends"]]
    return {"statuses": report["statuses"], "problems": report["problem_statuses"], "backends": info,
            "coverage": report["coverage"], "sources": report["sources"], "versions": report["versions"],
            "duplicates": report["duplicates"], "rows": rows, "fails": fails}


def embed_json(data) -> str:
    """JSON that is safe inside <script>: no '<', '>' or '&' survive (each is a \\u escape, which
    JSON.parse reads back), so neither </script> nor <!-- can end or confuse the element."""
    text = json.dumps(data, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def render(report: dict, *, title: str = "opref conformance report") -> str:
    return (TEMPLATE.replace("%CSP%", CSP).replace("%TITLE%", html.escape(title))
            .replace("%DATA%", embed_json(page_data(report))).replace("%CSS%", CSS).replace("%JS%", JS))


TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="%CSP%">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%TITLE%</title>
<style>%CSS%</style>
</head>
<body>
<header><h1>%TITLE%</h1><div id="meta"></div></header>
<form id="filters" autocomplete="off" onsubmit="return false">
 <label>op <input id="f-op" type="search" placeholder="e.g. Conv or Col2Im-15"></label>
 <label>opset <select id="f-opset"><option value="">all</option></select></label>
 <label>category <select id="f-category"><option value="">all</option></select></label>
 <label>backend <select id="f-backend"><option value="">all</option></select></label>
 <label>status <select id="f-status"><option value="">all</option><option value="problems">problems</option></select></label>
 <label>order <select id="f-sort"><option value="failures">failures first</option><option value="name">op name</option></select></label>
 <button id="f-reset" type="button">reset</button>
</form>
<section><h2>Summary <small>(of the filtered cases)</small></h2>
<table id="summary"><thead></thead><tbody></tbody><tfoot></tfoot></table>
<p class="legend">pass rate = passed / (cases &minus; xfailed &minus; not-implemented); problems = failed, xpassed,
crashed, timeout, harness-error; min tolerance = the largest over a cell's failures of the smallest rtol/atol
that would have passed (nan: none would). Click a cell for its failures.</p></section>
<section><h2>Op versions &times; backends <small id="shown"></small></h2>
<table id="matrix"><thead></thead><tbody></tbody></table></section>
<script type="application/json" id="opref-data">%DATA%</script>
<script>%JS%</script>
</body>
</html>
"""

CSS = """
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 1.5em 2em;color:#1a1a1a;background:#fff}
h1{font-size:1.4em;margin:.6em 0 .2em}h2{font-size:1.1em;margin:1.2em 0 .4em}small{color:#666;font-weight:normal}
#meta{color:#555;font-size:.9em}#meta code{font-size:.95em}
#filters{position:sticky;top:0;background:#f6f6f6;border-bottom:1px solid #ddd;padding:.5em;display:flex;flex-wrap:wrap;gap:.4em 1em;z-index:2}
#filters label{white-space:nowrap}
table{border-collapse:collapse}th,td{border:1px solid #ddd;padding:.2em .5em;text-align:right;vertical-align:top}
th{background:#f0f0f0;position:sticky;top:2.6em}td.l,th.l{text-align:left}
#summary tfoot td{text-align:left;background:#fafafa}
#matrix td.cell{cursor:pointer;min-width:7em;text-align:center}#matrix td.cell:hover{outline:2px solid #333}
#matrix td.none{background:#f3f3f3;color:#999;cursor:default}
td.op{font-family:ui-monospace,monospace;text-align:left;white-space:nowrap}
.rate{font-weight:600}.n{color:#333;font-size:.85em}
tr.detail>td{text-align:left;background:#fcfcfc}
.fail{border-left:4px solid #c33;margin:.4em 0;padding:.2em .6em;background:#fff}
.fail.crashed,.fail.timeout,.fail.harness-error{border-color:#936}.fail.xpassed{border-color:#c90}
.fail pre{white-space:pre-wrap;word-break:break-word;margin:.2em 0;font-size:.9em}
.st{display:inline-block;padding:0 .4em;border-radius:3px;background:#c33;color:#fff;font-size:.8em}
.st.xpassed{background:#c90}.st.crashed,.st.timeout,.st.harness-error{background:#936}
code.cmd{background:#f2f2f2;padding:.1em .3em;word-break:break-all}
button.copy{font-size:.8em;margin-left:.4em}
.legend{color:#555;font-size:.85em;max-width:70em}
"""

JS = r"""
(function(){
'use strict';
var D = JSON.parse(document.getElementById('opref-data').textContent);
var S = D.statuses, P = D.problems, B = D.backends.map(function(b){return b.name;});
var iPassed = S.indexOf('passed'), iX = S.indexOf('xfailed'), iNI = S.indexOf('not-implemented');
var rows = D.rows.map(function(r, i){
  return {op: r[0], cat: r[1], opsets: r[2], b: r[3], counts: r[4], rtol: r[5], atol: r[6], impl: r[7], i: i,
          lop: r[0].toLowerCase()};
});
var state = {op: '', opset: '', category: '', backend: '', status: '', sort: 'failures'};
var open = {};                      // "op\u0000backend index" -> true for opened failure details
var $ = function(id){ return document.getElementById(id); };

function el(tag, attrs, kids){
  var e = document.createElement(tag);
  if (attrs) for (var k in attrs) { if (k === 'text') e.textContent = attrs[k]; else e.setAttribute(k, attrs[k]); }
  (kids || []).forEach(function(c){ if (c != null) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
  return e;
}
function sum(a){ var s = 0; for (var i = 0; i < a.length; i++) s += a[i]; return s; }
function rate(c){ var ran = sum(c) - c[iX] - c[iNI]; return ran ? c[iPassed] / ran : null; }
function pct(r){ return r === null ? '-' : (100 * r).toFixed(1) + '%'; }
function tol(x){
  if (x === null || x === undefined) return '-';
  if (typeof x === 'string' || x === 0) return String(x);
  var a = Math.abs(x);
  return a < 1e-3 || a >= 1e5 ? x.toExponential(2).replace(/\.?0+e/, 'e') : String(+x.toPrecision(3));
}
function colour(r){             // only 100% is green; 94% is already yellow, below ~75% red
  return r === null ? '#eaeaea' : r === 1 ? 'hsl(120,55%,80%)' : 'hsl(' + Math.round(95 * Math.pow(r, 6)) + ',75%,78%)';
}
function statusOk(st){ return !state.status || (state.status === 'problems' ? P.indexOf(st) >= 0 : st === state.status); }
function visible(c){             // a row's counts restricted to the status filter
  if (!state.status) return c;
  return c.map(function(n, k){ return statusOk(S[k]) ? n : 0; });
}
function match(r){
  if (state.op && r.lop.indexOf(state.op.toLowerCase()) < 0) return false;
  if (state.opset && r.opsets.indexOf(state.opset) < 0) return false;
  if (state.category && r.cat !== state.category) return false;
  if (state.backend && B[r.b] !== state.backend) return false;
  return sum(visible(r.counts)) > 0;
}
function natural(a, b){ return a.localeCompare(b, 'en', {numeric: true}); }

function fillSelect(id, values){
  var s = $(id);
  values.forEach(function(v){ s.appendChild(el('option', {value: v, text: v})); });
}
function setup(){
  var opsets = {}, cats = {};
  rows.forEach(function(r){ r.opsets.forEach(function(o){ opsets[o] = 1; }); cats[r.cat] = 1; });
  fillSelect('f-opset', Object.keys(opsets).sort(natural));
  fillSelect('f-category', Object.keys(cats).sort(natural));
  fillSelect('f-backend', B.slice());
  fillSelect('f-status', S.slice());
  var meta = $('meta');
  meta.appendChild(el('div', null, ['results: ', D.sources.join(', ')]));
  D.backends.forEach(function(b){
    var cfg = b.config ? Object.keys(b.config).map(function(k){ return k + '=' + b.config[k]; }).join(' ') : '';
    meta.appendChild(el('div', null, ['backend ', el('b', {text: b.name}),
      [b.version, b.device, b.spec && b.spec !== b.name ? b.spec : null, cfg].filter(Boolean).length ?
        ' (' + [b.version, b.device, b.spec && b.spec !== b.name ? b.spec : null, cfg].filter(Boolean).join(', ') + ')' : '']));
  });
  var v = D.versions || {};
  var vs = Object.keys(v).filter(function(k){ return v[k] !== null; }).map(function(k){ return k + ' ' + v[k]; });
  if (vs.length) meta.appendChild(el('div', {text: 'versions: ' + vs.join(', ')}));
  if (D.duplicates) meta.appendChild(el('div', {text: D.duplicates + ' results appeared in more than one file; the later file\u2019s were used'}));
  ['f-op', 'f-opset', 'f-category', 'f-backend', 'f-status', 'f-sort'].forEach(function(id){
    $(id).addEventListener(id === 'f-op' ? 'input' : 'change', function(){ readControls(); update(true); });
  });
  $('f-reset').addEventListener('click', function(){ setFilters({}); });
  window.addEventListener('hashchange', function(){ fromHash(); update(false); });
}
function readControls(){
  state.op = $('f-op').value.trim(); state.opset = $('f-opset').value; state.category = $('f-category').value;
  state.backend = $('f-backend').value; state.status = $('f-status').value; state.sort = $('f-sort').value;
}
function writeControls(){
  $('f-op').value = state.op; $('f-opset').value = state.opset; $('f-category').value = state.category;
  $('f-backend').value = state.backend; $('f-status').value = state.status; $('f-sort').value = state.sort;
  readControls();                 // an unknown value in the URL falls back to "all"
}
function fromHash(){
  var q = {};
  location.hash.replace(/^#/, '').split('&').forEach(function(kv){
    if (!kv) return;
    var i = kv.indexOf('=');
    try { q[decodeURIComponent(i < 0 ? kv : kv.slice(0, i))] = i < 0 ? '' : decodeURIComponent(kv.slice(i + 1)); } catch (e) {}
  });
  for (var k in state) state[k] = q[k] !== undefined ? q[k] : (k === 'sort' ? 'failures' : '');
  writeControls();
}
function toHash(){
  var parts = [];
  for (var k in state) if (state[k] && !(k === 'sort' && state[k] === 'failures'))
    parts.push(encodeURIComponent(k) + '=' + encodeURIComponent(state[k]));
  try { history.replaceState(null, '', parts.length ? '#' + parts.join('&') : location.pathname + location.search); } catch (e) {}
}
function setFilters(obj){
  for (var k in state) state[k] = obj[k] !== undefined ? String(obj[k]) : (k === 'sort' ? 'failures' : '');
  writeControls(); update(true);
}

function summaryRow(name, rs, cls){
  var c = S.map(function(){ return 0; }), ops = {}, impl = {}, allp = {};
  rs.forEach(function(r){
    var v = visible(r.counts);
    for (var k = 0; k < c.length; k++) c[k] += v[k];
    ops[r.op] = 1;
    if (r.impl !== 'no') impl[r.op] = 1;
    if (r.impl === 'yes' && rate(r.counts) === 1 && P.every(function(s){ return r.counts[S.indexOf(s)] === 0; })) allp[r.op] = 1;
  });
  var r = rate(c);
  var tr = el('tr', {'data-backend': name, 'class': cls || ''}, [el('td', {'class': 'l', 'data-k': 'backend', text: name})]);
  [['op_versions', Object.keys(ops).length], ['implemented', Object.keys(impl).length],
   ['all_passed', Object.keys(allp).length], ['cases', sum(c)]].forEach(function(p){
    tr.appendChild(el('td', {'data-k': p[0], text: String(p[1])}));
  });
  S.forEach(function(s, k){ tr.appendChild(el('td', {'data-k': s, text: String(c[k])})); });
  var td = el('td', {'data-k': 'pass_rate', text: pct(r)}); td.style.background = colour(r);
  tr.appendChild(td);
  return tr;
}
function renderSummary(vis){
  var thead = $('summary').tHead, tbody = $('summary').tBodies[0], tfoot = $('summary').tFoot;
  thead.textContent = ''; tbody.textContent = ''; tfoot.textContent = '';
  thead.appendChild(el('tr', null, ['backend', 'op versions', 'implemented', 'all passed', 'cases'].concat(S, ['pass rate'])
    .map(function(h, k){ return el('th', {'class': k ? '' : 'l', text: h}); })));
  var per = B.map(function(){ return []; });
  vis.forEach(function(r){ per[r.b].push(r); });
  B.forEach(function(b, k){ if (per[k].length) tbody.appendChild(summaryRow(b, per[k])); });
  tbody.appendChild(summaryRow('all', vis, 'total'));
  var cov = D.coverage, shownOps = {};
  vis.forEach(function(r){ shownOps[r.op] = 1; });
  var td = el('td', {colspan: String(6 + S.length), 'data-k': 'coverage'}, [el('b', {text: 'Coverage: '}), cov.text + '.',
    ' Shown with these filters: ' + Object.keys(shownOps).length + ' op versions.']);
  if (cov.missing && cov.missing.length)
    td.appendChild(el('details', null, [el('summary', {text: cov.missing.length + ' op versions not in the suite'}),
                                        el('div', {text: cov.missing.join(', ')})]));
  tfoot.appendChild(el('tr', {'data-backend': 'coverage'}, [td]));
}

function renderMatrix(vis){
  var cols = state.backend ? [B.indexOf(state.backend)] : B.map(function(_, k){ return k; });
  var byOp = {}, order = [];
  vis.forEach(function(r){ if (!byOp[r.op]) { byOp[r.op] = []; order.push(r.op); } byOp[r.op][r.b] = r; });
  function key(op){
    var worst = 2, probs = 0;
    byOp[op].forEach(function(r){
      if (!r) return;
      var x = rate(visible(r.counts)); if (x !== null && x < worst) worst = x;
      P.forEach(function(s){ probs += visible(r.counts)[S.indexOf(s)]; });
    });
    return [probs > 0 ? 0 : 1, worst, -probs];
  }
  if (state.sort === 'failures') {
    var keys = {}; order.forEach(function(op){ keys[op] = key(op); });
    order.sort(function(a, b){ var x = keys[a], y = keys[b];
      return x[0] - y[0] || x[1] - y[1] || x[2] - y[2] || natural(a, b); });
  } else order.sort(natural);
  var thead = $('matrix').tHead, tbody = $('matrix').tBodies[0];
  thead.textContent = ''; tbody.textContent = '';
  thead.appendChild(el('tr', null, [el('th', {'class': 'l', text: 'op version'}), el('th', {'class': 'l', text: 'category'}),
    el('th', {'class': 'l', text: 'opsets'})].concat(cols.map(function(k){ return el('th', {text: B[k]}); }))));
  var frag = document.createDocumentFragment();
  order.forEach(function(op){
    var any = byOp[op].filter(Boolean)[0];
    var tr = el('tr', {'data-op': op}, [el('td', {'class': 'op', text: op}), el('td', {'class': 'l', text: any.cat}),
      el('td', {'class': 'l', title: any.opsets.join(' '), text: any.opsets.length ?
        (any.opsets.length > 2 ? any.opsets[0] + ' \u2026 ' + any.opsets[any.opsets.length - 1] : any.opsets.join(' ')) : ''})]);
    cols.forEach(function(k){
      var r = byOp[op][k];
      if (!r) { tr.appendChild(el('td', {'class': 'cell none', 'data-backend': B[k], text: 'no results'})); return; }
      var c = visible(r.counts), x = rate(c), probs = 0;
      P.forEach(function(s){ probs += c[S.indexOf(s)]; });
      var td = el('td', {'class': 'cell', 'data-backend': B[k], 'data-rate': x === null ? '' : String(x),
        title: S.map(function(s, j){ return c[j] ? s + ': ' + c[j] : ''; }).filter(Boolean).join(', ') +
               (r.rtol !== null || r.atol !== null ? '; min tolerance rtol ' + tol(r.rtol) + ' atol ' + tol(r.atol) : '')},
        [el('div', {'class': 'rate', text: r.impl === 'no' ? 'not implemented' : pct(x)}),
         el('div', {'class': 'n', text: c[iPassed] + '/' + sum(c) + (probs ? ' \u00b7 ' + probs + ' problem' + (probs > 1 ? 's' : '') : '') +
                                        (r.impl === 'partial' ? ' \u00b7 partly implemented' : '')}),
         probs && (r.rtol !== null || r.atol !== null) ?
           el('div', {'class': 'n', text: 'min tol rtol ' + tol(r.rtol) + ' atol ' + tol(r.atol)}) : null]);
      td.style.background = r.impl === 'no' ? '#ddd' : colour(x);
      td.addEventListener('click', function(){ toggle(op, k, tr, cols.length); });
      tr.appendChild(td);
    });
    frag.appendChild(tr);
    cols.forEach(function(k){ if (open[op + '\u0000' + k] && byOp[op][k]) frag.appendChild(detail(byOp[op][k], cols.length)); });
  });
  tbody.appendChild(frag);
  $('shown').textContent = '(' + order.length + ' op versions, ' + cols.length + ' backend' + (cols.length > 1 ? 's' : '') + ')';
}

function toggle(op, k, tr, ncols){
  var id = op + '\u0000' + k;
  if (open[id]) delete open[id]; else open[id] = true;
  update(false);
}
function copyText(text, button){
  function done(){ button.textContent = 'copied'; setTimeout(function(){ button.textContent = 'copy'; }, 1200); }
  function fallback(){
    var t = el('textarea'); t.value = text; document.body.appendChild(t); t.select();
    try { document.execCommand('copy'); done(); } catch (e) {} document.body.removeChild(t);
  }
  if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, fallback);
  else fallback();
}
var PAGE = 100;
function detail(r, ncols){
  var fails = D.fails[r.i].filter(function(f){ return statusOk(f[1]); });
  var td = el('td', {colspan: String(3 + ncols)});
  var tr = el('tr', {'class': 'detail', 'data-op': r.op, 'data-backend': B[r.b]}, [td]);
  td.appendChild(el('div', null, [el('b', {text: r.op + ' on ' + B[r.b] + ': '}), fails.length + ' problem' + (fails.length === 1 ? '' : 's') +
    (r.rtol !== null || r.atol !== null ? '; min tolerance over them: rtol ' + tol(r.rtol) + ', atol ' + tol(r.atol) : '')]));
  var list = el('div'); td.appendChild(list);
  var shown = 0;
  function more(){
    fails.slice(shown, shown + PAGE).forEach(function(f){ list.appendChild(failure(f)); });
    shown = Math.min(fails.length, shown + PAGE);
    if (shown < fails.length) {
      var b = el('button', {type: 'button', text: 'show ' + Math.min(PAGE, fails.length - shown) + ' more of ' + (fails.length - shown)});
      b.addEventListener('click', function(){ list.removeChild(b); more(); });
      list.appendChild(b);
    }
  }
  more();
  return tr;
}
function failure(f){
  // f = [id, status, message, rtol, atol, repro href, files, command, element type, mode]
  var d = el('div', {'class': 'fail ' + f[1]}, [el('span', {'class': 'st ' + f[1], text: f[1]}), ' ', el('code', {text: f[0]})]);
  if (f[2]) d.appendChild(el('pre', {text: f[2]}));
  if (f[3] !== null || f[4] !== null) d.appendChild(el('div', {text: 'min tolerance that would pass: rtol ' + tol(f[3]) + ', atol ' + tol(f[4])}));
  if (f[5]) {
    var links = el('div', null, ['repro: ', el('a', {href: f[5] + '/', text: decodeURI(f[5])})]);
    (f[6] || []).forEach(function(name){ links.appendChild(document.createTextNode(' \u00b7 ')); links.appendChild(el('a', {href: f[5] + '/' + name, text: name})); });
    d.appendChild(links);
  }
  if (f[7]) {
    var b = el('button', {type: 'button', 'class': 'copy', text: 'copy'});
    b.addEventListener('click', function(){ copyText(f[7], b); });
    d.appendChild(el('div', null, ['rerun: ', el('code', {'class': 'cmd', text: f[7]}), b]));
  }
  return d;
}

function update(hash){
  var t0 = Date.now();
  var vis = rows.filter(match);
  renderSummary(vis);
  renderMatrix(vis);
  if (hash) toHash();
  document.body.setAttribute('data-render-ms', String(Date.now() - t0));
  document.body.setAttribute('data-ready', '1');
}
window.oprefReport = {setFilters: setFilters, state: function(){ return JSON.parse(JSON.stringify(state)); },
                      rows: rows.length, fails: D.fails.reduce(function(n, f){ return n + f.length; }, 0)};
setup(); fromHash(); update(false);
})();
"""
