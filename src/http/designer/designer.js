// The designer page: builds /api/banner and /shields URLs from the forms,
// shows the real image as a preview, and offers the embed snippets. Plain
// browser JavaScript, no build step: the server embeds this file as it is.

const PREVIEW_DELAY_MS = 350;
const origin = window.location.origin;
const $ = (id) => document.getElementById(id);

// encodeURIComponent leaves !'()* alone; a ")" would end a Markdown link.
const encode = (text) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const queryOf = (params) =>
  Object.entries(params)
    .filter(([, value]) => value !== undefined && value !== "")
    .map(([name, value]) => `${name}=${encode(value)}`)
    .join("&");
const escapeHtml = (text) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const escapeMarkdown = (text) => text.replace(/[\\[\]]/g, "\\$&");

const SNIPPETS = {
  url: { title: "URL", make: ({ url }) => url },
  html: {
    title: "HTML",
    make: ({ url, alt, width, height }) =>
      `<img src="${escapeHtml(url)}"${width ? ` width="${width}" height="${height}"` : ""} alt="${escapeHtml(alt)}">`,
  },
  markdown: { title: "Markdown", make: ({ url, alt }) => `![${escapeMarkdown(alt)}](${url})` },
  bbcode: { title: "BBCode", make: ({ url }) => `[img]${url}[/img]` },
};

/** The four snippet rows of a panel; returns a function that fills them. */
function snippetRows(name) {
  const box = document.querySelector(`[data-snippets="${name}"]`);
  const areas = Object.entries(SNIPPETS).map(([kind, { title, make }]) => {
    const row = $("snippet-row").content.firstElementChild.cloneNode(true);
    const area = row.querySelector("textarea");
    area.id = `${name}-${kind}`;
    const label = row.querySelector("label");
    label.htmlFor = area.id;
    label.textContent = title;
    const button = row.querySelector("button");
    button.setAttribute("aria-label", `Copy the ${title}`);
    button.addEventListener("click", () => copy(area, title, button));
    box.append(row);
    return { area, make };
  });
  return (image) => {
    for (const { area, make } of areas) area.value = image ? make(image) : "";
  };
}

async function copy(area, title, button) {
  try {
    await navigator.clipboard.writeText(area.value);
    say(`${title} copied.`);
    // Also on the button: on a phone the status line is out of sight.
    button.textContent = "Copied";
    setTimeout(() => (button.textContent = "Copy"), 1500);
  } catch {
    // No clipboard API outside a secure context (plain http on a remote address).
    area.focus();
    area.select();
    say(`${title} selected: press Ctrl+C (⌘C) to copy.`);
  }
}

let sayTimer;
function say(message) {
  $("copy-status").textContent = message;
  clearTimeout(sayTimer);
  sayTimer = setTimeout(() => ($("copy-status").textContent = ""), 4000);
}

/**
 * Wires a form to its preview: snippets follow every keystroke, the image
 * (a real request, counted against the rate limit) only once typing pauses.
 */
function livePreview({ form, image, status, snippets, build }) {
  const fill = snippetRows(snippets);
  let timer;
  let shown = "";
  image.addEventListener("load", () => (status.textContent = ""));
  image.addEventListener("error", () => image.src && (status.textContent = "The preview could not be loaded."));
  const update = () => {
    const built = build();
    fill(built.image);
    clearTimeout(timer);
    if (!built.image) {
      image.removeAttribute("src");
      shown = "";
      status.textContent = built.hint;
      return;
    }
    if (built.image.url === shown) return;
    timer = setTimeout(() => {
      shown = built.image.url;
      status.textContent = "Loading…";
      // Shown at its size in CSS pixels: a scale=2 banner is sharp, not twice as large.
      for (const side of ["width", "height"]) {
        if (built.image[side]) image.setAttribute(side, built.image[side]);
        else image.removeAttribute(side);
      }
      image.src = shown;
      image.alt = `Preview: ${built.image.alt}`;
    }, PREVIEW_DELAY_MS);
  };
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  form.addEventListener("submit", (event) => event.preventDefault());
  return update;
}

