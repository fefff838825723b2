/* cookbook preview: draws the page's mermaid diagrams with the mermaid script loaded before this one.
   Each <pre class="cb-mermaid"> holding a diagram's source is replaced by a <div class="cb-mermaid-drawing">
   holding its SVG (in the page's own DOM, so the stylesheet can colour the classes the diagram names).
   Without the script (a `mermaid:` URL that cannot be reached) the source stays as text. When every
   diagram is done, <html> gets data-cb-mermaid="done". */
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

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(() => draw(document));  // Material's page loads, instant navigation included
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", () => draw(document));
  } else {
    draw(document);
  }
})();
