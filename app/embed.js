/**
 * ruleslab embed.js: calculators in any web page, pre-set and sized to their content.
 *
 *   <script src="…/embed.js" defer></script>   (… : where the calculator site is served)
 *   <div data-ruleslab="lifting" data-strength="5" data-might="2" data-object_kg="450"></div>
 *
 * Each element with `data-ruleslab="<key>"` gets an iframe of the app page
 * (`app.html?calculator=<key>&<its inputs>`) on this script's own origin. Its
 * other data-* attributes are the calculator's inputs by field name, as in a
 * shared link, except these, which belong to the embed:
 *
 *   data-theme   passed to the app page as `theme=` (e.g. "dark")
 *   data-party   "yes": the calculator's party bar reads and saves the GM's party kept
 *                by the site (else an embed neither reads nor writes it)
 *   data-start   "visible" (default): start when the element scrolls into view;
 *                "click": show a start button and wait for it
 *   data-height  "auto" (default): the iframe follows the content's height;
 *                a number of pixels (100 to 10000): a fixed height, scrolled inside
 *
 * data-calculator and data-embed are refused with a message in the element (the
 * app page reads `calculator` and `embed` itself), as the Sphinx directive does.
 *
 * Before it starts an embed shows the calculator's title. The first embed to start
 * says which Python it runs on as soon as its page's script (app.js) is loaded, long
 * before Python is up: where its frame can reach the site's shared worker (one
 * Python for all the site's calculators) the next embeds in view start while that
 * Python starts, and they share it, AT_ONCE of them loading at a time (a frame of
 * the site in a page of the same site runs on the page's own thread: fifty frames
 * loading at once would leave the page deaf to clicks for seconds); where it cannot
 * (no SharedWorker, or the browser refuses it to a frame of another site: third-party
 * storage blocked), each frame would start its own Python, so they start one at a
 * time, each when the one before is drawn (a page never starts several interpreters
 * at once). The app page posts {type: "ruleslab:runtime", id, mode} ("shared" or
 * "dedicated") once app.js is loaded, {type: "ruleslab:height", id, height}
 * whenever its content's height changes and {type: "ruleslab:ready", id, ok} once
 * (docs/app-page.md, "In a frame"); messages are taken only from this origin and from
 * the iframe they name.
 *
 * Built into the site's root by tools/make_content.py, which writes the catalog's
 * titles into TITLES (below). No dependency, no request but the iframes.
 * Elements added later: call window.ruleslabEmbed.scan().
 */