/** Shows the elements whose data-<name> lists the value, hides the others. */
function showFor(root, name, value) {
  for (const element of root.querySelectorAll(`[data-${name}]`)) element.hidden = !element.dataset[name].split(" ").includes(value);
}

function fillSelect(select, entries, selected) {
  select.replaceChildren(...entries.map(([value, text]) => new Option(text, value, false, value === selected)));
}

// ---- Banner ----

// The templates and each parameter's choices or length limit and default, from the server's parameter table.
const banner = JSON.parse($("banner-choices").textContent);
const templates = new Map(banner.templates.templates.map((t) => [t.key, t]));
const template = () => templates.get($("template").value);
/** A value for the URL, left out when it is what leaving the parameter out means. */
const unlessDefault = (name, value) => (value === banner.parameters[name].default ? "" : value);

/** How the page names a choice where the value itself will not do; others are shown capitalised. */
const CHOICE_TITLES = {
  format: { png: "PNG", webp: "WebP" },
  scale: { 1: "1×", 2: "2× (Hi-DPI)" },
  data_mode: { manual: "Typed here", query: "Live lookup of an address", plugin: "Pushed by the server's plugin" },
};
const choiceTitle = (name, value) => CHOICE_TITLES[name]?.[value] ?? value[0].toUpperCase() + value.slice(1);

for (const field of document.querySelectorAll("[data-parameter]")) {
  const name = field.dataset.parameter;
  const { enum: options, maxLength, default: preset } = banner.parameters[name];
  if (options) fillSelect(field, options.map((value) => [value, choiceTitle(name, value)]), preset ?? options[0]);
  if (maxLength !== undefined) field.maxLength = maxLength;
}

