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
