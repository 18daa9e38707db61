// Small DOM helpers over @xmldom/xmldom for reading the Khronos registries.
import { DOMParser, type Element, type Node } from '@xmldom/xmldom';

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

/** Parses an XML document and returns its root element; throws on malformed input. */
export function parseXml(text: string, fileName: string): Element {
  const errors: string[] = [];
  const parser = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') errors.push(message);
    },
  });
  const doc = parser.parseFromString(text, 'text/xml');
  const root = doc.documentElement;
  if (errors.length > 0 || root === null) {
    throw new Error(`${fileName}: cannot parse XML: ${errors.join('; ') || 'no root element'}`);
  }
  return root;
}

function isElement(node: Node): node is Element {
  return node.nodeType === ELEMENT_NODE;
}

/** Direct child elements, optionally only those with the given tag. */
export function children(el: Element, tag?: string): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n !== null; n = n.nextSibling) {
    if (isElement(n) && (tag === undefined || n.tagName === tag)) out.push(n);
  }
  return out;
}

/** First direct child element with the tag, if any. */
export function child(el: Element, tag: string): Element | undefined {
  return children(el, tag)[0];
}

/** All descendant elements with the tag, in document order. */
export function descendants(el: Element, tag: string): Element[] {
  const out: Element[] = [];
  const walk = (e: Element): void => {
    for (const c of children(e)) {
      if (c.tagName === tag) out.push(c);
      walk(c);
    }
  };
  walk(el);
  return out;
}

/** An attribute's value, or undefined when the attribute is absent. */
export function attr(el: Element, name: string): string | undefined {
  return el.hasAttribute(name) ? (el.getAttribute(name) ?? undefined) : undefined;
}

/**
 * The element's text as C source: the concatenated text of it and its descendants, leaving out
 * <comment> elements (the registries put prose there, not code).
 */
export function codeText(el: Element): string {
  let out = '';
  for (let n = el.firstChild; n !== null; n = n.nextSibling) {
    if (n.nodeType === TEXT_NODE || n.nodeType === CDATA_SECTION_NODE) {
      out += n.nodeValue ?? '';
    } else if (isElement(n) && n.tagName !== 'comment') {
      out += codeText(n);
    }
  }
  return out;
}

/** Collapses all runs of white space to one space, trimmed: member and parameter declarations. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
