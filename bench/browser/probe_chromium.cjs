// Loads probe.html from the site served at argv[2] in headless Chromium; prints window.probe as JSON, and
// the requests that went anywhere but the site (there must be none: nothing comes from a CDN).
const { chromium } = require("playwright-core");

(async () => {
  const site = process.argv[2];
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const page = await browser.newPage();
    const outside = [];
    page.on("request", (request) => { if (!request.url().startsWith(site)) outside.push(request.url()); });
    await page.goto(site + "/probe.html");
    await page.waitForFunction(() => window.probe && window.probe.done, null, { timeout: 600000 });
    const probe = await page.evaluate(() => window.probe);
    probe.requests_outside_site = outside;
    console.log(JSON.stringify(probe));
  } finally {
    await browser.close();
  }
})();
