/**
 * anywidget's npm front end ends with `define(["@jupyter-widgets/base"], factory)`
 * (an AMD module, as JupyterLab's loader expects). This module, imported just
 * before it, provides that `define` for the one call and keeps the factory;
 * page.js calls it with the bundled `@jupyter-widgets/base`. The global is
 * removed again by `takeAnywidgetFactory`, so no other module sees an AMD loader.
 */
let factory = null;

globalThis.define = (deps, f) => {
  if (deps.length !== 1 || deps[0] !== "@jupyter-widgets/base") {
    throw new Error(`unexpected AMD module with dependencies ${deps}`);
  }
  factory = f;
};

/** The captured factory of anywidget's widget module (call once anywidget is imported). */
export function takeAnywidgetFactory() {
  delete globalThis.define;
  if (!factory) throw new Error("anywidget's front end did not register itself");
  return factory;
}
