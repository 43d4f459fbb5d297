/* Draws every chart of the page from the JSON in #report-data with uPlot (inlined above). No network. */
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var LANE = 15; /* px per phase lane above the plot */

  /* whole "nines" as percentiles: 0 -> 0%, 1 -> 90%, 2 -> 99%, 3 -> 99.9% ... */
  function ninesLabel(n) {
    var r = Math.round(n);
    if (Math.abs(n - r) > 1e-6 || r < 0) { return ''; }
    if (r === 0) { return '0%'; }
    return (100 - Math.pow(10, 2 - r)).toFixed(Math.max(0, r - 2)) + '%';
  }

  function num(v, digits) {
    return v == null ? '-' : v.toLocaleString('en-US', { maximumFractionDigits: digits });
  }

  /* 3 significant digits, thousands separated: 8,251 / 24.8 / 0.343 */
  function sig(v) {
    if (v == null) { return '-'; }
    var a = Math.abs(v);
    return num(v, a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3);
  }

  /* 1, 2, 5 x 10^k with k, M: 500, 1k, 2k, 1M */
  function compact(v) {
    var a = Math.abs(v);
    if (a >= 1e6) { return num(v / 1e6, 1) + 'M'; }
    if (a >= 1e3) { return num(v / 1e3, 1) + 'k'; }
    return num(v, 3);
  }

  function finite(y) {
    return y.filter(function (v) { return v != null && isFinite(v); });
  }

  /* What a legend shows while no point is hovered: the mean over time, or with few points the last one. */
  function summary(spec, line) {
    var v = finite(line.y);
    if (!v.length) { return 'none'; }
    if (spec.xAxis === 'SECONDS') {
      return 'mean ' + sig(v.reduce(function (a, b) { return a + b; }, 0) / v.length) +
          ', max ' + sig(Math.max.apply(null, v));
    }
    var last = line.y.length - 1;
    while (last > 0 && line.y[last] == null) { last--; }
    return sig(line.y[last]) + ' at ' + xText(spec, spec.x[last]);
  }

  function xText(spec, v) {
    if (spec.xAxis === 'THREADS') { return num(v, 0) + ' threads'; }
    if (spec.xAxis === 'NINES') {
      return ninesLabel(Math.round(v * 1000) / 1000) || 'p' + num(100 - 100 * Math.pow(10, -v), 4);
    }
    return num(v, 2) + ' s';
  }

  /* each band: a lane of its own above the plot (overlapping phases stay apart), its edges dashed through it */
  function bandsPlugin(bands) {
    return {
      hooks: {
        drawClear: function (u) {
          var ctx = u.ctx, px = window.devicePixelRatio || 1;
          ctx.save();
          bands.forEach(function (b, i) {
            var a = u.valToPos(b.from, 'x', true), z = u.valToPos(b.to, 'x', true);
            var left = Math.max(u.bbox.left, Math.min(a, z));
            var right = Math.min(u.bbox.left + u.bbox.width, Math.max(a, z));
            if (right <= left) { return; }
            var top = u.bbox.top - (bands.length - i) * LANE * px;
            ctx.globalAlpha = 0.35;
            ctx.fillStyle = b.color;
            ctx.fillRect(left, top + px, right - left, (LANE - 2) * px);
            ctx.globalAlpha = 1;
            ctx.fillStyle = '#222';
            ctx.font = (11 * px) + 'px sans-serif';
            ctx.fillText(b.label, left + 3 * px, top + (LANE - 4) * px);
            ctx.strokeStyle = b.color;
            ctx.lineWidth = px;
            ctx.setLineDash([3 * px, 4 * px]);
            [left, right].forEach(function (x) {
              ctx.beginPath();
              ctx.moveTo(x, top + px);
              ctx.lineTo(x, u.bbox.top + u.bbox.height);
              ctx.stroke();
            });
            ctx.setLineDash([]);
          });
          ctx.restore();
        }
      }
    };
  }

  /* each point's value printed above it (charts with a few points: the sweep) */
  function labelsPlugin() {
    return {
      hooks: {
        draw: function (u) {
          var ctx = u.ctx, px = window.devicePixelRatio || 1;
          ctx.save();
          ctx.font = 'bold ' + (11 * px) + 'px sans-serif';
          ctx.textAlign = 'center';
          for (var s = 1; s < u.series.length; s++) {
            if (!u.series[s].show) { continue; }
            ctx.fillStyle = u.series[s]._stroke || u.series[s].stroke;
            var dy = s === 1 ? 16 : -7; /* the measurement below its points, predictions above: close values stay apart */
            u.data[s].forEach(function (v, i) {
              if (v == null) { return; }
              var x = u.valToPos(u.data[0][i], 'x', true), y = u.valToPos(v, 'y', true);
              ctx.fillText(sig(v), Math.min(Math.max(x, u.bbox.left + 20 * px), u.bbox.left + u.bbox.width - 20 * px),
                  y + dy * px);
            });
          }
          ctx.restore();
        }
      }
    };
  }

  function xOptions(spec) {
    if (spec.xAxis === 'NINES') {
      return {
        scale: { time: false, range: function (u, min, max) { return [0, Math.max(1, Math.ceil(max))]; } },
        axis: {
          label: spec.xLabel,
          splits: function (u, i, min, max) {
            var s = [];
            for (var k = Math.ceil(min); k <= max + 1e-9; k++) { s.push(k); }
            return s;
          },
          values: function (u, splits) { return splits.map(ninesLabel); }
        }
      };
    }
    if (spec.xAxis === 'THREADS') {
      return {
        scale: { time: false, distr: 3, log: 2 },
        axis: { label: spec.xLabel, splits: function () { return spec.x; } }
      };
    }
    return {
      scale: { time: false, range: function (u, min, max) { return [Math.min(0, min), max > 0 ? max : 1]; } },
      axis: { label: spec.xLabel }
    };
  }

  /* log-10 y: a decade below the least value to one above the greatest, each decade (and 2, 5) labelled */
  function yOptions(spec) {
    if (spec.yAxis !== 'LOG') {
      return {
        scale: { range: function (u, min, max) { return [0, max > 0 ? max * 1.12 : 1]; } },
        axis: { label: spec.yLabel, size: 70 }
      };
    }
    return {
      scale: {
        distr: 3, log: 10,
        range: function (u, min, max) {
          var lo = Math.pow(10, Math.floor(Math.log10(min > 0 ? min : 1)));
          var hi = Math.pow(10, Math.ceil(Math.log10(max > 0 ? max * 1.5 : 10)));
          return [lo, hi > lo ? hi : lo * 10];
        }
      },
      axis: {
        label: spec.yLabel, size: 70,
        splits: function (u, i, min, max) {
          var s = [], few = max / min <= 1000;
          for (var d = min; d <= max * 1.0001; d *= 10) {
            s.push(d);
            if (few) { s.push(2 * d, 5 * d); }
          }
          return s.filter(function (v) { return v <= max * 1.0001; });
        },
        /* every split kept and labelled: uPlot's default log filter blanks the 2s and 5s */
        filter: function (u, splits) { return splits; },
        values: function (u, splits) { return splits.map(function (v) { return v == null ? '' : compact(v); }); }
      }
    };
  }

  function series(spec, line) {
    var text = summary(spec, line);
    var s = { label: line.label, stroke: line.color, width: 2, spanGaps: false,
              value: function (u, v, si, idx) { return idx == null ? text : sig(v); } };
    if (line.dashed) { s.dash = [7, 5]; }
    if (line.points) {
      s.paths = function () { return null; };
      s.points = { show: true, size: 8, stroke: line.color, fill: line.color };
    } else {
      s.points = { show: spec.xAxis === 'THREADS', size: 7, stroke: line.color, fill: line.color };
    }
    return s;
  }

  function xSummary(spec) {
    var v = finite(spec.x);
    return v.length ? xText(spec, Math.min.apply(null, v)) + ' to ' + xText(spec, Math.max.apply(null, v)) : '-';
  }

  function phaseLegend(el, bands) {
    var p = document.createElement('p');
    p.className = 'phases';
    p.textContent = 'Phases (lanes above the plot, edges dashed): ';
    bands.forEach(function (b) {
      var s = document.createElement('span');
      var sw = document.createElement('i');
      sw.style.background = b.color;
      s.appendChild(sw);
      s.appendChild(document.createTextNode(b.label + ' ' + num(b.from, 2) + '–' + num(b.to, 2) + ' s'));
      p.appendChild(s);
    });
    el.parentNode.appendChild(p);
  }

  function draw(spec) {
    var el = document.getElementById(spec.id);
    var x = xOptions(spec), y = yOptions(spec);
    var log = spec.yAxis === 'LOG';
    var plugins = [];
    if (spec.bands.length) { plugins.push(bandsPlugin(spec.bands)); }
    if (spec.xAxis === 'THREADS') { plugins.push(labelsPlugin()); }
    var xText0 = xSummary(spec);
    var opts = {
      width: Math.max(320, el.clientWidth || 900),
      height: 330 + spec.bands.length * LANE,
      padding: [spec.bands.length ? spec.bands.length * LANE + 6 : 12, 24, 0, 0],
      scales: { x: x.scale, y: y.scale },
      axes: [x.axis, y.axis],
      series: [{ label: spec.xLabel,
                 value: function (u, v, si, idx) { return idx == null ? xText0 : xText(spec, v); } }]
          .concat(spec.lines.map(function (l) { return series(spec, l); })),
      cursor: { drag: { x: true, y: false } },
      legend: { live: true },
      plugins: plugins,
      hooks: { ready: [function () { el.setAttribute('data-drawn', 'true'); }] }
    };
    var values = [spec.x].concat(spec.lines.map(function (l) {
      return log ? l.y.map(function (v) { return v != null && v > 0 ? v : null; }) : l.y;
    }));
    var plot = new uPlot(opts, values, el);
    if (spec.bands.length) { phaseLegend(el, spec.bands); }
    window.addEventListener('resize', function () {
      plot.setSize({ width: Math.max(320, el.clientWidth || 900), height: opts.height });
    });
    return plot;
  }

  /* the drawn plots by chart id, for scripts and tests that read scales and positions */
  window.reportPlots = {};
  data.charts.forEach(function (spec) { window.reportPlots[spec.id] = draw(spec); });
})();
