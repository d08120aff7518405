// Optional niceties: the page is complete without them (SVG <title>s are native tooltips).
(function () {
  "use strict";
  var tip = document.getElementById("tfd-tip");
  var shown = null;
  // The tooltip text moves from <title> to data-tip, so the browser's own tooltip does not
  // show twice.
  document.querySelectorAll(".tfd-mark, .tfd-finding, .tfd-error-line").forEach(function (el) {
    var title = el.querySelector("title");
    if (title) { el.setAttribute("data-tip", title.textContent); title.remove(); }
  });
  function place(event) {
    var x = event.clientX + 14, y = event.clientY + 14;
    var w = tip.offsetWidth, h = tip.offsetHeight;
    if (x + w > window.innerWidth - 4) { x = Math.max(4, event.clientX - w - 14); }
    if (y + h > window.innerHeight - 4) { y = Math.max(4, event.clientY - h - 14); }
    tip.style.left = x + "px";
    tip.style.top = y + "px";
  }
  function show(el, event) {
    if (shown) { shown.classList.remove("tfd-on"); }
    shown = el;
    el.classList.add("tfd-on");
    tip.textContent = el.getAttribute("data-tip");
    tip.hidden = false;
    if (event.clientX !== undefined) { place(event); } else {
      var box = el.getBoundingClientRect();
      place({clientX: box.right, clientY: box.bottom});
    }
  }
  function hide() {
    if (shown) { shown.classList.remove("tfd-on"); }
    shown = null;
    tip.hidden = true;
  }
  function target(event) {
    var el = event.target;
    return el && el.closest ? el.closest("[data-tip]") : null;
  }
  document.addEventListener("mouseover", function (event) {
    var el = target(event);
    if (el) { show(el, event); } else if (shown) { hide(); }
  });
  document.addEventListener("mousemove", function (event) { if (shown) { place(event); } });
  document.addEventListener("focusin", function (event) {
    var el = event.target.querySelector ? event.target.querySelector("[data-tip]") : null;
    if (el) { show(el, {}); }
  });
  document.addEventListener("focusout", hide);
  // Zooming the timeline: every mark carries its time (data-t, data-d); the axis between
  // data-x0 and data-x1 shows [lo, hi] seconds, at most the whole run after the start-up.
  var SVG_NS = "http://www.w3.org/2000/svg";
  function niceStep(span) {
    var raw = span / 5, magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    var steps = [1, 2, 2.5, 5, 10];
    for (var i = 0; i < steps.length; i++) {
      if (steps[i] * magnitude >= raw) { return steps[i] * magnitude; }
    }
    return 10 * magnitude;
  }
  function tickLabel(t, step, whole) {  // html_report._tick_label, the same rule
    var unit = whole < 1 ? "ms" : "s", scale = whole < 1 ? 1000 : 1;
    step *= scale; t *= scale;
    var decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
    var scaled = step * Math.pow(10, decimals);
    if (Math.abs(scaled - Math.round(scaled)) > 1e-6) { decimals += 1; }
    return t.toFixed(decimals) + " " + unit;
  }
  function zoomable(svg, bar) {
    var lo0 = +svg.getAttribute("data-lo"), hi0 = +svg.getAttribute("data-hi");
    var x0 = +svg.getAttribute("data-x0"), x1 = +svg.getAttribute("data-x1");
    var bottom = +svg.getAttribute("data-bottom");
    var lo = lo0, hi = hi0, smallest = Math.max((hi0 - lo0) / 1e5, 1e-6);
    var ticks = svg.querySelector(".tfd-ticks"), brush = svg.querySelector(".tfd-brush");
    var range = bar.querySelector(".tfd-zoom-range");
    function x(t) { return x0 + (x1 - x0) * (t - lo) / (hi - lo); }
    function timeAt(clientX) {
      var point = svg.createSVGPoint();
      point.x = clientX; point.y = 0;
      var user = point.matrixTransform(svg.getScreenCTM().inverse());
      return {x: user.x, t: lo + (hi - lo) * (user.x - x0) / (x1 - x0)};
    }
    function draw() {
      svg.querySelectorAll(".tfd-mark").forEach(function (el) {
        var t = +el.getAttribute("data-t"), d = +el.getAttribute("data-d");
        el.setAttribute("x", x(t).toFixed(1));
        el.setAttribute("width", Math.max(3, (x1 - x0) * d / (hi - lo)).toFixed(1));
      });
      svg.querySelectorAll(".tfd-finding").forEach(function (el) {
        el.setAttribute("d", "M" + x(+el.getAttribute("data-t")).toFixed(1) + " " +
                        el.getAttribute("data-y") + "l6 16h-12z");
      });
      svg.querySelectorAll(".tfd-error-line").forEach(function (el) {
        var at = x(+el.getAttribute("data-t")).toFixed(1);
        el.setAttribute("x1", at); el.setAttribute("x2", at);
      });
      while (ticks.firstChild) { ticks.removeChild(ticks.firstChild); }
      var step = niceStep(hi - lo);
      for (var t = Math.ceil(lo / step - 1e-9) * step; t <= hi + 1e-12; t += step) {
        var line = document.createElementNS(SVG_NS, "line");
        line.setAttribute("class", "tfd-grid");
        line.setAttribute("x1", x(t)); line.setAttribute("x2", x(t));
        line.setAttribute("y1", 0); line.setAttribute("y2", bottom);
        var text = document.createElementNS(SVG_NS, "text");
        text.setAttribute("class", "tfd-tick");
        text.setAttribute("x", x(t)); text.setAttribute("y", bottom + 15);
        text.textContent = tickLabel(t, step, hi0);
        ticks.appendChild(line); ticks.appendChild(text);
      }
      var whole = lo === lo0 && hi === hi0;
      range.textContent = whole ? "" : "showing " + tickLabel(lo, (hi - lo) / 100, hi0) +
        " to " + tickLabel(hi, (hi - lo) / 100, hi0);
      svg.classList.toggle("tfd-zoomed", !whole);
    }
    function zoomTo(a, b) {
      var width = Math.min(Math.max(b - a, smallest), hi0 - lo0);
      a = Math.min(Math.max(a, lo0), hi0 - width);
      lo = a; hi = a + width;
      draw();
    }
    function around(factor) { var mid = (lo + hi) / 2, half = (hi - lo) * factor / 2; zoomTo(mid - half, mid + half); }
    bar.hidden = false;
    bar.addEventListener("click", function (event) {
      var button = event.target.closest ? event.target.closest("button[data-zoom]") : null;
      if (!button) { return; }
      var action = button.getAttribute("data-zoom"), shift = (hi - lo) / 2;
      if (action === "in") { around(0.5); } else if (action === "out") { around(2); }
      else if (action === "left") { zoomTo(lo - shift, hi - shift); }
      else if (action === "right") { zoomTo(lo + shift, hi + shift); }
      else { zoomTo(lo0, hi0); }
    });
    svg.addEventListener("wheel", function (event) {
      if (!event.ctrlKey && !event.metaKey) { return; }  // a plain wheel scrolls the page
      event.preventDefault();
      var at = timeAt(event.clientX).t, factor = event.deltaY < 0 ? 0.8 : 1.25;
      zoomTo(at - (at - lo) * factor, at + (hi - at) * factor);
    }, {passive: false});
    var start = null, dragged = false;
    svg.addEventListener("mousedown", function (event) {
      var at = timeAt(event.clientX);
      if (event.button !== 0 || at.x < x0 || at.x > x1) { return; }
      start = at; dragged = false;
      event.preventDefault();
    });
    document.addEventListener("mousemove", function (event) {
      if (!start) { return; }
      var now = timeAt(event.clientX);
      if (Math.abs(now.x - start.x) > 3) { dragged = true; }
      var left = Math.max(x0, Math.min(now.x, start.x)), right = Math.min(x1, Math.max(now.x, start.x));
      brush.setAttribute("x", left); brush.setAttribute("width", Math.max(0, right - left));
    });
    document.addEventListener("mouseup", function (event) {
      if (!start) { return; }
      var now = timeAt(event.clientX), from = start;
      start = null;
      brush.setAttribute("width", 0);
      if (dragged) { zoomTo(Math.min(from.t, now.t), Math.max(from.t, now.t)); }
    });
    svg.addEventListener("click", function (event) {  // the end of a drag is not a click on a mark
      if (dragged) { event.preventDefault(); event.stopPropagation(); dragged = false; }
    }, true);
    svg.addEventListener("dblclick", function () { zoomTo(lo0, hi0); });
  }
  document.querySelectorAll(".tfd-zoom").forEach(function (bar) {
    var svg = bar.nextElementSibling;
    if (svg && svg.getAttribute("data-lo") !== null) { zoomable(svg, bar); }
  });
  // Jumping to a trace inside a closed <details> opens it.
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    for (var node = el; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") { node.open = true; }
    }
    if (el) { el.scrollIntoView({block: "center"}); }
  }
  window.addEventListener("hashchange", reveal);
  if (location.hash) { reveal(); }
  // A copy button beside every ready-to-paste fix.
  document.querySelectorAll("pre.tfd-copy").forEach(function (pre) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "tfd-copy-button";
    button.textContent = "copy";
    button.addEventListener("click", function () {
      var text = pre.textContent;
      function selected() {
        var range = document.createRange();
        range.selectNodeContents(pre);
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        var ok = false;
        try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
        button.textContent = ok ? "copied" : "selected: press Ctrl+C";
      }
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(function () { button.textContent = "copied"; },
                                                 selected);
      } else { selected(); }
    });
    pre.parentNode.appendChild(button);
  });
})();
