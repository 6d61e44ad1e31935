// The owner's console: asks for an API token, keeps it in this tab's
// sessionStorage only (never localStorage, a cookie or an address), signs
// every request to the signed API in the browser with Web Crypto's
// HMAC-SHA256 exactly as a plugin signs (docs/signed-api.md: method, path
// and query, X-Timestamp and body, X-Signature-Version: 2), and shows what
// the answers hold. Admin requests are signed the same way with the admin
// token, which is never sent. Every text from the server is written with
// textContent: names, MOTDs and URLs are never read as markup. Plain browser
// JavaScript, served as it is (src/http/console-route.ts).
"use strict";

(() => {
  const TOKEN_KEY = "pennant.console.token";
  const ADMIN_KEY = "pennant.console.admin";
  const RANGES = [["24h", "24 h"], ["7d", "7 days"], ["30d", "30 days"], ["1y", "1 year"]];
  const EVENTS = ["offline", "online", "players_record"];
  const FORMATS = ["json", "discord", "discord-live"];
  const SCOPES = ["all", "server", "plugin"];
  const origin = window.location.origin;
  const $ = (id) => document.getElementById(id);
  const encoder = new TextEncoder();

  /** An element with attributes (a value of false or null leaves one out; `on*` listens) and children (text is text, never markup). */
  function el(tag, attributes = {}, ...children) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value === false || value === null || value === undefined) continue;
      if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
      else if (name === "text") element.textContent = value;
      else element.setAttribute(name, value === true ? "" : String(value));
    }
    element.append(...nodesOf(children));
    return element;
  }

  /** Children as the DOM takes them: lists flattened, nothing for null, undefined and false. */
  const nodesOf = (children) => children.flat(Infinity).filter((child) => child !== null && child !== undefined && child !== false);

  /** `node` holding `children` in place of what it held. */
  function fill(node, ...children) {
    node.replaceChildren(...nodesOf(children));
  }

  // ---- Time and words ----

  const pad = (n) => String(n).padStart(2, "0");
  function utc(iso) {
    const d = new Date(iso);
    return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
  }
  function ago(iso) {
    const seconds = Math.max(0, Math.round((Date.now() + clockOffsetMs - Date.parse(iso)) / 1000));
    if (seconds < 60) return "just now";
    for (const [unit, size] of [["day", 86400], ["hour", 3600], ["minute", 60]]) {
      if (seconds >= size) {
        const n = Math.floor(seconds / size);
        return `${n} ${unit}${n === 1 ? "" : "s"} ago`;
      }
    }
    return "just now";
  }
  const timeText = (iso) => el("time", { datetime: iso, title: utc(iso), text: ago(iso) });
  const percent = (fraction) => (fraction === null ? "–" : `${(Math.floor(fraction * 1000) / 10).toFixed(1)} %`);
  const playersText = (players) => (players ? `${players.online} / ${players.max}` : "–");
  /** Root-relative addresses (PENNANT_PUBLIC_URL unset) made absolute, as the public pages' script writes them. */
  const absolute = (text) => text.replace(/(^|[\s"'(=\]])\/(s|n|api|shields)\//g, (_, before, path) => `${before}${origin}/${path}/`);

  // ---- Signing ----

  /** Milliseconds to add to this machine's clock to read the server's (learnt from a refused timestamp). */
  let clockOffsetMs = 0;

  class ApiError extends Error {
    constructor(status, code, message) {
      super(message);
      this.status = status;
      this.code = code;
    }
  }

  async function hmacHex(key, message) {
    const cryptoKey = await crypto.subtle.importKey("raw", encoder.encode(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, encoder.encode(message)));
    return Array.from(mac, (byte) => byte.toString(16).padStart(2, "0")).join("");
  }

  /**
   * A signed request: `target` is the path and query as sent; `as` "admin"
   * keys it with the admin token (not sent), else with the API token, sent
   * in `tokenHeader`. A timestamp the server finds too far from its clock is
   * signed again once with the server's time (its Date header).
   */
  async function signed(method, target, { body, serverUuid, tokenHeader = "X-Server-Token", as = "owner", raw = false, retried = false } = {}) {
    const key = sessionStorage.getItem(as === "admin" ? ADMIN_KEY : TOKEN_KEY);
    if (!key) throw new ApiError(401, "no_token", "no token");
    const text = body === undefined ? "" : JSON.stringify(body);
    const timestamp = String(Math.floor((Date.now() + clockOffsetMs) / 1000));
    const headers = {
      "X-Timestamp": timestamp,
      "X-Signature-Version": "2",
      "X-Signature": await hmacHex(key, `${method} ${target}\n${timestamp}.${text}`),
    };
    if (as !== "admin") headers[tokenHeader] = key;
    if (serverUuid) headers["X-Server-UUID"] = serverUuid;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(target, { method, headers, body: body === undefined ? undefined : text, cache: "no-store", credentials: "omit", referrerPolicy: "no-referrer" });
    if (response.ok) return raw ? response : response.json();
    let error = { code: "http_error", message: `${response.status} ${response.statusText}` };
    try {
      error = (await response.json()).error ?? error;
    } catch {
      // Not the JSON error shape (a proxy's page): the status says it.
    }
    const serverTime = Date.parse(response.headers.get("Date") ?? "");
    if (error.code === "stale_timestamp" && !retried && Number.isFinite(serverTime)) {
      clockOffsetMs = serverTime - Date.now();
      return signed(method, target, { body, serverUuid, tokenHeader, as, raw, retried: true });
    }
    throw new ApiError(response.status, error.code, error.message);
  }

  // ---- Status and copying ----

  let statusTimer;
  function say(message) {
    $("status").textContent = message;
    clearTimeout(statusTimer);
    statusTimer = setTimeout(() => ($("status").textContent = ""), 6000);
  }

  async function copy(text, button) {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied";
    } catch {
      button.textContent = "Select and copy";
    }
    setTimeout(() => (button.textContent = "Copy"), 2000);
  }
  const copyButton = (text, what) => el("button", { type: "button", class: "copy", "aria-label": `Copy ${what}`, text: "Copy", onclick: (event) => copy(text, event.currentTarget) });

  function snippetGroups(groups) {
    return groups.map((group, i) =>
      el("details", { open: i === 0 },
        el("summary", { text: group.title }),
        group.snippets.map((snippet) => {
          const text = absolute(snippet.text);
          return el("div", { class: "snippet" }, el("span", { class: "syntax", text: snippet.syntax }), el("pre", {}, el("code", { text })), copyButton(text, `${group.title}, ${snippet.syntax}`));
        }),
      ));
  }

  /** A chart fetched signed and shown from memory (blob:), its page on or off. */
  const chartUrls = new Set();
  function forgetCharts() {
    for (const url of chartUrls) URL.revokeObjectURL(url);
    chartUrls.clear();
  }
  async function showChart(img, uuid, range, size) {
    try {
      const response = await signed("GET", `/api/token/servers/${uuid}/chart.svg?range=${range}&size=${size}`, { raw: true });
      const url = URL.createObjectURL(await response.blob());
      chartUrls.add(url);
      img.src = url;
    } catch (error) {
      img.replaceWith(el("p", { class: "empty", text: `No chart: ${error.message}` }));
    }
  }

  /** Runs `task` for each item, a few at a time (each is one signed request). */
  async function few(items, task) {
    const queue = [...items];
    await Promise.all(Array.from({ length: 4 }, async () => {
      while (queue.length > 0) await task(queue.shift());
    }));
  }

  /** A button that runs `action` while disabled, and says what went wrong. */
  function actionButton(label, className, action, attributes = {}) {
    const button = el("button", { type: "button", class: className, text: label, ...attributes });
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        await action(button);
      } catch (error) {
        failed(error);
      } finally {
        button.disabled = false;
      }
    });
    return button;
  }

  // ---- Tokens ----

  const forgetButton = $("forget");
  function showForget() {
    forgetButton.hidden = !sessionStorage.getItem(TOKEN_KEY) && !sessionStorage.getItem(ADMIN_KEY);
  }
  forgetButton.addEventListener("click", () => {
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(ADMIN_KEY);
    forgetCharts();
    say("Both tokens forgotten.");
    render();
  });

  /** A refusal: a token Pennant does not take is forgotten, and its form asks again. */
  function failed(error, as = "owner") {
    if (error instanceof ApiError && (error.code === "unknown_token" || (as === "admin" && error.code === "bad_signature") || error.code === "no_token")) {
      sessionStorage.removeItem(as === "admin" ? ADMIN_KEY : TOKEN_KEY);
      tokenMessage[as] = as === "admin" ? "That admin token is not PENNANT_ADMIN_TOKEN." : `That token was refused: ${error.message}.`;
      render();
      return;
    }
    say(error instanceof ApiError ? `Refused: ${error.message}` : `Failed: ${error.message}`);
  }

  const tokenMessage = { owner: "", admin: "" };

  /** The form that asks for a token: the API token, or the admin token. */
  function tokenForm(as) {
    const id = as === "admin" ? "admin-token" : "api-token";
    const label = as === "admin" ? "Admin token" : "API token";
    const input = el("input", { id, type: "password", autocomplete: "off", spellcheck: "false", required: true, placeholder: as === "admin" ? "PENNANT_ADMIN_TOKEN" : "pn_…" });
    const form = el("form", { class: "form" },
      el("div", { class: "row" },
        el("div", { class: "field" }, el("label", { for: id, text: label }), input),
        el("button", { type: "submit", class: "button", text: "Open" }),
      ),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const value = input.value.trim();
      if (!value) return;
      sessionStorage.setItem(as === "admin" ? ADMIN_KEY : TOKEN_KEY, value);
      tokenMessage[as] = "";
      render();
    });
    return el("section", { class: "card" },
      el("h2", { text: as === "admin" ? "Administration" : "Open the console" }),
      form,
      el("p", { class: "note", text: as === "admin"
        ? "The admin token is PENNANT_ADMIN_TOKEN. It stays in this tab (sessionStorage) and is never sent: it signs each request, which Pennant checks with its own copy."
        : "The token stays in this tab (sessionStorage): never stored elsewhere, never put in an address. It goes to Pennant only in the header of each request this page signs with it. Closing the tab forgets it; `pennant token create` makes one." }),
      el("p", { class: "error", role: "alert", text: tokenMessage[as] }),
    );
  }

  // ---- Servers ----

  function refusalTable(refusals, withUuid) {
    return el("div", { class: "table-wrap" }, el("table", {},
      el("thead", {}, el("tr", {}, withUuid ? el("th", { text: "Server UUID" }) : null, el("th", { text: "Refused" }), el("th", { text: "Times" }), el("th", { text: "Last" }), el("th", { text: "Sent by" }))),
      el("tbody", {}, refusals.map((refusal) => el("tr", {},
        withUuid ? el("td", {}, el("code", { text: refusal.server_uuid })) : null,
        el("td", {}, el("code", { text: refusal.code })),
        el("td", { text: String(refusal.count) }),
        el("td", {}, timeText(refusal.last_at)),
        el("td", { text: { this_token: "this token", another_token: "another token", unauthenticated: "not authenticated" }[refusal.by] }),
      ))),
    ));
  }

  function serverCard(server) {
    const chart = el("img", { class: "chart-img", alt: `${server.name}: players over the last 24 hours`, width: 320, height: 120 });
    const card = el("article", { class: "card server-card", "data-uuid": server.uuid },
      el("div", { class: "card-head" },
        el("h3", {}, el("button", { type: "button", class: "linkish", text: server.name, onclick: () => openServer(server.uuid) })),
        el("span", { class: `pill ${server.status}`, text: server.status === "online" ? "Online" : "Offline" }),
      ),
      server.motd ? el("p", { class: "motd-text", text: server.motd.join("\n").trim() }) : null,
      el("dl", { class: "mini" },
        el("dt", { text: "Players" }), el("dd", { text: playersText(server.players) }),
        el("dt", { text: "Version" }), el("dd", { text: server.version ?? "–" }),
        el("dt", { text: "Last push" }), el("dd", {}, timeText(server.last_push)),
        el("dt", { text: "UUID" }), el("dd", {}, el("code", { text: server.uuid })),
      ),
      chart,
      server.refusals.length > 0
        ? el("details", { class: "refusals" }, el("summary", { text: `${server.refused} pushes refused in the last 24 hours` }), refusalTable(server.refusals, false))
        : null,
    );
    return { card, chart };
  }

  async function renderServers(view) {
    const list = await signed("GET", "/api/token/servers");
    const cards = list.servers.map(serverCard);
    fill(view, 
      el("div", { class: "actions" }, el("h2", { text: `Servers (${list.servers.length})` }), actionButton("Refresh", "button quiet", () => render())),
      list.servers.length === 0
        ? el("p", { class: "card empty", text: "No server has pushed with this token yet. Set this token and the address of /api/server/update in your server's plugin: the server appears here after its first push." })
        : el("div", { class: "servers" }, cards.map((made) => made.card)),
      list.refused_elsewhere.length > 0
        ? el("section", { class: "card" },
          el("h2", { text: "Pushes refused for servers not listed" }),
          el("p", { class: "note", text: "This token's pushes in the last 24 hours for UUIDs it has no server of, and why each was refused (docs/errors.md)." }),
          refusalTable(list.refused_elsewhere.flatMap((entry) => entry.refusals.map((refusal) => ({ ...refusal, server_uuid: entry.server_uuid }))), true))
        : null,
    );
    await few(cards.filter((made) => made.card.isConnected), (made) => showChart(made.chart, made.card.dataset.uuid, "24h", "small"));
  }

  let detailUuid = null;
  function openServer(uuid) {
    detailUuid = uuid;
    render();
  }

  async function renderServerDetail(view, uuid) {
    const server = await signed("GET", `/api/token/servers/${uuid}`);
    const narrow = window.matchMedia("(max-width: 600px)").matches;
    const chart = el("img", { class: "chart-img", alt: `${server.name}: players`, width: narrow ? 340 : 800, height: narrow ? 230 : 280 });
    let range = "24h";
    const rangeButtons = RANGES.map(([value, title]) => el("button", { type: "button", "aria-pressed": value === range ? "true" : "false", text: title, onclick: (event) => {
      range = value;
      for (const button of rangeButtons) button.setAttribute("aria-pressed", String(button === event.currentTarget));
      showChart(chart, uuid, range, narrow ? "narrow" : "wide");
    } }));
    const pageSwitch = el("input", { type: "checkbox", id: "page-switch", checked: server.page_enabled });
    pageSwitch.addEventListener("change", async () => {
      pageSwitch.disabled = true;
      try {
        const answer = await signed("PUT", "/api/server/page", { body: { enabled: pageSwitch.checked }, serverUuid: uuid });
        say(answer.message);
      } catch (error) {
        pageSwitch.checked = !pageSwitch.checked;
        failed(error);
      } finally {
        pageSwitch.disabled = false;
      }
    });
    const webhooks = el("section", { class: "card", "aria-labelledby": "webhooks-heading" });
    fill(view, 
      el("div", { class: "actions" }, el("button", { type: "button", class: "button quiet", text: "← All servers", onclick: () => openServer(null) })),
      el("section", { class: "head" },
        el("h2", { text: server.name }),
        el("p", { class: "state" }, el("span", { class: `pill ${server.status}`, text: server.status === "online" ? "Online" : "Offline" }), el("span", { text: "since" }), timeText(server.since)),
      ),
      server.motd ? el("p", { class: "motd-text", text: server.motd.join("\n").trim() }) : null,
      el("dl", { class: "facts" },
        [["Players", playersText(server.players)], ["Version", server.version ?? "–"], ["Join address", server.address ?? "–"]].map(([term, value]) => el("div", {}, el("dt", { text: term }), el("dd", { text: value }))),
        el("div", {}, el("dt", { text: "Last push" }), el("dd", {}, timeText(server.last_push))),
        el("div", {}, el("dt", { text: "UUID" }), el("dd", {}, el("code", { text: server.uuid }))),
      ),
      el("section", { class: "card" },
        el("div", { class: "chart-head" }, el("h2", { text: "Players" }), el("div", { class: "ranges", role: "group", "aria-label": "Range" }, rangeButtons)),
        chart,
        el("div", { class: "table-wrap" }, el("table", { class: "record" },
          el("thead", {}, el("tr", {}, el("th", { text: "Range" }), el("th", { text: "Uptime" }), el("th", { text: "Peak" }))),
          el("tbody", {}, RANGES.map(([value, title]) => el("tr", {}, el("th", { text: title }), el("td", { text: percent(server.ranges[value].uptime) }), el("td", { text: server.ranges[value].peak ?? "–" })))),
        )),
      ),
      el("section", { class: "card" },
        el("h2", { text: "Public page" }),
        el("p", {}, el("a", { href: server.links.page, text: absolute(server.links.page) })),
        el("label", { class: "switch", for: "page-switch" }, pageSwitch, "Page shown (off: it answers 404 as an unknown server's)"),
      ),
      el("section", { class: "card snippets" },
        el("h2", { text: "Banner and badges" }),
        el("p", {}, el("a", { href: server.links.designer, text: "Open in the designer", target: "_blank", rel: "noopener" })),
        snippetGroups(server.snippets.filter((group) => group.title === "Banner" || group.title.startsWith("Badge"))),
      ),
      webhooks,
      server.refusals.length > 0 ? el("section", { class: "card" }, el("h2", { text: `Pushes refused in the last 24 hours: ${server.refused}` }), refusalTable(server.refusals, false)) : null,
    );
    showChart(chart, uuid, range, narrow ? "narrow" : "wide");
    await renderWebhooks(webhooks, uuid);
  }

  // ---- Webhooks ----

  async function renderWebhooks(section, uuid) {
    const hooks = await signed("GET", "/api/server/webhooks", { serverUuid: uuid });
    const url = el("input", { id: "hook-url", type: "url", required: true, placeholder: "https://example.com/hook", autocomplete: "off", spellcheck: "false" });
    const format = el("select", { id: "hook-format" }, FORMATS.map((value) => el("option", { value, text: value })));
    const events = EVENTS.map((value) => el("input", { type: "checkbox", value, checked: value !== "players_record" }));
    const eventsBox = el("fieldset", {}, el("legend", { text: "Events" }), events.map((box) => el("label", {}, box, box.value)));
    format.addEventListener("change", () => (eventsBox.hidden = format.value === "discord-live"));
    const form = el("form", { class: "form", "aria-label": "Add a webhook" },
      el("div", { class: "row" },
        el("div", { class: "field wide" }, el("label", { for: "hook-url", text: "Webhook URL" }), url),
        el("div", { class: "field" }, el("label", { for: "hook-format", text: "Format" }), format),
      ),
      eventsBox,
      el("div", { class: "actions" }, el("button", { type: "submit", class: "button", text: "Add the webhook" })),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const body = { url: url.value.trim(), format: format.value };
      if (format.value !== "discord-live") body.events = events.filter((box) => box.checked).map((box) => box.value);
      try {
        const created = await signed("POST", "/api/server/webhooks", { body, serverUuid: uuid });
        await renderWebhooks(section, uuid);
        section.append(el("div", { class: "secret" }, el("span", { text: "Its secret, shown once (it signs every delivery):" }), el("code", { text: created.secret }), copyButton(created.secret, "the secret")));
        say("Webhook added.");
      } catch (error) {
        failed(error);
      }
    });
    fill(section, 
      el("h2", { id: "webhooks-heading", text: "Webhooks" }),
      hooks.length === 0
        ? el("p", { class: "empty", text: "No webhook yet: add one below to hear when the server goes offline, comes back or sets a player record." })
        : el("div", { class: "table-wrap" }, el("table", { class: "webhooks" },
          el("thead", {}, el("tr", {}, ["URL", "Events", "Format", "State", "Last answer", ""].map((title) => el("th", { text: title })))),
          el("tbody", {}, hooks.map((hook) => {
            const result = el("span", { class: "result", role: "status" });
            return el("tr", { "data-webhook": hook.id },
              el("td", {}, el("code", { text: hook.url })),
              el("td", { text: hook.format === "discord-live" ? "a live message" : hook.events.join(", ") }),
              el("td", { text: hook.format }),
              el("td", { text: hook.state }),
              el("td", { text: hook.last_status === null ? "none yet" : String(hook.last_status) }),
              el("td", {}, el("div", { class: "actions" },
                hook.format === "discord-live" ? null : actionButton("Send a test delivery", "button quiet", async () => {
                  result.className = "result";
                  result.textContent = "Sending…";
                  const tested = await signed("POST", `/api/server/webhooks/${hook.id}/test`, { body: {}, serverUuid: uuid });
                  result.className = `result ${tested.delivered ? "ok" : "failed"}`;
                  result.textContent = tested.status === 0 ? "No answer" : `Answered ${tested.status}`;
                  result.title = tested.message;
                }),
                actionButton("Remove", "button danger", async () => {
                  await signed("DELETE", `/api/server/webhooks/${hook.id}`, { serverUuid: uuid });
                  say("Webhook removed.");
                  await renderWebhooks(section, uuid);
                }),
                result,
              )),
            );
          })),
        )),
      el("h3", { text: "Add a webhook" }),
      form,
    );
  }

  // ---- Plugins ----

  async function renderPlugins(view) {
    let list;
    try {
      list = await signed("GET", "/api/token/plugins", { tokenHeader: "X-Plugin-Token" });
    } catch (error) {
      if (!(error instanceof ApiError && error.code === "wrong_scope")) throw error;
      fill(view, el("p", { class: "card empty", text: "This token's scope is server: it cannot push plugins, so it has none." }));
      return;
    }
    fill(view, 
      el("h2", { text: `Plugins (${list.plugins.length})` }),
      list.plugins.length === 0
        ? el("p", { class: "card empty", text: "No plugin has pushed with this token yet (POST /api/plugins/{uuid}/data)." })
        : list.plugins.map((plugin) => {
          const name = plugin.name ?? "Unnamed plugin";
          const stats = Object.entries(plugin.stats);
          return el("article", { class: "card", "data-plugin": plugin.uuid },
            el("div", { class: "card-head" }, el("h3", { text: name }), el("span", { class: `pill ${plugin.active ? "active" : ""}`, text: plugin.active ? "Active" : "Inactive" })),
            el("dl", { class: "mini" },
              el("dt", { text: "Version" }), el("dd", { text: plugin.version ?? "–" }),
              el("dt", { text: "Last push" }), el("dd", {}, timeText(plugin.last_push)),
              el("dt", { text: "UUID" }), el("dd", {}, el("code", { text: plugin.uuid })),
            ),
            stats.length > 0
              ? el("div", { class: "table-wrap" }, el("table", {}, el("thead", {}, el("tr", {}, el("th", { text: "Stat" }), el("th", { text: "Value" }))),
                el("tbody", {}, stats.map(([stat, value]) => el("tr", {}, el("td", { text: stat }), el("td", { text: String(value) }))))))
              : null,
            plugin.metrics.length > 0
              ? el("div", { class: "snippets" }, el("h4", { text: "Badges" }), snippetGroups(plugin.metrics.map((metric) => ({ title: `${metric.metric}: ${metric.message}`, snippets: metric.snippets }))))
              : null,
            el("p", {}, el("a", { href: `/#plugin_uuid=${plugin.uuid}`, target: "_blank", rel: "noopener", text: "Open in the designer" })),
          );
        }),
    );
  }

  // ---- Networks ----

  async function renderNetworks(view) {
    const [{ networks }, { servers }] = await Promise.all([signed("GET", "/api/token/networks"), signed("GET", "/api/token/servers")]);
    const slug = el("input", { id: "network-slug", required: true, placeholder: "survival", autocomplete: "off", spellcheck: "false", maxlength: 40 });
    const name = el("input", { id: "network-name", required: true, maxlength: 64, autocomplete: "off" });
    const boxes = servers.map((server) => el("input", { type: "checkbox", value: server.uuid }));
    const form = el("form", { class: "form", "aria-label": "Save a network" },
      el("div", { class: "row" },
        el("div", { class: "field" }, el("label", { for: "network-slug", text: "Slug" }), slug),
        el("div", { class: "field" }, el("label", { for: "network-name", text: "Name" }), name),
      ),
      el("fieldset", {}, el("legend", { text: "Servers" }),
        servers.length === 0 ? el("span", { class: "empty", text: "This token has no server yet." }) : boxes.map((box, i) => el("label", {}, box, servers[i].name))),
      el("div", { class: "actions" }, el("button", { type: "submit", class: "button", text: "Save the network" })),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const chosen = boxes.filter((box) => box.checked).map((box) => box.value);
      try {
        const saved = await signed("PUT", `/api/networks/${encodeURIComponent(slug.value.trim().toLowerCase())}`, { body: { name: name.value, servers: chosen } });
        say(`Network ${saved.slug} saved with ${saved.servers} servers.`);
        await renderNetworks(view);
      } catch (error) {
        failed(error);
      }
    });
    const edit = (network) => {
      slug.value = network.slug;
      name.value = network.name;
      const members = new Set(network.servers.map((server) => server.uuid));
      for (const box of boxes) box.checked = members.has(box.value);
      name.focus();
    };
    fill(view, 
      el("h2", { text: `Networks (${networks.length})` }),
      networks.length === 0 ? el("p", { class: "card empty", text: "No network yet: a network sums servers of this token on one banner, badge and page." }) : null,
      networks.map((network) => el("article", { class: "card", "data-network": network.slug },
        el("div", { class: "card-head" },
          el("h3", { text: `${network.name} (${network.slug})` }),
          el("span", { class: `pill ${network.total.online > 0 ? "online" : ""}`, text: `${network.total.online}/${network.total.servers} online` }),
        ),
        el("p", { class: "total" }, el("strong", { text: `Players: ${playersText(network.total.players)}` })),
        el("div", { class: "table-wrap" }, el("table", { class: "members" },
          el("thead", {}, el("tr", {}, el("th", { text: "Server" }), el("th", { text: "State" }), el("th", { text: "Players" }))),
          el("tbody", {}, network.servers.map((server) => el("tr", {}, el("td", { text: server.name }), el("td", { text: server.status }), el("td", { text: playersText(server.players) })))),
        )),
        el("div", { class: "actions" },
          el("a", { href: network.links.page, text: "Its page" }),
          el("button", { type: "button", class: "button quiet", text: "Edit", onclick: () => edit(network) }),
          actionButton("Delete", "button danger", async () => {
            await signed("DELETE", `/api/networks/${network.slug}`);
            say(`Network ${network.slug} deleted.`);
            await renderNetworks(view);
          }, { "aria-label": `Delete ${network.slug}` }),
        ),
      )),
      el("section", { class: "card" }, el("h2", { text: "Create or edit a network" }), form),
    );
  }

  // ---- Admin ----

  async function renderAdmin(view) {
    if (!sessionStorage.getItem(ADMIN_KEY)) {
      fill(view, tokenForm("admin"));
      return;
    }
    let listed;
    try {
      listed = await signed("GET", "/api/admin/tokens", { as: "admin" });
    } catch (error) {
      failed(error, "admin");
      return;
    }
    const label = el("input", { id: "new-token-label", maxlength: 100, autocomplete: "off", placeholder: "survival server" });
    const scope = el("select", { id: "new-token-scope" }, SCOPES.map((value) => el("option", { value, text: value })));
    const form = el("form", { class: "form", "aria-label": "Create a token" },
      el("div", { class: "row" },
        el("div", { class: "field" }, el("label", { for: "new-token-label", text: "Label" }), label),
        el("div", { class: "field" }, el("label", { for: "new-token-scope", text: "Scope" }), scope),
        el("button", { type: "submit", class: "button", text: "Create a token" }),
      ),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const made = await signed("POST", "/api/admin/tokens", { body: { label: label.value, scope: scope.value }, as: "admin" });
        await renderAdmin(view);
        view.append(el("section", { class: "card", "aria-label": "New token" },
          el("h2", { text: `Token ${made.id} created` }),
          el("div", { class: "secret" }, el("code", { id: "new-token", text: made.token }), copyButton(made.token, "the new token")),
          el("p", { class: "note", text: "Shown this once: Pennant keeps only its hash. Put it in the plugin's configuration now." }),
        ));
      } catch (error) {
        failed(error, "admin");
      }
    });
    fill(view, 
      el("div", { class: "actions" }, el("h2", { text: `API tokens (${listed.tokens.length})` })),
      el("div", { class: "card table-wrap" }, el("table", { class: "tokens" },
        el("thead", {}, el("tr", {}, ["Id", "Label", "Scope", "Made by", "Created", "Last push", "State", ""].map((title) => el("th", { text: title })))),
        el("tbody", {}, listed.tokens.map((token) => el("tr", { "data-token": token.id },
          el("td", { text: String(token.id) }),
          el("td", { text: token.label }),
          el("td", { text: token.scope }),
          el("td", { text: token.origin }),
          el("td", {}, timeText(token.created_at)),
          el("td", {}, token.last_used_at ? timeText(token.last_used_at) : "never"),
          el("td", { text: token.revoked_at ? `revoked ${utc(token.revoked_at)}` : "active" }),
          el("td", {}, token.revoked_at ? null : actionButton("Revoke", "button danger", async () => {
            await signed("DELETE", `/api/admin/tokens/${token.id}`, { as: "admin" });
            say(`Token ${token.id} revoked.`);
            await renderAdmin(view);
          }, { "aria-label": `Revoke token ${token.id}` })),
        ))),
      )),
      el("section", { class: "card" }, el("h2", { text: "Create a token" }), form),
    );
  }

  // ---- Tabs and rendering ----

  // One panel for every tab: choosing a tab marks it and fills the panel anew.
  const tabs = [...document.querySelectorAll('[role="tab"]')];
  const panel = $("panel");
  let current = tabs[0].id.slice("tab-".length);

  function selectTab(tab) {
    for (const other of tabs) other.setAttribute("aria-selected", String(other === tab));
    for (const other of tabs) other.tabIndex = other === tab ? 0 : -1;
    panel.setAttribute("aria-labelledby", tab.id);
    current = tab.id.slice("tab-".length);
    render();
  }
  for (const tab of tabs) {
    tab.addEventListener("click", () => selectTab(tab));
    tab.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) return;
      const next = tabs[(tabs.indexOf(tab) + step + tabs.length) % tabs.length];
      selectTab(next);
      next.focus();
    });
  }

  const RENDERERS = { servers: (view) => (detailUuid ? renderServerDetail(view, detailUuid) : renderServers(view)), plugins: renderPlugins, networks: renderNetworks, admin: renderAdmin };
  let rendering = 0;

  async function render() {
    showForget();
    const turn = ++rendering;
    forgetCharts();
    if (current !== "admin" && !sessionStorage.getItem(TOKEN_KEY)) {
      fill(panel, tokenForm("owner"));
      return;
    }
    // A view of its own per turn: a slower answer of a tab left since fills a view no longer shown.
    const view = el("div", { class: "view" });
    fill(panel, view);
    panel.setAttribute("aria-busy", "true");
    try {
      await RENDERERS[current](view);
    } catch (error) {
      if (turn === rendering) failed(error, current === "admin" ? "admin" : "owner");
    } finally {
      panel.removeAttribute("aria-busy");
    }
  }

  // Web Crypto only in a secure context (HTTPS, localhost): elsewhere, say so instead of asking for a token.
  if (!window.isSecureContext || !window.crypto?.subtle) {
    $("insecure").hidden = false;
    return;
  }
  $("console").hidden = false;
  render();
})();
