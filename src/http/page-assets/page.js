// The public pages' script, served from this server (the pages' policy runs
// no other): it shows the copy buttons and makes them copy, writes the
// snippets' root-relative URLs (PENNANT_PUBLIC_URL unset) as absolute ones
// of the address this page was read at, and once a minute, while the page
// is seen, fetches it again and puts its new content in place. Without it
// the page is complete: everything it shows is in the HTML.
"use strict";

(() => {
  const REFRESH_MS = 60_000;
  const origin = window.location.origin;

  /** Root-relative URLs in the snippets, made absolute. */
  function absoluteUrls(root) {
    for (const code of root.querySelectorAll("[data-url-text]")) {
      code.textContent = code.textContent.replace(/(^|[\s"'(=\]])\/(s|n|api|shields)\//g, (_, before, path) => `${before}${origin}/${path}/`);
    }
  }

  function copyButtons(root) {
    for (const button of root.querySelectorAll("button.copy[data-copy]")) {
      button.hidden = false;
      button.addEventListener("click", async () => {
        const target = document.getElementById(button.dataset.copy);
        if (!target) return;
        try {
          await navigator.clipboard.writeText(target.textContent);
          button.textContent = "Copied";
          button.classList.add("done");
        } catch {
          // No clipboard (an insecure origin): the text is selected for the reader to copy.
          const range = document.createRange();
          range.selectNodeContents(target);
          const selection = window.getSelection();
          selection.removeAllRanges();
          selection.addRange(range);
          button.textContent = "Selected";
        }
        setTimeout(() => {
          button.textContent = "Copy";
          button.classList.remove("done");
        }, 2000);
      });
    }
  }

  function prepare(root) {
    absoluteUrls(root);
    copyButtons(root);
  }

  const inlineStyles = (doc) => [...doc.querySelectorAll("head style")].map((style) => style.textContent).join("");
  let shown = null;

  async function refresh() {
    if (document.visibilityState !== "visible") return;
    let response;
    try {
      response = await fetch(window.location.href, { cache: "no-cache", headers: { Accept: "text/html" } });
    } catch {
      return;
    }
    // Gone (switched off): the reload shows the plain 404.
    if (response.status === 404) return window.location.reload();
    if (!response.ok) return;
    const text = await response.text();
    if (text === shown) return;
    const first = shown === null;
    shown = text;
    const fresh = new DOMParser().parseFromString(text, "text/html");
    // New MOTD colours need a <style> the page's policy does not name yet: only a reload brings it.
    if (inlineStyles(fresh) !== inlineStyles(document)) return window.location.reload();
    const next = fresh.querySelector("main");
    const current = document.querySelector("main");
    if (!next || !current || first) return;
    const open = [...current.querySelectorAll("details")].map((details) => details.open);
    current.replaceWith(next);
    next.querySelectorAll("details").forEach((details, i) => {
      if (open[i] !== undefined) details.open = open[i];
    });
    prepare(next);
  }

  prepare(document);
  // The first fetch only learns what the page is now (the browser's cache answers it with a 304 when unchanged).
  refresh();
  setInterval(refresh, REFRESH_MS);
})();
