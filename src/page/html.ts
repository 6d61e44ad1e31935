// HTML written by the server, escaped by construction: `html` is a tagged
// template whose every interpolation is escaped as text, unless it is already
// Html (made by `html` itself, or by `trustedHtml` for text this project wrote
// and escaped). Escaping &, <, >, " and ' makes text safe both between tags
// and inside a quoted attribute value, so one rule serves both: an attribute
// is always written quoted (`href="${url}"`), never bare.

/** Markup that is safe to insert as it is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** `text` as HTML text or a quoted attribute's value. */
export function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/** What may be interpolated: text and numbers (escaped), Html (as it is), lists of them, and nothing (null, undefined, false: written as nothing). */
export type HtmlValue = string | number | Html | null | undefined | false | readonly HtmlValue[];

function written(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(written).join("");
  return escapeText(String(value));
}

/** The template with each value escaped (Html kept as it is). */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  let text = strings[0]!;
  values.forEach((value, i) => {
    text += written(value) + strings[i + 1]!;
  });
  return new Html(text);
}

/** Markup written and escaped elsewhere in this project (an SVG the chart writer made): the one door past escaping. */
export function trustedHtml(text: string): Html {
  return new Html(text);
}
