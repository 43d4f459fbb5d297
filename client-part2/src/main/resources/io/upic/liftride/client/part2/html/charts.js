/* Draws every chart of the page from the JSON in #report-data with uPlot (inlined above). No network. */
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);

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

  /* each band: a translucent strip over the plot's height, its name at the top */
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
            ctx.globalAlpha = 0.13;
            ctx.fillStyle = b.color;
            ctx.fillRect(left, u.bbox.top, right - left, u.bbox.height);
            ctx.globalAlpha = 0.85;
            ctx.font = (11 * px) + 'px sans-serif';
            ctx.fillText(b.label, left + 3 * px, u.bbox.top + (12 + 13 * (i % 4)) * px);
          });
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
        },
        value: function (u, v) { return v == null ? '-' : ninesLabel(Math.round(v * 1000) / 1000) || 'p' + num(100 - 100 * Math.pow(10, -v), 4); }
      };
    }
    if (spec.xAxis === 'THREADS') {
      return {
        scale: { time: false, distr: 3, log: 2 },
        axis: { label: spec.xLabel, splits: function () { return spec.x; } },
        value: function (u, v) { return v == null ? '-' : num(v, 0) + ' threads'; }
      };
    }
    return {
      scale: { time: false, range: function (u, min, max) { return [Math.min(0, min), max > 0 ? max : 1]; } },
      axis: { label: spec.xLabel },
      value: function (u, v) { return v == null ? '-' : num(v, 2) + ' s'; }
    };
  }

  function series(line) {
    var s = { label: line.label, stroke: line.color, width: 2, spanGaps: false,
              value: function (u, v) { return num(v, 3); } };
    if (line.dashed) { s.dash = [7, 5]; }
    if (line.points) {
      s.paths = function () { return null; };
      s.points = { show: true, size: 8, stroke: line.color, fill: line.color };
    } else {
      s.points = { show: false };
    }
    return s;
  }

  function draw(spec) {
    var el = document.getElementById(spec.id);
    var x = xOptions(spec);
    var opts = {
      width: Math.max(320, el.clientWidth || 900),
      height: 330,
      scales: { x: x.scale, y: { range: function (u, min, max) { return [0, max > 0 ? max * 1.06 : 1]; } } },
      axes: [x.axis, { label: spec.yLabel, size: 70 }],
      series: [{ label: spec.xLabel, value: x.value }].concat(spec.lines.map(series)),
      cursor: { drag: { x: true, y: false } },
      legend: { live: true },
      plugins: spec.bands.length ? [bandsPlugin(spec.bands)] : [],
      hooks: { ready: [function () { el.setAttribute('data-drawn', 'true'); }] }
    };
    var values = [spec.x].concat(spec.lines.map(function (l) { return l.y; }));
    var plot = new uPlot(opts, values, el);
    window.addEventListener('resize', function () {
      plot.setSize({ width: Math.max(320, el.clientWidth || 900), height: 330 });
    });
    return plot;
  }

  data.charts.forEach(draw);
})();
