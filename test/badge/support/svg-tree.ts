// A strict reader of the XML our badges are written in (elements,
// attributes in double quotes, text, the five named entities and character
// references; no comments, CDATA or declarations): it throws on anything
// else, so a badge whose text slipped markup or a bare "&" into it fails to
// read. What it gives is the element tree, for comparing two SVGs by
// structure rather than by bytes.

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const NAME = /[A-Za-z_][\w.:-]*/y;
/** Characters XML 1.0 does not allow anywhere in a document. */
const NOT_XML = /[\0-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function decode(text: string): string {
  if (/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[\da-f]+);)/i.test(text)) throw new Error(`a bare & in ${JSON.stringify(text)}`);
  return text.replace(/&(#x[\da-f]+|#\d+|\w+);/gi, (_, entity: string) =>
    entity[0] === "#" ? String.fromCodePoint(Number(entity[1] === "x" || entity[1] === "X" ? `0${entity.slice(1)}` : entity.slice(1))) : NAMED[entity]!);
}

export function parseXml(xml: string): XmlElement {
  if (NOT_XML.test(xml)) throw new Error("a character XML does not allow");
  let at = 0;
  const fail = (why: string): never => {
    throw new Error(`${why} at ${at}: ${JSON.stringify(xml.slice(at, at + 40))}`);
  };
  const name = (): string => {
    NAME.lastIndex = at;
    const match = NAME.exec(xml) ?? fail("a name expected");
    at += match[0].length;
    return match[0];
  };
  const spaces = () => {
    while (/\s/.test(xml[at] ?? "")) at++;
  };

  function elementAt(): XmlElement {
    if (xml[at] !== "<") fail("< expected");
    at++;
    const element: XmlElement = { name: name(), attributes: {}, children: [] };
    for (;;) {
      spaces();
      if (xml.startsWith("/>", at)) return (at += 2), element;
      if (xml[at] === ">") break;
      const attribute = name();
      if (Object.hasOwn(element.attributes, attribute)) fail(`${attribute} twice`);
      if (!xml.startsWith('="', at)) fail('=" expected');
      const end = xml.indexOf('"', at + 2);
      if (end < 0) fail("an unclosed attribute");
      const value = xml.slice(at + 2, end);
      if (value.includes("<")) fail("< in an attribute");
      element.attributes[attribute] = decode(value);
      at = end + 1;
    }
    at++;
    for (;;) {
      if (xml.startsWith("</", at)) {
        at += 2;
        if (name() !== element.name) fail(`</${element.name}> expected`);
        if (xml[at] !== ">") fail("> expected");
        at++;
        return element;
      }
      if (xml[at] === "<") {
        if (/[!?]/.test(xml[at + 1] ?? "")) fail("only elements and text are read");
        element.children.push(elementAt());
        continue;
      }
      const end = xml.indexOf("<", at);
      if (end < 0) fail(`an unclosed <${element.name}>`);
      element.children.push(decode(xml.slice(at, end)));
      at = end;
    }
  }

  const root = elementAt();
  if (at !== xml.length) fail("text after the root element");
  return root;
}

/** Every element of the tree, depth first. */
export function elementsOf(root: XmlElement): XmlElement[] {
  return [root, ...root.children.flatMap((child) => (typeof child === "string" ? [] : elementsOf(child)))];
}

/** The text inside an element (its children's, joined). */
export function textOf(element: XmlElement): string {
  return element.children.map((child) => (typeof child === "string" ? child : textOf(child))).join("");
}

/**
 * The tree with its ids renamed in order of appearance (id1, id2...), and
 * every url(#id) and #id in attributes and text with them: two SVGs that
 * differ only in their ids' names compare equal.
 */
export function withNormalizedIds(root: XmlElement): XmlElement {
  const names = new Map<string, string>();
  for (const element of elementsOf(root)) {
    const id = element.attributes.id;
    if (id !== undefined && !names.has(id)) names.set(id, `id${names.size + 1}`);
  }
  const rename = (text: string) => text.replace(/#([\w-]+)/g, (whole, id: string) => (names.has(id) ? `#${names.get(id)}` : whole));
  const walk = (element: XmlElement): XmlElement => ({
    name: element.name,
    attributes: Object.fromEntries(
      Object.entries(element.attributes).map(([key, value]) => [key, key === "id" ? names.get(value)! : rename(value)]),
    ),
    children: element.children.map((child) => (typeof child === "string" ? (element.name === "style" ? rename(child) : child) : walk(child))),
  });
  return walk(root);
}
