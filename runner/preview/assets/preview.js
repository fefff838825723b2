/* cookbook preview: draws the page's mermaid diagrams with the mermaid script loaded before this one.
   Each <pre class="cb-mermaid"> holding a diagram's source is replaced by a <div class="cb-mermaid-drawing">
   holding its SVG (in the page's own DOM, so the stylesheet can colour the classes the diagram names).
   Without the script (a `mermaid:` URL that cannot be reached) the source stays as text. When every
   diagram is done, <html> gets data-cb-mermaid="done".

   Live pages: when window.cookbookLive.backend is set (live.js documents it), each cell gets Run and an
   editable copy of its statement and parameters (reset to the page's text), each trace Step and Play
   all, and the card a button that empties the page's database. A result shows under the buttons as the
   backend rendered it (the recorded blocks' renderers), with the diff when it differs from the
   recording; its panel's data-live says "same", "differs" or "error" (and data-step how many calls a
   trace sent). When the buttons are in place, <html> gets data-cb-live="ready". */
(function () {
  "use strict";
  let drawn = 0;
  let initialised = false;

  function theme() {
    return document.body && document.body.getAttribute("data-md-color-scheme") === "slate" ? "dark" : "default";
  }

  async function draw(root) {
    const blocks = Array.from(root.querySelectorAll("pre.cb-mermaid:not([data-cb-state])"));
    if (typeof window.mermaid === "undefined" || window.mermaid instanceof Element) {
      blocks.forEach((block) => block.setAttribute("data-cb-state", "no-script"));
      document.documentElement.setAttribute("data-cb-mermaid", "no-script");
      return;
    }
    if (!initialised) {
      window.mermaid.initialize({ startOnLoad: false, theme: theme(), securityLevel: "strict" });
      initialised = true;
    }
    for (const block of blocks) {
      block.setAttribute("data-cb-state", "drawing");
      try {
        const { svg, bindFunctions } = await window.mermaid.render(`cb-mermaid-${drawn++}`, block.textContent);
        const figure = document.createElement("div");
        figure.className = "cb-mermaid-drawing";
        figure.innerHTML = svg;
        if (bindFunctions) bindFunctions(figure);
        block.replaceWith(figure);
      } catch (error) {
        block.setAttribute("data-cb-state", "failed");
        block.title = String(error && error.message ? error.message : error);
      }
    }
    document.documentElement.setAttribute("data-cb-mermaid", "done");
  }

  // -- live pages ---------------------------------------------------------------------------------------

  function make(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function button(text, className, action) {
    const node = make("button", `cb-live-button ${className}`, text);
    node.type = "button";
    node.addEventListener("click", action);
    return node;
  }

  function codeText(root) {
    const code = root && root.querySelector(".highlight code, .highlight pre");
    return code ? code.textContent : "";
  }

  function diffNode(text) {
    const pre = make("pre", "cb-diff");
    for (const line of text.replace(/\n$/, "").split("\n")) {
      let css = "cb-diff-text";
      if (line.startsWith("+++") || line.startsWith("---")) css = "cb-diff-file";
      else if (line.startsWith("@@")) css = "cb-diff-hunk";
      else if (line.startsWith("+")) css = "cb-diff-add";
      else if (line.startsWith("-")) css = "cb-diff-del";
      pre.appendChild(make("span", css, line));
    }
    return pre;
  }

  function show(panel, response, note) {
    const output = panel.querySelector(".cb-live-output");
    const state = panel.querySelector(".cb-live-state");
    output.replaceChildren();
    if (!response.ok) {
      const where = response.error && response.error.line
        ? ` (line ${response.error.line}${response.error.column ? `, column ${response.error.column}` : ""})` : "";
      output.appendChild(make("pre", "cb-error", (response.error ? response.error.message : "failed") + where));
      panel.dataset.live = "error";
      state.textContent = "error";
      return;
    }
    panel.dataset.live = response.same ? "same" : "differs";
    if (response.step !== undefined) panel.dataset.step = String(response.step);
    const progress = response.step !== undefined ? `step ${response.step} of ${response.steps} · ` : "";
    state.textContent = progress + (response.same ? "same as the recording" : "differs from the recording") +
      (note || "");
    const result = make("div", "cb-live-result");
    result.innerHTML = response.html;  // the backend's rendering of the block, escaped there
    output.appendChild(result);
    if (response.diff) {
      const drift = make("details", "cb-drift");
      drift.open = true;
      drift.appendChild(make("summary", "", "Differs: the recording (−) against this run (+)"));
      drift.appendChild(diffNode(response.diff));
      output.appendChild(drift);
    }
  }

  async function send(panel, request, note) {
    const backend = window.cookbookLive.backend;
    const buttons = panel.querySelectorAll("button");
    buttons.forEach((node) => { node.disabled = true; });
    panel.dataset.busy = "true";
    try {
      const response = await backend.request(window.cookbookLive.pageId(), request);
      show(panel, response, response.step !== undefined && response.step === response.steps ? note : "");
      return response;
    } catch (error) {
      show(panel, { ok: false, error: { message: String(error && error.message ? error.message : error) } });
      return null;
    } finally {
      buttons.forEach((node) => { node.disabled = false; });
      delete panel.dataset.busy;
    }
  }

  function cellPanel(cell) {
    const name = cell.dataset.cell;
    const panel = make("div", "cb-live");
    const bar = make("div", "cb-live-bar");
    const editor = make("div", "cb-live-edit");
    editor.hidden = true;
    const statement = make("textarea", "cb-live-statement");
    statement.spellcheck = false;
    const original = codeText(cell);
    statement.value = original;
    statement.rows = Math.min(20, original.split("\n").length + 1);
    editor.appendChild(make("div", "cb-cell-kind", "statement"));
    editor.appendChild(statement);
    const link = cell.querySelector(".cb-cell-params a[href^='#data-']");
    const data = link ? document.getElementById(link.getAttribute("href").slice(1)) : null;
    const originalParams = data ? codeText(data) : "";
    const params = make("textarea", "cb-live-params");
    params.spellcheck = false;
    params.value = originalParams;
    params.rows = Math.min(12, originalParams.split("\n").length + 1);
    if (data) {
      editor.appendChild(make("div", "cb-cell-kind", "parameters"));
      editor.appendChild(params);
    }
    editor.appendChild(button("Reset to the page's text", "cb-live-reset-text", () => {
      statement.value = original;
      params.value = originalParams;
    }));
    const runIt = () => {
      const request = { op: "run", cell: name };
      if (statement.value !== original) request.statement = statement.value;
      if (data && params.value !== originalParams) request.params = params.value;
      return send(panel, request);
    };
    for (const area of [statement, params]) {  // Ctrl+Enter (⌘+Enter) in the editor runs the cell
      area.addEventListener("keydown", (event) => {
        if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && !panel.dataset.busy) {
          event.preventDefault();
          runIt();
        }
      });
    }
    bar.appendChild(button("Run", "cb-live-run", runIt));
    bar.appendChild(button("Edit", "cb-live-edit-toggle", () => { editor.hidden = !editor.hidden; }));
    bar.appendChild(make("span", "cb-live-state"));
    panel.append(bar, editor, make("div", "cb-live-output"));
    return panel;
  }

  function tracePanel(trace) {
    const name = trace.dataset.cell;
    const panel = make("div", "cb-live");
    const bar = make("div", "cb-live-bar");
    const ended = " · the trace ended: the database is emptied";
    bar.appendChild(button("Step", "cb-live-step", () => send(panel, { op: "step", trace: name }, ended)));
    bar.appendChild(button("Play all", "cb-live-play", () => send(panel, { op: "play", trace: name }, ended)));
    bar.appendChild(make("span", "cb-live-state"));
    panel.append(bar, make("div", "cb-live-output"));
    return panel;
  }

  function resetPanel() {
    const panel = make("div", "cb-live cb-live-page-bar");
    const bar = make("div", "cb-live-bar");
    bar.appendChild(button("Reset the page's database", "cb-live-reset", async () => {
      const response = await send(panel, { op: "reset" });
      if (response && response.ok) {
        document.querySelectorAll(".cb-live:not(.cb-live-page-bar)").forEach((other) => {
          other.querySelector(".cb-live-output").replaceChildren();
          other.querySelector(".cb-live-state").textContent = "";
          delete other.dataset.live;
          delete other.dataset.step;
        });
        panel.querySelector(".cb-live-state").textContent = "emptied";
      }
    }));
    bar.appendChild(make("span", "cb-live-state"));
    panel.append(bar, make("div", "cb-live-output"));
    return panel;
  }

  function liven(root) {
    const live = window.cookbookLive;
    if (live && live.install) live.install();
    if (!live || !live.backend || !live.pageId || !live.pageId()) return;
    for (const cell of root.querySelectorAll(".cb-cell[data-cell]")) {
      if (cell.querySelector(":scope > .cb-live")) continue;
      const trace = cell.classList.contains("cb-trace");
      const panel = trace ? tracePanel(cell) : cellPanel(cell);
      const anchor = trace ? cell.querySelector(":scope > .cb-result--trace")
        : cell.querySelector(":scope > .highlight");
      if (anchor) anchor.after(panel); else cell.appendChild(panel);
    }
    const card = root.querySelector(".cb-card");
    if (card && !card.querySelector(".cb-live-page-bar")) card.appendChild(resetPanel());
    document.documentElement.setAttribute("data-cb-live", "ready");
  }

  function load() {
    liven(document);
    return draw(document);
  }

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(load);  // Material's page loads, instant navigation included
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", load);
  } else {
    load();
  }
})();
