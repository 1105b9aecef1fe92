/* ruleslab offline (tools/offline.py, app/offline-pin.js): record the site's service worker
   for JupyterLite, which otherwise unregisters every worker on its first visit under one. */
(function () {
  var PIN = /*RULESLAB-OFFLINE-PIN*/ null;
  try {
    // the site root as JupyterLite's config-utils.js finds it
    var here = location.origin + location.pathname.replace(/(\/|\/index\.html)?$/, "") + "/";
    var config = document.getElementById("jupyter-config-data");
    var root = config.getAttribute("data-jupyter-lite-root").replace(/\/?$/, "/");
    var url = new URL(root + PIN.worker, here).href;
    localStorage.setItem(url + "-version", PIN.appVersion);
  } catch (e) {
    // no storage (a private window that refuses it): JupyterLite behaves as it would anyway
  }
})();