(function () {
  "use strict";
  const TITLES = __RULESLAB_TITLES__;
  const script =
    document.currentScript || document.querySelector('script[src$="embed.js"]');
  if (!script) return;
  const BASE = new URL(".", script.src);
  if (window.ruleslabEmbed && window.ruleslabEmbed.base === BASE.href) {
    window.ruleslabEmbed.scan(); // the script included twice: one set of embeds
    return;
  }

  const OWN = ["ruleslab", "theme", "start", "height", "party"]; // data-* that are not inputs
  const PAGE = ["calculator", "embed"]; // the app page's own names (view.PAGE_PARAMETERS)
  const START = ["visible", "click"];
  const MIN_HEIGHT = 100;
  const MAX_HEIGHT = 10000;
  const LATER = "A ruleslab calculator: it starts when you scroll to it.";
  const WAITING = "Waiting for another calculator on this page to start…";
  const WAIT_MS = 60000; // an embed that never says it is ready stops holding the queue
  const AT_ONCE = 3; // frames loading at a time on the shared Python
  const has = function (o, k) {
    return Object.prototype.hasOwnProperty.call(o, k);
  };
  const byWindow = new Map(); // iframe's window -> embed
  const waiting = []; // embeds asked to start, in order
  const starting = new Map(); // the embeds loading (not yet drawn) -> their time-out
  // One Python serves every calculator of the site in this browser (a SharedWorker:
  // docs/app-page.md, "One Python for the whole site"): once an embed's frame says it
  // is on it, the others start, AT_ONCE loading at a time (they find it running, or
  // starting); until then, or without it, one at a time.
  let shared = false;
  let count = 0;
  const room = function () {
    return starting.size < (shared ? AT_ONCE : 1);
  };

  const STYLE = `
.ruleslab-embed { display: block; margin: 1em 0; }
.ruleslab-embed iframe { display: block; width: 100%; border: 0; }
.ruleslab-embed .ruleslab-card { box-sizing: border-box; min-height: 120px; padding: 1em 1.2em;
  border: 1px solid #c9ccd1; border-radius: 6px; background: #f6f7f9; color: #1f2328;
  display: flex; flex-direction: column; justify-content: center; gap: .4em;
  font-family: system-ui, sans-serif; line-height: 1.4; }
.ruleslab-embed .ruleslab-title { font-weight: 600; font-size: 1.1em; }
.ruleslab-embed .ruleslab-note { font-size: .9em; color: #57606a; }
.ruleslab-embed button.ruleslab-start { align-self: flex-start; font: inherit; cursor: pointer;
  padding: .35em 1em; border-radius: 4px; border: 1px solid #2e7d32; background: #2e7d32; color: #fff; }
.ruleslab-embed .ruleslab-card.ruleslab-error { border-color: #b00020; color: #b00020; }
.ruleslab-dark .ruleslab-card { background: #1e2227; color: #e6e6e6; border-color: #3d444d; }
.ruleslab-dark .ruleslab-note { color: #a8b0b9; }
.ruleslab-dark .ruleslab-card.ruleslab-error { border-color: #ff6b81; color: #ff6b81; }
@media (prefers-color-scheme: dark) {
  .ruleslab-auto .ruleslab-card { background: #1e2227; color: #e6e6e6; border-color: #3d444d; }
  .ruleslab-auto .ruleslab-note { color: #a8b0b9; }
  .ruleslab-auto .ruleslab-card.ruleslab-error { border-color: #ff6b81; color: #ff6b81; }
}`;

  function addStyle() {
    if (document.getElementById("ruleslab-embed-style")) return;
    const style = document.createElement("style");
    style.id = "ruleslab-embed-style";
    style.textContent = STYLE;
    (document.head || document.documentElement).appendChild(style);
  }

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  /** The card shown in place of the calculator: its title and a note (or an error). */
  function card(embed, title, note, error) {
    const box = el("div", "ruleslab-card" + (error ? " ruleslab-error" : ""));
    box.setAttribute("role", error ? "alert" : "group");
    box.appendChild(el("div", "ruleslab-title", title));
    const line = el("div", "ruleslab-note", note);
    box.appendChild(line);
    if (embed) {
      embed.note = line;
      if (embed.fixed) box.style.height = embed.fixed + "px";
    }
    return box;
  }

  function fail(node, text) {
    node.replaceChildren(card(null, "ruleslab: this calculator cannot be shown", text, true));
    node.setAttribute("data-ruleslab-state", "error");
  }

  /** Read one element's attributes into an embed, or say what is wrong in it. */
  function read(node) {
    const key = (node.getAttribute("data-ruleslab") || "").trim();
    if (!has(TITLES, key)) {
      const known = Object.keys(TITLES).join(", ");
      fail(
        node,
        (key ? "There is no calculator “" + key + "”." : "data-ruleslab names no calculator.") +
          " data-ruleslab takes one of: " + known + ".",
      );
      return null;
    }
    const start = (node.getAttribute("data-start") || "visible").trim().toLowerCase();
    if (START.indexOf(start) < 0) {
      fail(node, "data-start is “" + start + "”: it takes “visible” (the default) or “click”.");
      return null;
    }
    const heightText = (node.getAttribute("data-height") || "auto").trim().toLowerCase();
    let fixed = 0;
    if (heightText !== "auto") {
      const m = /^(\d+)(px)?$/.exec(heightText);
      fixed = m ? Number(m[1]) : NaN;
      if (!(fixed >= MIN_HEIGHT && fixed <= MAX_HEIGHT)) {
        fail(
          node,
          "data-height is “" + heightText + "”: it takes “auto” (the default: the " +
            "calculator's own height) or a height in pixels from " + MIN_HEIGHT + " to " +
            MAX_HEIGHT + ".",
        );
        return null;
      }
    }
    const query = new URLSearchParams();
    query.append("calculator", key);
    for (const attr of Array.from(node.attributes)) {
      if (attr.name.indexOf("data-") !== 0) continue;
      const name = attr.name.slice(5);
      if (OWN.indexOf(name) >= 0 || name.indexOf("ruleslab") === 0) continue;
      if (PAGE.indexOf(name) >= 0) {
        // (as the Sphinx directive: the app page reads these itself, never as an input)
        fail(
          node,
          "data-" + name + " is not an input: the embed sets “" + name + "” itself. " +
            "Inputs are the calculator's field names (the names its Copy link shows).",
        );
        return null;
      }
      query.append(name, attr.value);
    }
    const theme = node.getAttribute("data-theme");
    if (theme) query.append("theme", theme.trim());
    // the GM's party (kept by the site) only where the embedding page asks for it
    if ((node.getAttribute("data-party") || "").trim().toLowerCase() === "yes") {
      query.append("party", "yes");
    }
    const id = "ruleslab-" + ++count;
    query.append("embed", id);
    return {
      id: id,
      node: node,
      key: key,
      title: TITLES[key],
      click: start === "click",
      fixed: fixed,
      src: new URL("app.html?" + query.toString(), BASE).href,
      iframe: null,
      shown: null, // the pre-rendered results, until the calculator is ready
      note: null,
      seen: null,
    };
  }

  function startButton(embed) {
    const button = el("button", "ruleslab-start", "Start the calculator");
    button.type = "button";
    button.addEventListener("click", function () {
      button.disabled = true;
      ask(embed);
    });
    return button;
  }

  function setup(node) {
    if (node.hasAttribute("data-ruleslab-state")) return;
    node.classList.add("ruleslab-embed");
    const theme = (node.getAttribute("data-theme") || "").trim().toLowerCase();
    node.classList.add(theme === "dark" ? "ruleslab-dark" : theme === "light" ? "ruleslab-light" : "ruleslab-auto");
    const embed = read(node);
    if (!embed) return;
    node.setAttribute("data-ruleslab-state", "waiting");
    // pre-rendered results (the Sphinx directive, the MkDocs hook): shown until it is ready
    const shown = node.querySelector(":scope > .ruleslab-static");
    if (shown) {
      embed.shown = shown;
      const line = el("div", "ruleslab-note", embed.click ? "" : LATER);
      embed.note = line;
      const parts = [shown, line];
      if (embed.click) parts.push(startButton(embed));
      node.replaceChildren.apply(node, parts);
      if (embed.click) return;
    } else if (embed.click) {
      const box = card(embed, embed.title, "A ruleslab calculator. It runs Python in your browser: " +
        "a few seconds to start, nothing you enter leaves the page.");
      box.appendChild(startButton(embed));
      node.replaceChildren(box);
      return;
    }
    if (!shown) node.replaceChildren(card(embed, embed.title, LATER));
    if (typeof IntersectionObserver !== "function") {
      ask(embed);
      return;
    }
    // near the viewport (within 200 px) counts as in view; leaving it before its
    // turn takes the embed out of the queue again
    embed.seen = new IntersectionObserver(
      function (entries) {
        if (entries[entries.length - 1].isIntersecting) ask(embed);
        else drop(embed);
      },
      { rootMargin: "200px 0px" },
    );
    embed.seen.observe(node);
  }

  /** Queue `embed` to start; the queue moves on at the next turn of the event loop, so
   * embeds that come into view together start in page order. */
  function ask(embed) {
    if (embed.iframe || waiting.indexOf(embed) >= 0) return;
    waiting.push(embed);
    if (!room()) embed.note.textContent = WAITING;
    else setTimeout(next, 0);
  }

  function drop(embed) {
    const at = waiting.indexOf(embed);
    if (at < 0) return;
    waiting.splice(at, 1);
    embed.note.textContent = LATER;
  }

  function begin(embed) {
    if (embed.seen) embed.seen.disconnect();
    starting.set(
      embed,
      setTimeout(function () {
        done(embed);
      }, WAIT_MS),
    );
    const frame = document.createElement("iframe");
    frame.title = embed.title;
    frame.setAttribute("allow", "clipboard-write"); // the calculator's "Copy link"
    const placeholder = embed.shown || embed.node.firstChild;
    frame.style.height = (embed.fixed || (placeholder && placeholder.offsetHeight) || 160) + "px";
    if (!embed.fixed) frame.setAttribute("scrolling", "no"); // its height is the content's
    embed.iframe = frame;
    if (embed.shown) {
      // drawn unseen over the pre-rendered results, which stay until it is ready
      embed.node.style.position = "relative";
      frame.style.position = "absolute";
      frame.style.left = "0";
      frame.style.top = "0";
      frame.style.opacity = "0"; // (not hidden: a hidden frame's page is paused)
      frame.style.pointerEvents = "none";
      embed.node.replaceChildren(embed.shown, frame);
    } else embed.node.replaceChildren(frame);
    embed.node.setAttribute("data-ruleslab-state", "starting");
    byWindow.set(frame.contentWindow, embed);
    frame.src = embed.src;
  }

  /** Within 200 px of the viewport (as the IntersectionObserver's margin). */
  function near(embed) {
    const box = embed.node.getBoundingClientRect();
    return box.bottom >= -200 && box.top <= window.innerHeight + 200;
  }

  /** `embed` is drawn (or failed, or timed out): the next one may start. */
  function done(embed) {
    if (!starting.has(embed)) return;
    clearTimeout(starting.get(embed));
    starting.delete(embed);
    next();
  }

  /** Start the next embeds asked for that are still wanted, as many as there is room
   * for: the clicked ones first, in the order clicked, then those near the view in page
   * order (the one just drawn may have pushed some away: they start when scrolled to
   * again). */
  function next() {
    if (!room()) return;
    const clicked = waiting.filter(function (e) {
      return e.click;
    });
    const seen = waiting.filter(function (e) {
      return !e.click;
    });
    seen.sort(function (a, b) {
      return a.node.compareDocumentPosition(b.node) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
    });
    waiting.length = 0;
    const order = clicked.concat(seen);
    while (order.length) {
      const embed = order.shift();
      if (embed.click || near(embed)) {
        begin(embed);
        if (room()) continue;
        order.forEach(function (e) {
          e.note.textContent = WAITING;
          waiting.push(e);
        });
        return;
      }
      embed.note.textContent = LATER;
    }
  }

  window.addEventListener("message", function (event) {
    if (event.origin !== BASE.origin) return;
    const embed = byWindow.get(event.source);
    const m = event.data;
    if (!embed || !m || typeof m !== "object" || m.id !== embed.id) return;
    if (m.type === "ruleslab:runtime") {
      // the shared Python (its frame could reach it): the next ones need not wait for it
      if (m.mode === "shared" && !shared) {
        shared = true;
        next();
      }
    } else if (m.type === "ruleslab:height") {
      const h = Number(m.height);
      if (!embed.fixed && isFinite(h) && h >= 0) {
        embed.iframe.style.height = Math.min(Math.ceil(h), 100000) + "px";
      }
    } else if (m.type === "ruleslab:ready") {
      if (embed.shown) {
        embed.shown.remove();
        embed.shown = null;
        embed.iframe.style.position = "";
        embed.iframe.style.opacity = "";
        embed.iframe.style.pointerEvents = "";
        embed.node.style.position = "";
      }
      embed.node.setAttribute("data-ruleslab-state", m.ok ? "ready" : "failed");
      done(embed);
    }
  });

  function scan(root) {
    addStyle();
    (root || document).querySelectorAll("[data-ruleslab]").forEach(setup);
  }

  window.ruleslabEmbed = { base: BASE.href, scan: scan };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { scan(); });
  else scan();
})();
