// The documentation's theme, handed to its calculators (mkdocs.yml, extra_javascript).
// Material shows the scheme it chose (the reader's toggle, or the system's setting) as
// <body data-md-color-scheme="default|slate">. The pre-rendered figures take the
// calculators' dark colours inside [data-rl-theme="dark"] (ruleslab_widgets.style),
// and an embed not yet started takes data-theme, which embed.js passes to the app page
// (?theme=). This script runs before embed.js (deferred), so an embed starts in the
// page's theme; one already started keeps its own until the page is reloaded.
(function () {
  "use strict";
  function apply() {
    var theme = document.body.getAttribute("data-md-color-scheme") === "slate" ? "dark" : "light";
    document.documentElement.setAttribute("data-rl-theme", theme);
    document.querySelectorAll("[data-ruleslab]").forEach(function (embed) {
      if (!embed.querySelector("iframe")) embed.setAttribute("data-theme", theme);
    });
  }
  apply();
  new MutationObserver(apply).observe(document.body, {
    attributes: true,
    attributeFilter: ["data-md-color-scheme"],
  });
})();
