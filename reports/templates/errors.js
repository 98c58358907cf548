/* Records every error the page meets (a script error, a resource that failed
   to load, a source the Content-Security-Policy blocked) on <html> as
   data-page-errors (the count) and data-page-error-log (the messages), where
   a person, a headless browser's DOM dump or a test can read them. */
(function () {
  var root = document.documentElement;
  var log = [];
  function note(message) {
    log.push(String(message));
    root.setAttribute("data-page-errors", String(log.length));
    root.setAttribute("data-page-error-log", log.join(" | "));
  }
  window.addEventListener("error", function (e) {
    var t = e.target;
    if (t && t !== window && (t.src || t.href)) {
      note("could not load " + (t.src || t.href));
    } else {
      note(e.message || "script error");
    }
  }, true);
  window.addEventListener("unhandledrejection", function (e) {
    note("unhandled rejection: " + e.reason);
  });
  document.addEventListener("securitypolicyviolation", function (e) {
    note("blocked " + (e.blockedURI || "inline content") + " by " + e.violatedDirective);
  });
  window.addEventListener("load", function () {
    root.setAttribute("data-page-state", "loaded");
  });
})();
