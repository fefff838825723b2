/* cookbook live pages: the one interface between a page's Run / Step / Play all buttons (preview.js) and
   whatever runs the page's cells (ADR-0090).

     window.cookbookLive.backend = { async request(pageId, request) -> response }
     window.cookbookLive.pageId()  -> the open page's id (its path in the docs folder), or null

   request, a JSON-ready object:
     {op: "run", cell: NAME, statement?: TEXT, params?: JSON TEXT}  run cell NAME (edited: statement and
                                   params given) on the database the page's cells before it build
     {op: "step", trace: NAME}     send the trace's next call; {op: "play", trace: NAME} the rest of them,
                                   on the store the cells build up to the trace's starting cell
     {op: "reset"}                 empty the page's database
   response:
     {ok, block: the result as recorded-block text, html: that block as the preview renders recorded
      blocks, same: whether it equals the recording, diff: the runner's failure text or null,
      error: null or {message, line, column} (the page's line and column), and for a trace
      step: calls sent so far, steps: the trace's number of calls}
   The backend is `runner.live.LiveSession.handle` wherever it runs.

   This file installs the local preview's backend: under `mkdocs serve` the page carries
   <div class="cb-live-page" data-page=… data-endpoint=… data-token=…>, and request() posts
   {page, tab, request} to that loopback endpoint (runner/live_endpoint.py), `tab` keeping one session
   per opened page. A site that runs the engine in the browser sets window.cookbookLive.backend itself,
   before or after this file: a backend already set is kept. Without a backend the page shows no buttons. */
(function () {
  "use strict";
  const live = (window.cookbookLive = window.cookbookLive || {});
  const tab = (window.crypto && window.crypto.randomUUID)
    ? window.crypto.randomUUID() : String(Math.random()).slice(2) + String(Date.now());

  function element() {
    return document.querySelector(".cb-live-page[data-page]");
  }

  live.pageId = live.pageId || function () {
    const found = element();
    return found ? found.dataset.page : null;
  };

  const local = {
    async request(pageId, request) {
      const found = element();
      if (!found || !found.dataset.endpoint) throw new Error("this page has no live endpoint");
      const answer = await fetch(found.dataset.endpoint, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Cookbook-Live": found.dataset.token },
        body: JSON.stringify({ page: pageId, tab: tab, request: request }),
      });
      const body = await answer.json();
      if (!answer.ok) throw new Error(body.error || `the live endpoint answered ${answer.status}`);
      return body;
    },
  };

  /* Sets the local backend when the open page has an endpoint and no other backend is set; preview.js
     calls it again on each page Material's instant navigation loads. */
  live.install = function () {
    const found = element();
    if (!live.backend && found && found.dataset.endpoint) live.backend = local;
  };
  live.install();
})();
