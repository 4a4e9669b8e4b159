// cetune annotate: the block column, the page list and the keys. Talks to the server with the
// session token; the page itself is shown in a sandboxed frame without scripts, highlighted by
// moving its URL's fragment to the block (the frame's stylesheet marks the :target block).
(function () {
  "use strict";
  const token = document.body.dataset.token;
  const $ = (id) => document.getElementById(id);
  let pages = [];
  let cur = -1;       // index in pages
  let blocks = [];    // {text, keep, prefill, words}
  let at = 0;         // current block
  let mark = null;    // range anchor
  let undo = [];
  const drafts = {};  // id -> keep[] of pages left unsaved
  const fieldDrafts = {};  // id -> {title, author, date, comments} left unsaved
  const FIELDS = ["title", "author", "date", "comments"];

  function readFields() {
    const f = {};
    FIELDS.forEach((n) => { f[n] = $("f-" + n).value; });
    return f;
  }
  function showFields(f, posts) {
    FIELDS.forEach((n) => { $("f-" + n).value = f[n] || ""; $("f-" + n).classList.remove("bad"); });
    const div = $("posts");
    div.textContent = "";
    (posts || []).forEach((p, k) => {
      const line = document.createElement("div");
      line.textContent = "post " + (k + 1) + ": " + [p.title, p.author, p.date].filter((x) => x).join(" · ");
      div.appendChild(line);
    });
  }

  function api(path, opts) {
    const sep = path.includes("?") ? "&" : "?";
    return fetch(path + sep + "t=" + encodeURIComponent(token), opts);
  }
  function status(msg) { $("status").textContent = msg; }

  async function loadPages() {
    const r = await api("/api/pages");
    const d = await r.json();
    pages = d.pages;
    $("setname").textContent = d.name || "";
    $("prefill").textContent = "pre-fill: " + d.prefill;
    $("progress").textContent = d.saved + " / " + pages.length + " saved";
    const ol = $("pagelist");
    ol.textContent = "";
    pages.forEach((p, i) => {
      const li = document.createElement("li");
      li.textContent = p.id;
      li.className = p.state.replace(" ", "-") + (i === cur ? " cur" : "");
      li.title = p.state;
      li.dataset.id = p.id;
      li.addEventListener("click", () => openPage(i));
      ol.appendChild(li);
    });
    const errs = $("errors");
    errs.textContent = "";
    d.errors.forEach((e) => {
      const div = document.createElement("div");
      div.textContent = "skipped " + e.id + ": " + e.error;
      errs.appendChild(div);
    });
  }

  async function openPage(i) {
    if (i < 0 || i >= pages.length) return;
    if (cur >= 0 && blocks.length) {
      drafts[pages[cur].id] = blocks.map((b) => b.keep);
      fieldDrafts[pages[cur].id] = readFields();
    }
    cur = i;
    const id = pages[i].id;
    status("loading " + id);
    const r = await api("/api/page?id=" + encodeURIComponent(id));
    const d = await r.json();
    if (!r.ok) { status(id + ": " + (d.error || r.status)); return; }
    blocks = d.blocks;
    if (drafts[id]) drafts[id].forEach((k, j) => { if (blocks[j]) blocks[j].keep = k; });
    showFields(fieldDrafts[id] || d.fields || {}, d.posts);
    at = 0; mark = null; undo = [];
    $("pageid").textContent = id;
    $("confirm").hidden = true;
    const frame = $("frame");
    frame.dataset.base = "/frame?id=" + encodeURIComponent(id) + "&t=" + encodeURIComponent(token);
    frame.src = frame.dataset.base;
    render();
    await loadPages();
    status(d.from === "gold" ? "showing the saved gold text" : "pre-filled by " + d.prefill);
  }

  function render() {
    const ol = $("blocks");
    ol.textContent = "";
    blocks.forEach((b, j) => {
      const li = document.createElement("li");
      li.textContent = b.text;
      li.dataset.i = j;
      ol.appendChild(li);
      li.addEventListener("click", (ev) => {
        if (ev.shiftKey && mark !== null) { at = j; toggleRange(); } else { at = j; mark = j; toggle(); }
      });
      li.addEventListener("mouseenter", () => highlight(j));
    });
    paint();
  }

  function paint() {
    const items = $("blocks").children;
    let kept = 0;
    blocks.forEach((b, j) => {
      const li = items[j];
      li.className = (b.keep ? "keep" : "drop") + (j === at ? " cur" : "") + (j === mark ? " mark" : "") +
        (b.keep !== b.prefill ? " changed" : "");
      if (b.keep) kept++;
    });
    $("counts").textContent = kept + " of " + blocks.length + " blocks kept";
  }

  function highlight(j) {
    const frame = $("frame");
    if (frame.dataset.base) frame.src = frame.dataset.base + "#b" + j;
  }

  function move(d) {
    if (!blocks.length) return;
    at = Math.max(0, Math.min(blocks.length - 1, at + d));
    paint();
    const li = $("blocks").children[at];
    if (li) li.scrollIntoView({ block: "nearest" });
    highlight(at);
  }

  function remember() { undo.push(blocks.map((b) => b.keep)); if (undo.length > 500) undo.shift(); }
  function toggle() {
    if (!blocks.length) return;
    remember();
    blocks[at].keep = !blocks[at].keep;
    paint();
  }
  function toggleRange() {
    if (!blocks.length) return;
    const from = mark === null ? at : mark;
    const [a, b] = from < at ? [from, at] : [at, from];
    remember();
    for (let j = a; j <= b; j++) blocks[j].keep = !blocks[j].keep;
    paint();
  }
  function doUndo() {
    const prev = undo.pop();
    if (!prev) { status("nothing to undo"); return; }
    prev.forEach((k, j) => { blocks[j].keep = k; });
    paint();
  }

  async function save(confirm) {
    if (cur < 0) return;
    const id = pages[cur].id;
    const r = await api("/api/save", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Cetune-Token": token },
      body: JSON.stringify({ id: id, keep: blocks.map((b) => b.keep), fields: readFields(), confirm: !!confirm }),
    });
    if (r.status === 409) {
      $("confirm").hidden = false;
      status("not saved: a gold text exists");
      return;
    }
    const text = await r.text();
    $("f-date").classList.toggle("bad", !r.ok && text.includes("'date'"));
    if (!r.ok) { status("not saved: " + text); return; }
    const d = JSON.parse(text);
    $("confirm").hidden = true;
    delete drafts[id];
    delete fieldDrafts[id];
    status("saved " + d.saved + " (" + d.words + " words)");
    await loadPages();
  }

  document.addEventListener("keydown", (ev) => {
    if (ev.target && (ev.target.tagName === "INPUT" || ev.target.tagName === "TEXTAREA")) return;
    const k = ev.key;
    if ((ev.ctrlKey || ev.metaKey) && (k === "s" || k === "z")) {
      ev.preventDefault();
      if (k === "s") save(false); else doUndo();
      return;
    }
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    switch (k) {
      case "j": case "ArrowDown": move(1); break;
      case "k": case "ArrowUp": move(-1); break;
      case " ": case "x": toggle(); break;
      case "m": mark = at; paint(); break;
      case "r": toggleRange(); break;
      case "u": doUndo(); break;
      case "s": save(false); break;
      case "n": openPage(cur + 1); break;
      case "p": openPage(cur - 1); break;
      default: return;
    }
    ev.preventDefault();
  });
  // Enter in a field must not submit (and reload) the form.
  $("fields").addEventListener("submit", (ev) => ev.preventDefault());
  $("save").addEventListener("click", () => save(false));
  $("undo").addEventListener("click", doUndo);
  $("next").addEventListener("click", () => openPage(cur + 1));
  $("overwrite").addEventListener("click", () => save(true));
  $("cancel").addEventListener("click", () => { $("confirm").hidden = true; status("not saved"); });

  loadPages().then(() => {
    const first = pages.findIndex((p) => p.state !== "saved");
    openPage(first < 0 ? 0 : first);
  });
})();
