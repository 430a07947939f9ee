/* Search on a site opened from disk (file://), without a server and without a CDN.
 *
 * mkdocs-material runs its search in a Web Worker; Chromium refuses to start a worker from a
 * file:// page. Only on file:// pages, this script (loaded before the theme's bundle) replaces
 * window.Worker by a same-page stand-in: the worker script runs in a hidden <iframe> and messages
 * are passed through events, so the worker code runs unchanged. The search index itself is read
 * from search/search_index.js (written at build time, docs/hooks/sitebuild/offline_search.py),
 * because a file:// page cannot fetch() search_index.json either.
 */
(function () {
  "use strict";
  if (location.protocol !== "file:") return;

  function FileWorker(url) {
    var self = this;
    this.onmessage = null;
    this.onerror = null;
    this._listeners = [];
    this._queue = [];
    this._ready = false;
    var frame = document.createElement("iframe");
    frame.setAttribute("hidden", "");
    frame.setAttribute("aria-hidden", "true");
    frame.setAttribute("title", "search worker");
    (document.body || document.documentElement).appendChild(frame);
    var scope = frame.contentWindow;
    this._scope = scope;
    // The worker's postMessage(data) goes to the page, as a MessageEvent.
    scope.postMessage = function (data) {
      var event = { data: data, target: self };
      window.setTimeout(function () {
        if (typeof self.onmessage === "function") self.onmessage(event);
        self._listeners.forEach(function (entry) {
          if (entry[0] === "message") entry[1].call(self, event);
        });
      }, 0);
    };
    scope.importScripts = function () {
      throw new Error("importScripts is not available to the file:// search worker");
    };
    var script = scope.document.createElement("script");
    script.src = new URL(url, location.href).href;
    script.onload = function () {
      self._ready = true;
      self._queue.splice(0).forEach(function (data) { self._deliver(data); });
    };
    script.onerror = function (error) {
      if (typeof self.onerror === "function") self.onerror(error);
    };
    scope.document.documentElement.appendChild(script);
  }
  FileWorker.prototype._deliver = function (data) {
    var scope = this._scope;
    window.setTimeout(function () {
      scope.dispatchEvent(new scope.MessageEvent("message", { data: data }));
    }, 0);
  };
  FileWorker.prototype.postMessage = function (data) {
    if (this._ready) this._deliver(data);
    else this._queue.push(data);
  };
  FileWorker.prototype.addEventListener = function (type, listener) {
    this._listeners.push([type, listener]);
  };
  FileWorker.prototype.removeEventListener = function (type, listener) {
    this._listeners = this._listeners.filter(function (entry) {
      return !(entry[0] === type && entry[1] === listener);
    });
  };
  FileWorker.prototype.terminate = function () {};
  window.Worker = FileWorker;
})();
