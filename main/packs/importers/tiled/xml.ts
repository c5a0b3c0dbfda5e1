/**
 * A minimal element tree over fast-xml-parser's ordered output: Tiled's element order matters
 * (layers are drawn in document order, and tile and object layers interleave).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { importError } from '../common';

/** One XML element: name, attributes (as strings), child elements, and its text. */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

type Ordered = Record<string, unknown> & { ':@'?: Record<string, string> };

/**
 * Parses XML text into its root element.
 * @throws ImportError naming `file`, the line and `what` was expected, for malformed XML.
 */
export function parseXml(text: string, file: string, what: string): XmlElement {
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw importError(
      file,
      `line ${valid.err.line}`,
      `is not well-formed XML (expected ${what}): ${valid.err.msg}`,
    );
  }
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: false,
    // The five XML entities (a layer called "Fish &amp; Chips"); this version does not expand
    // nested DTD entities, so an entity bomb stays a short string.
    processEntities: true,
    htmlEntities: false,
  });
  const nodes = parser.parse(text) as Ordered[];
  const root = nodes
    .map(toElement)
    .find((e): e is XmlElement => e !== null && !e.name.startsWith('?'));
  if (!root) throw importError(file, '', `has no root element (expected ${what})`);
  return root;
}

function toElement(node: Ordered): XmlElement | null {
  const name = Object.keys(node).find((k) => k !== ':@');
  if (name === undefined || name === '#text') return null;
  const raw = node[name];
  const childNodes = Array.isArray(raw) ? (raw as Ordered[]) : [];
  return {
    name,
    attrs: node[':@'] ?? {},
    children: childNodes.map(toElement).filter((e): e is XmlElement => e !== null),
    text: childNodes.map((c) => (typeof c['#text'] === 'string' ? c['#text'] : '')).join(''),
  };
}

/** The child elements named `name`. */
export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((c) => c.name === name);
}
