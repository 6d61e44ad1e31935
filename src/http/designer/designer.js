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
      `<img src="${escapeHtml(url)}"${width ? ` width="${width}"` : ""}${height ? ` height="${height}"` : ""} alt="${escapeHtml(alt)}">`,
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
 * `scale` is the form's scale choice: the preview shows a 2x image at half
 * its pixels, sharp rather than twice as large.
 */
function livePreview({ form, image, status, snippets, build, scale }) {
  const fill = snippetRows(snippets);
  let timer;
  let shown = "";
  image.addEventListener("load", () => {
    status.textContent = "";
    const factor = Number(image.dataset.scale);
    image.width = image.naturalWidth / factor;
    image.height = image.naturalHeight / factor;
  });
  image.addEventListener("error", () => image.src && (status.textContent = "The preview could not be loaded."));
  const update = () => {
    const built = build();
    const factor = scale.value;
    showFor(form, "scales", factor);
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
      image.dataset.scale = factor;
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

// The templates and each parameter's choices or length limit and default, from the server's parameter table;
// each theme's own colours, the background presets and the parts a banner can leave out, from the banner domain.
const banner = JSON.parse($("banner-choices").textContent);
const templates = new Map(banner.templates.templates.map((t) => [t.key, t]));
const template = () => templates.get($("template").value);
/** A value for the URL, left out when it is what leaving the parameter out means. */
const unlessDefault = (name, value) => (value === banner.parameters[name].default ? "" : value);

/** How the page names a choice where the value itself will not do; others are shown capitalised. */
const CHOICE_TITLES = {
  format: { png: "PNG", webp: "WebP", gif: "GIF" },
  animate: { motd: "MOTD lines in turn", stats: "Players, version, address in turn" },
  scale: { 1: "1×", 2: "2× (Hi-DPI)" },
  data_mode: { manual: "Typed here", query: "Live lookup of an address", plugin: "Pushed by the server's plugin", network: "A network's servers, summed" },
  hide: { motd: "MOTD" },
  edition: { java: "Minecraft Java", bedrock: "Minecraft Bedrock", hytale: "Hytale" },
  range: { "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days", "1y": "Last year" },
  site: { modrinth: "Modrinth", spigot: "SpigotMC (through Spiget)", hangar: "Hangar", curseforge: "CurseForge (through CFWidget)", polymart: "Polymart" },
};
const choiceTitle = (name, value) => CHOICE_TITLES[name]?.[value] ?? value[0].toUpperCase() + value.slice(1);

for (const field of document.querySelectorAll("[data-parameter]")) {
  const name = field.dataset.parameter;
  const { enum: options, maxLength, default: preset } = banner.parameters[name];
  if (options) fillSelect(field, options.map((value) => [value, choiceTitle(name, value)]), preset ?? options[0]);
  if (maxLength !== undefined) field.maxLength = maxLength;
}

// Animation: none (a still) or one of the table's; choosing one makes a PNG a GIF, which every list that takes animations takes.
fillSelect($("animate"), [["", "None (a still)"], ...banner.parameters.animate.enum.map((value) => [value, choiceTitle("animate", value)])], "");
$("animate").addEventListener("change", () => {
  if ($("animate").value && $("format").value === "png") $("format").value = "gif";
});

/** What an empty server name stands for, in each data mode. */
const NAME_PLACEHOLDERS = {
  manual: "My Server", query: "the address, unless typed here", plugin: "the pushed name, unless typed here", network: "the network's name, unless typed here",
};

// The background picker: the theme's own, a colour of one's own, or a preset (thumbnails drawn by /api/banner).
const THEME_BACKGROUND = "";
const OWN_COLOUR = "colour";
const backgroundTitles = new Map([[THEME_BACKGROUND, "the theme's"], [OWN_COLOUR, "a colour"], ...banner.backgrounds.map((p) => [p.name, p.title])]);
const backgroundChoice = () => document.querySelector('input[name="background-choice"]:checked').value;
const thumbnailTemplate = [...templates.values()].find((t) => t.kind === "server");

for (const [value, title] of backgroundTitles) {
  const tile = $("background-tile").content.firstElementChild.cloneNode(true);
  const radio = tile.querySelector("input");
  radio.value = value;
  radio.checked = value === THEME_BACKGROUND;
  tile.querySelector(".title").textContent = title[0].toUpperCase() + title.slice(1);
  if (banner.backgrounds.some((p) => p.name === value)) {
    // The preset drawn by this server, its name as the server name; fetched once the picker first opens.
    const thumbnail = new Image(234, 30);
    thumbnail.alt = "";
    thumbnail.loading = "lazy";
    thumbnail.dataset.src = `${origin}/api/banner?${queryOf({ template_key: thumbnailTemplate.key, server_name: title, background: value })}`;
    tile.querySelector(".swatch").replaceWith(thumbnail);
  }
  $("background-tiles").append(tile);
}
$("background-picker").addEventListener(
  "toggle",
  () => {
    for (const thumbnail of $("background-tiles").querySelectorAll("img[data-src]")) thumbnail.src = thumbnail.dataset.src;
  },
  { once: true },
);
/** The swatches of the theme's own background and of one's own colour: what choosing them draws. */
function paintSwatches() {
  const swatch = (value) => $("background-tiles").querySelector(`input[value="${value}"] ~ .swatch`);
  swatch(THEME_BACKGROUND).style.background = banner.themeColors[$("theme").value].background;
  swatch(OWN_COLOUR).style.background = document.querySelector('[data-fills="background"]').value;
}

// The parts a banner can leave out (hide=), offered for the kinds of template that draw them.
for (const element of banner.hideable.server) {
  const label = document.createElement("label");
  const box = document.createElement("input");
  box.type = "checkbox";
  box.value = element;
  label.dataset.kinds = Object.keys(banner.hideable).filter((kind) => banner.hideable[kind].includes(element)).join(" ");
  const title = choiceTitle("hide", element);
  // Named with the group's legend: "Address" alone would also name the address field.
  box.setAttribute("aria-label", `Leave out: ${title}`);
  label.append(box, ` ${title}`);
  $("hide-choices").append(label);
}
const hidden = () => [...$("hide-choices").querySelectorAll("label:not([hidden]) input:checked")].map((box) => box.value).join(",");

const offersAccent = () => template().parameters.includes("accent");

/** What the market reference field is named and asks for, by what the banner is of (project= or author=). */
const MARKET_REF_LABELS = { project: "Project", author: "Author" };
const MARKET_HINTS = {
  project: "Type the project as its site names it (Modrinth: its slug; Spigot, CurseForge, Polymart: the number in its address; Hangar: owner/slug).",
  author: "Type the author as the site names them (Modrinth: username; Spigot: author id; Hangar: user name; Polymart: user id).",
};
/** A chart's range (sparkline) is read from pushed history: only for a plugin's server or a network. */
const offersRange = () => template().parameters.includes("range") && ["plugin", "network"].includes($("data-mode").value);

function bannerImage() {
  const chosen = template();
  const value = (id) => $(id).value.trim();
  const mode = value("data-mode");
  const server = chosen.kind === "server";
  const background = backgroundChoice();
  const [width, height] = value("size").split("x");
  const params = {
    template_key: chosen.key,
    size: value("size"),
    theme: value("theme") === chosen.default_theme ? "" : value("theme"),
    format: unlessDefault("format", value("format")),
    scale: unlessDefault("scale", value("scale")),
    accent: offersAccent() ? value("accent").replace(/^#/, "") : "",
    background: background === OWN_COLOUR ? value("background").replace(/^#/, "") : background,
    hide: hidden(),
  };
  if (server) {
    // Typed MOTD lines and player counts override live data: sent only when they are the data (manual).
    const manual = mode === "manual";
    Object.assign(params, {
      data_mode: unlessDefault("data_mode", mode),
      ip_address: mode === "manual" || mode === "query" ? value("address") : "",
      // Java unless told: left out of the URL when it is Java (a pushed record says its own).
      edition: (mode === "manual" || mode === "query") && value("edition") !== banner.parameters.edition.enum[0] ? value("edition") : "",
      server_uuid: mode === "plugin" ? value("server-uuid") : "",
      network: mode === "network" ? value("network") : "",
      range: offersRange() ? unlessDefault("range", value("range")) : "",
      server_name: value("server-name"),
      animate: value("animate"),
      motd_line_1: manual ? value("motd-1") : "",
      motd_line_2: manual ? value("motd-2") : "",
      online_players: manual ? value("online") : "",
      max_players: manual ? value("max") : "",
    });
  } else if (chosen.kind === "market") {
    // The project, or an author whose projects are totalled: one of the two, named as the site names it.
    Object.assign(params, { site: value("site"), [value("market-of")]: value("market-ref") });
  } else {
    params.plugin_uuid = value("plugin-uuid");
  }
  // The server would answer these with an error image; a hint says it kindly.
  if (server && params.animate && value("format") === "png") return { hint: "An animation is a GIF or a WebP: pick one of them as the format." };
  if (server && mode === "query" && !params.ip_address) return { hint: "Type the server's address to see its banner." };
  if (server && mode === "plugin" && !params.server_uuid) return { hint: "Type the UUID the server's plugin pushes as." };
  if (server && mode === "network" && !params.network) return { hint: "Type the network's slug (PUT /api/networks/{slug})." };
  if (chosen.kind === "market" && !value("market-ref")) return { hint: MARKET_HINTS[value("market-of")] };
  if (chosen.kind === "plugin" && !params.plugin_uuid) return { hint: "Type the plugin's UUID to see its banner." };
  const alt = (server && (params.server_name || params.ip_address)) || `${chosen.title} banner`;
  return { image: { url: `${origin}/api/banner?${queryOf(params)}`, alt, width, height } };
}

/** The theme's own colours stand in the empty colour fields (placeholder and picker): what leaving them empty draws. */
function showThemeColours() {
  const colours = banner.themeColors[$("theme").value];
  for (const name of ["accent", "background"]) {
    $(name).placeholder = colours[name];
    if (!$(name).value.trim()) document.querySelector(`[data-fills="${name}"]`).value = colours[name];
  }
  paintSwatches();
}

function showBannerFields() {
  const chosen = template();
  const size = $("size").value;
  const mode = $("data-mode").value;
  fillSelect($("size"), chosen.sizes.map((s) => [s, s.replace("x", " × ")]), chosen.sizes.includes(size) ? size : chosen.default_size);
  showFor($("banner-form"), "kinds", chosen.kind);
  showFor($("banner-form"), "modes", mode);
  showFor($("banner-form"), "backgrounds", backgroundChoice());
  $("accent-field").hidden = !offersAccent();
  $("range-field").hidden = !offersRange();
  $("market-ref-label").textContent = MARKET_REF_LABELS[$("market-of").value];
  $("server-name").placeholder = NAME_PLACEHOLDERS[mode];
  $("background-chosen").textContent = backgroundTitles.get(backgroundChoice());
}

const updateBanner = livePreview({
  form: $("banner-form"),
  image: $("banner-preview"),
  status: $("banner-status"),
  snippets: "banner",
  build: bannerImage,
  scale: $("scale"),
});
// A theme the owner chose stays chosen across templates; until then each template's own is shown.
let themeChosen = false;
$("theme").addEventListener("change", () => (themeChosen = true));
$("banner-form").addEventListener("change", (event) => {
  if (event.target.id === "template" && !themeChosen) $("theme").value = template().default_theme;
  if (["template", "theme"].includes(event.target.id)) showThemeColours();
  if (["template", "data-mode", "market-of"].includes(event.target.id) || event.target.name === "background-choice") {
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
$("background").addEventListener("input", paintSwatches);

fillSelect($("template"), banner.templates.templates.map((t) => [t.key, t.title]), banner.templates.default_template);
$("theme").value = template().default_theme;
showThemeColours();
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
  const style = value("badge-style");
  const scale = badgeScale();
  const range = rangeOffered() && value("badge-range") !== choices.defaultRange ? value("badge-range") : "";
  const query = queryOf({
    style: style === "flat" ? "" : style, label: value("badge-label"), color: value("badge-color").replace(/^#/, ""), scale: scale === "1" ? "" : scale, range,
  });
  const url = `${origin}/shields/${value("badge-subject")}/${uuid.toLowerCase()}/${metric}.${value("badge-format")}${query ? `?${query}` : ""}`;
  // A 2x badge's HTML names its height, so it shows at half its pixels; its width follows.
  return { image: { url, alt: value("badge-label") || metric, height: scale === "1" ? undefined : choices.heights[style] } };
}

/** The badge's scale: an SVG has none (it is sharp at any size), so its Scale is hidden and left out. */
const badgeScale = () => ($("badge-format").value === "svg" ? "1" : $("badge-scale").value);

function showFormat() {
  showFor($("badge-form"), "formats", $("badge-format").value);
}

/** Whether the chosen metric reads the server's history over a range (uptime, peak): only then is ?range= read. */
const rangeOffered = () => $("badge-subject").value === "servers" && choices.rangedMetrics.includes($("badge-metric").value);

function showMetrics() {
  const metrics = $("badge-subject").value === "plugins" ? choices.pluginMetrics : choices.serverMetrics;
  fillSelect($("badge-metric"), metrics.map((m) => [m, m]), metrics.includes($("badge-metric").value) ? $("badge-metric").value : metrics[0]);
  showRange();
}

function showRange() {
  $("badge-range-field").hidden = !rangeOffered();
}

fillSelect($("badge-style"), choices.styles.map((s) => [s, s]), "flat");
fillSelect($("badge-range"), choices.ranges.map((r) => [r, choiceTitle("range", r)]), choices.defaultRange);
fillSelect($("badge-scale"), ["1", "2"].map((s) => [s, choiceTitle("scale", s)]), "1");
showMetrics();
showFormat();
const updateBadge = livePreview({
  form: $("badge-form"),
  image: $("badge-preview"),
  status: $("badge-status"),
  snippets: "badge",
  build: badgeImage,
  // What livePreview reads of a scale choice, as the format decides it.
  scale: { get value() { return badgeScale(); } },
});
$("badge-subject").addEventListener("change", () => {
  showMetrics();
  updateBadge();
});
$("badge-metric").addEventListener("change", showRange);
$("badge-format").addEventListener("change", showFormat);
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

// ---- Filled in from the address: the console's "Open in the designer" ----

// #server_uuid=UUID: the banner of what that server's plugin pushes, and its
// badge; #plugin_uuid=UUID: a plugin's banner and badge. A fragment, so never
// sent to the server; nothing else is read from it.
function fillFromAddress() {
  const asked = new URLSearchParams(window.location.hash.slice(1));
  const server = asked.get("server_uuid")?.trim() ?? "";
  const plugin = asked.get("plugin_uuid")?.trim() ?? "";
  const kind = UUID.test(server) ? "server" : UUID.test(plugin) ? "plugin" : null;
  if (!kind) return;
  const uuid = kind === "server" ? server : plugin;
  if (template().kind !== kind) {
    const first = banner.templates.templates.find((t) => t.kind === kind);
    $("template").value = first.key;
    if (!themeChosen) $("theme").value = first.default_theme;
    showThemeColours();
  }
  if (kind === "server") {
    $("data-mode").value = "plugin";
    $("server-uuid").value = uuid;
  } else {
    $("plugin-uuid").value = uuid;
  }
  showBannerFields();
  updateBanner();
  $("badge-subject").value = kind === "server" ? "servers" : "plugins";
  showMetrics();
  $("badge-uuid").value = uuid;
  updateBadge();
}
fillFromAddress();
window.addEventListener("hashchange", fillFromAddress);
