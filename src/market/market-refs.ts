// What names a project or an author on each site, as a badge's path or a
// banner's query gives it, checked before anything is fetched: a reference
// of another form is "invalid" (400), never a request. Each rule follows the
// site's own identifiers (docs/markets.md has the table):
// - Modrinth: a project's base62 id or its slug (the API's slug rule,
//   3-64 of letters, digits and !@$()`.+,"-'_); a user's id or username.
// - Spigot (Spiget): the resource id, alone or as SpigotMC's address ends
//   ("luckperms.28140"); an author's id.
// - Hangar: owner/slug, as hangar.papermc.io/{owner}/{slug} shows it (the
//   API finds a project by its slug alone; the owner is checked against the
//   answer); a user's name.
// - CurseForge (CFWidget): the project id; an author's id or username.
// - Polymart: the resource id, alone or as its address ends
//   ("polymart-plugin.323"); a user's id.

import type { MarketSite } from "./market-project.ts";

export interface MarketRef {
  /** The cache key's part: the reference as the site compares it (Hangar and usernames ignore case). */
  key: string;
  /** The id, slug or name as the site's API takes it. */
  id: string;
  /** Hangar's owner, checked against the project's answer. */
  owner?: string;
}

const MODRINTH_SLUG = /^[\w!@$()`.+,"\-']{3,64}$/;
const MODRINTH_USER = /^[\w-]{1,39}$/;
/** A number, or a site address's last part: "name.12345". */
const NUMBER_OR_ADDRESS = /^(?:[\w-]{1,128}\.)?(\d{1,10})$/;
const HANGAR_NAME = /^[\w.-]{1,64}$/;
const CURSEFORGE_USER = /^[\w.-]{1,64}$/;

function numberRef(text: string, rule: RegExp): MarketRef | null {
  const number = rule.exec(text)?.[1];
  if (number === undefined) return null;
  const id = String(Number(number));
  return { key: id, id };
}

/** The reference to a project, or why it is none. */
export function projectRef(site: MarketSite, text: string): MarketRef | string {
  switch (site) {
    case "modrinth":
      return MODRINTH_SLUG.test(text) ? { key: text, id: text } : "a Modrinth project is its id or slug (3 to 64 letters, digits and _-.)";
    case "spigot":
      return numberRef(text, NUMBER_OR_ADDRESS) ?? "a Spigot resource is its number (the end of its address: name.12345)";
    case "polymart":
      return numberRef(text, NUMBER_OR_ADDRESS) ?? "a Polymart resource is its number (the end of its address: name.323)";
    case "curseforge":
      return numberRef(text, /^(\d{1,10})$/) ?? "a CurseForge project is its project id (a number)";
    case "hangar": {
      const [owner, slug, ...rest] = text.split("/");
      if (owner === undefined || slug === undefined || rest.length > 0 || !HANGAR_NAME.test(owner) || !HANGAR_NAME.test(slug)) {
        return "a Hangar project is owner/slug, as its address shows it";
      }
      return { key: `${owner}/${slug}`.toLowerCase(), id: slug, owner };
    }
  }
}

/** The reference to an author, or why it is none. */
export function authorRef(site: MarketSite, text: string): MarketRef | string {
  switch (site) {
    case "modrinth":
      return MODRINTH_USER.test(text) ? { key: text.toLowerCase(), id: text } : "a Modrinth author is a user's id or username";
    case "spigot":
      return numberRef(text, NUMBER_OR_ADDRESS) ?? "a Spigot author is the author's number (the end of their address: name.12345)";
    case "polymart":
      return numberRef(text, NUMBER_OR_ADDRESS) ?? "a Polymart author is the user's number";
    case "curseforge":
      return CURSEFORGE_USER.test(text) ? { key: text.toLowerCase(), id: text } : "a CurseForge author is the author's id or username";
    case "hangar":
      return HANGAR_NAME.test(text) ? { key: text.toLowerCase(), id: text } : "a Hangar author is a user's or organisation's name";
  }
}
