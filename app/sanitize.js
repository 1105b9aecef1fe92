/**
 * `sanitize-html`'s default export for the app page's bundle (tools/build_app.py aliases
 * the package to this module): the one call `@jupyter-widgets/base-manager` makes,
 * `sanitize(html, { allowedTags, allowedAttributes })` for a description a widget marks
 * as HTML, done with the browser's own HTML parser instead of htmlparser2, entities and
 * postcss (a third of the bundle, which every page and embed instantiated).
 *
 * The policy is sanitize-html's, with its defaults for what the call leaves out:
 * - an element whose tag is not allowed is dropped and its content kept, but for
 *   `script`, `style`, `textarea`, `option` and `xmp`, whose text goes with them;
 *   comments are dropped;
 * - an attribute is kept when allowed for its tag or for `*` (a `*` in a name matches
 *   any characters: `aria-*`), and dropped when empty (but `alt`);
 * - a URL attribute (`href`, `src`, ...) whose scheme is not `http`, `https`, `ftp`,
 *   `mailto` or `tel` is dropped (control characters and spaces removed first, as
 *   browsers ignore them); relative and protocol-relative URLs stay.
 * The markup is parsed in an inert document (DOMParser: no script runs, nothing loads)
 * and the kept nodes are written out by the browser's serializer, which escapes text
 * and attribute values.
 */

const NON_TEXT_TAGS = new Set(["script", "style", "textarea", "option", "xmp"]);
const ALLOWED_EMPTY = new Set(["alt"]);
const SCHEMES = new Set(["http", "https", "ftp", "mailto", "tel"]);
const URL_ATTRIBUTES = new Set([
  "href", "src", "cite", "action", "formaction", "data", "xlink:href", "poster", "background",
  "ping", "longdesc", "usemap", "codebase", "classid", "archive", "profile", "manifest",
  "itemid", "dynsrc", "lowsrc",
]);
const DEFAULT_ATTRIBUTES = {
  a: ["href", "name", "target"],
  img: ["src", "alt", "title", "width", "height", "loading"], // (not srcset: its URLs are not checked here)
};

/** Whether sanitize-html (launder's naughtyHref) would refuse this URL. */
export function naughtyHref(href) {
  let clean = href.replace(/[\x00-\x20]+/g, ""); // eslint-disable-line no-control-regex
  for (;;) {
    const first = clean.indexOf("<!--");
    if (first === -1) break;
    const last = clean.indexOf("-->", first + 4);
    if (last === -1) break;
    clean = clean.substring(0, first) + clean.substring(last + 3);
  }
  const scheme = clean.match(/^([a-zA-Z][a-zA-Z0-9.\-+]*):/);
  return scheme ? !SCHEMES.has(scheme[1].toLowerCase()) : false;
}

function attributeTest(allowed) {
  const exact = new Set();
  const globs = [];
  for (const name of allowed || []) {
    if (name.includes("*")) {
      const escaped = name.replace(/[|\\{}()[\]^$+?.]/g, "\\$&").replace(/\*/g, ".*");
      globs.push(new RegExp(`^${escaped}$`));
    } else exact.add(name);
  }
  return (name) => exact.has(name) || globs.some((re) => re.test(name));
}

/**
 * `html` with only what the options allow (see the module's comment); options as
 * sanitize-html's `allowedTags` (an array) and `allowedAttributes` (tag -> names).
 */
export default function sanitize(html, options = {}) {
  const tags = new Set(options.allowedTags || []);
  const byTag = options.allowedAttributes || DEFAULT_ATTRIBUTES;
  const everyTag = attributeTest(byTag["*"]);
  const tests = new Map();
  const allows = (tag, name) => {
    if (!tests.has(tag)) tests.set(tag, attributeTest(byTag[tag]));
    return everyTag(name) || tests.get(tag)(name);
  };
  const doc = new DOMParser().parseFromString("<!doctype html><body></body>", "text/html");
  const source = doc.createElement("template");
  source.innerHTML = String(html == null ? "" : html);
  const out = doc.createElement("div");
  const copy = (from, into) => {
    for (const node of from.childNodes) {
      if (node.nodeType === Node.TEXT_NODE) {
        into.appendChild(doc.createTextNode(node.data));
        continue;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) continue; // (comments)
      const tag = node.localName;
      const children = tag === "template" ? node.content : node;
      if (!tags.has(tag)) {
        if (!NON_TEXT_TAGS.has(tag)) copy(children, into);
        continue;
      }
      const el = doc.createElement(tag);
      for (const { name, value } of node.attributes) {
        if (!allows(tag, name)) continue;
        if (!value && !ALLOWED_EMPTY.has(name)) continue;
        if (URL_ATTRIBUTES.has(name) && naughtyHref(value)) continue;
        el.setAttribute(name, value);
      }
      copy(children, tag === "template" ? el.content : el);
      into.appendChild(el);
    }
  };
  copy(source.content, out);
  return out.innerHTML;
}
