/**
 * `sanitize-html`'s default export for the app page's bundle (tools/build_app.py aliases
 * the package to this module, which drops it, htmlparser2, entities and postcss: a third
 * of the bundle, which every page and embed instantiated).
 *
 * `@jupyter-widgets/base-manager` calls it for one thing only: a widget's description
 * marked as HTML (`description_allow_html`), which no widget of ours sets
 * (tests/widgets/test_views.py checks every calculator's). Should one ever be marked,
 * its description is shown as the text it is: everything is escaped, nothing parsed, so
 * no markup, however hostile, can reach the page through it.
 */
export default function sanitize(html) {
  return String(html == null ? "" : html).replace(
    /[&<>"']/g,
    (c) => `&#${c.charCodeAt(0)};`,
  );
}