function bannerImage() {
  const chosen = template();
  const value = (id) => $(id).value.trim();
  const mode = value("data-mode");
  const server = chosen.kind === "server";
  const [width, height] = value("size").split("x");
  const params = {
    template_key: chosen.key,
    size: value("size"),
    theme: value("theme") === chosen.default_theme ? "" : value("theme"),
    format: unlessDefault("format", value("format")),
    scale: unlessDefault("scale", value("scale")),
    accent: value("accent").replace(/^#/, ""),
    background: value("background").replace(/^#/, ""),
  };
  if (server) {
    Object.assign(params, {
      data_mode: unlessDefault("data_mode", mode),
      ip_address: mode === "query" ? value("address") : "",
      edition: mode === "query" ? unlessDefault("edition", value("edition")) : "",
      server_uuid: mode === "plugin" ? value("server-uuid") : "",
      server_name: value("server-name"),
      motd_line_1: value("motd-1"),
      motd_line_2: value("motd-2"),
      online_players: mode === "manual" ? value("online") : "",
      max_players: mode === "manual" ? value("max") : "",
    });
  } else {
    params.plugin_uuid = value("plugin-uuid");
  }
  // The server would answer these with an error image; a hint says it kindly.
  if (server && mode === "query" && !params.ip_address) return { hint: "Type the server's address to see its banner." };
  if (server && mode === "plugin" && !params.server_uuid) return { hint: "Type the UUID the server's plugin pushes as." };
  if (!server && !params.plugin_uuid) return { hint: "Type the plugin's UUID to see its banner." };
  const alt = (server && (params.server_name || params.ip_address)) || `${chosen.title} banner`;
  return { image: { url: `${origin}/api/banner?${queryOf(params)}`, alt, width, height } };
}

function showBannerFields() {
  const chosen = template();
  const size = $("size").value;
  fillSelect($("size"), chosen.sizes.map((s) => [s, s.replace("x", " × ")]), chosen.sizes.includes(size) ? size : chosen.default_size);
  showFor($("banner-form"), "kinds", chosen.kind);
  showFor($("banner-form"), "modes", $("data-mode").value);
}

const updateBanner = livePreview({
  form: $("banner-form"),
  image: $("banner-preview"),
  status: $("banner-status"),
  snippets: "banner",
  build: bannerImage,
});
$("banner-form").addEventListener("change", (event) => {
  if (event.target.id === "template") $("theme").value = template().default_theme;
  if (["template", "data-mode"].includes(event.target.id)) {
    showBannerFields();
    updateBanner();
  }
});

// Keyboards have no § key: insert one where the caret is in the MOTD field last used.
let motdField = $("motd-1");
for (const id of ["motd-1", "motd-2"]) $(id).addEventListener("focus", () => (motdField = $(id)));
$("insert-section").addEventListener("click", () => {
  motdField.setRangeText("§", motdField.selectionStart, motdField.selectionEnd, "end");
  motdField.focus();
  motdField.dispatchEvent(new Event("input", { bubbles: true }));
});

for (const picker of document.querySelectorAll("[data-fills]")) {
  const text = $(picker.dataset.fills);
  // Runs before the event bubbles to the form, which then sees the new text.
  picker.addEventListener("input", () => (text.value = picker.value));
  text.addEventListener("input", () => {
    const hex = /^#?([0-9a-f]{6})$/i.exec(text.value.trim());
    if (hex) picker.value = `#${hex[1].toLowerCase()}`;
  });
}

fillSelect($("template"), banner.templates.templates.map((t) => [t.key, t.title]), banner.templates.default_template);
$("theme").value = template().default_theme;
showBannerFields();
updateBanner();

// ---- Badge ----

const choices = JSON.parse($("badge-choices").textContent);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function badgeImage() {
  const value = (id) => $(id).value.trim();
  const uuid = value("badge-uuid");
  if (!UUID.test(uuid)) return { hint: uuid ? "That is not a UUID (8-4-4-4-12 hex digits)." : "Type a UUID to see the badge." };
  const metric = value("badge-metric");
  const query = queryOf({ style: value("badge-style") === "flat" ? "" : value("badge-style"), label: value("badge-label"), color: value("badge-color").replace(/^#/, "") });
  const url = `${origin}/shields/${value("badge-subject")}/${uuid.toLowerCase()}/${metric}.png${query ? `?${query}` : ""}`;
  return { image: { url, alt: value("badge-label") || metric } };
}

function showMetrics() {
  const metrics = $("badge-subject").value === "plugins" ? choices.pluginMetrics : choices.serverMetrics;
  fillSelect($("badge-metric"), metrics.map((m) => [m, m]), metrics.includes($("badge-metric").value) ? $("badge-metric").value : metrics[0]);
}

fillSelect($("badge-style"), choices.styles.map((s) => [s, s]), "flat");
showMetrics();
const updateBadge = livePreview({
  form: $("badge-form"),
  image: $("badge-preview"),
  status: $("badge-status"),
  snippets: "badge",
  build: badgeImage,
});
$("badge-subject").addEventListener("change", () => {
  showMetrics();
  updateBadge();
});
updateBadge();

// ---- Tabs (WAI-ARIA tabs: arrow keys move between them) ----

const tabs = [...document.querySelectorAll('[role="tab"]')];
function selectTab(tab) {
  for (const other of tabs) {
    const selected = other === tab;
    other.setAttribute("aria-selected", String(selected));
    other.tabIndex = selected ? 0 : -1;
    $(other.getAttribute("aria-controls")).hidden = !selected;
  }
  tab.focus();
}
for (const tab of tabs) {
  tab.addEventListener("click", () => selectTab(tab));
  tab.addEventListener("keydown", (event) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (step) selectTab(tabs[(tabs.indexOf(tab) + step + tabs.length) % tabs.length]);
  });
}
