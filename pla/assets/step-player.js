/* pla-verify step players (pla/step_player.py draws them: on the site at build time, in Jupyter on display).
 *
 * Every state of the run is already drawn (one <g class="pla-frame"> per state) and every number
 * is already computed exactly, as text, in the JSON block of the player. This script only shows
 * one frame at a time and copies the texts: it computes nothing. No network, no framework.
 */
(function () {
  "use strict";

  function numberText(value) {
    if (value === null || value === undefined) return "";
    if (typeof value === "string" || typeof value === "number") return String(value);
    if (value.text) return value.text;
    if (value.exact && value.decimal) {
      return value.exact.indexOf("/") >= 0 ? value.exact + " ≈ " + value.decimal : value.exact;
    }
    if (value.exact) return value.exact;
    if (value.decimal) return "≈ " + value.decimal;
    return "";
  }

  function stateLine(kind, state, last) {
    var t = state.t;
    var line;
    if (kind === "pocket") {
      line = "t = " + t + " of " + last + ": w_" + t + " = " + state.w + " makes " +
        state.walk_mistakes + " mistakes; the pocket w_" + state.pocket_t + " = " + state.pocket_w +
        " makes " + state.pocket_mistakes + "." + (state.replaced ? " The pocket was just replaced." : "");
    } else {
      line = "t = " + t + " of " + last + ": w_" + t + " = " + state.w + ".";
    }
    if (state.mistake) {
      line += " Next mistake: x" + state.mistake.n + ", y = " + (state.mistake.y > 0 ? "+1" : "−1") +
        ", score w_" + t + "·x = " + state.mistake.score + " (y × score ≤ 0).";
    } else if (kind === "pla") {
      line += " No mistake left: PLA halts.";
    }
    return line;
  }

  function setUp(player) {
    var script = player.querySelector("script.pla-player-data");
    var live = player.querySelector(".pla-live");
    if (!script || !live) return;
    var data = JSON.parse(script.textContent);
    var states = data.states;
    var last = states.length - 1;
    var frames = Array.prototype.slice.call(player.querySelectorAll(".pla-stage .pla-frame"));
    var scrub = player.querySelector(".pla-scrub");
    var playButton = player.querySelector('[data-action="play"]');
    var speed = player.querySelector('[data-action="speed"]');
    var status = player.querySelector(".pla-status");
    var stateText = player.querySelector(".pla-state");
    var current = 0;
    var timer = null;

    function show(k) {
      current = Math.max(0, Math.min(last, k));
      frames.forEach(function (frame) {
        if (Number(frame.getAttribute("data-frame")) === current) frame.removeAttribute("hidden");
        else frame.setAttribute("hidden", "");
      });
      var state = states[current];
      player.setAttribute("data-step", String(current));
      scrub.value = String(current);
      status.textContent = "step " + current + " / " + last;
      stateText.textContent = stateLine(data.kind, state, last);
      Array.prototype.forEach.call(player.querySelectorAll("[data-field]"), function (el) {
        el.textContent = numberText(state[el.getAttribute("data-field")]);
      });
      Array.prototype.forEach.call(player.querySelectorAll("[data-gauge]"), function (gauge) {
        var bars = state.bars[gauge.getAttribute("data-gauge")] || [0, 0];
        gauge.querySelector(".pla-bar-value").style.width = (100 * bars[0]).toFixed(2) + "%";
        gauge.querySelector(".pla-bar-bound").style.left = (100 * bars[1]).toFixed(2) + "%";
      });
    }

    function pause() {
      if (timer !== null) window.clearInterval(timer);
      timer = null;
      playButton.textContent = "▶ play";
      player.setAttribute("data-playing", "false");
    }

    function play() {
      if (current >= last) show(0);
      pause();
      playButton.textContent = "❚❚ pause";
      player.setAttribute("data-playing", "true");
      timer = window.setInterval(function () {
        if (current >= last) { pause(); return; }
        show(current + 1);
      }, Number(speed.value));
    }

    player.querySelector(".pla-controls").addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) return;
      var action = button.getAttribute("data-action");
      if (action === "play") { if (timer === null) play(); else pause(); return; }
      pause();
      if (action === "first") show(0);
      else if (action === "back") show(current - 1);
      else if (action === "forward") show(current + 1);
      else if (action === "last") show(last);
    });
    scrub.addEventListener("input", function () { pause(); show(Number(scrub.value)); });
    speed.addEventListener("change", function () { if (timer !== null) play(); });
    live.removeAttribute("hidden");
    show(0);
    player.setAttribute("data-ready", "true");
  }

  function setUpAll() {
    Array.prototype.forEach.call(document.querySelectorAll(".pla-player"), function (player) {
      if (player.getAttribute("data-ready") !== "true") setUp(player);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUpAll);
  else setUpAll();
})();
