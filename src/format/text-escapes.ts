/** Text for XML content or attributes; a carriage return as a reference, or parsers read a line feed. */
export function xmlEscape(text: string): string {
  return text.replace(/[&<>"'\r]/g, (char) => XML_ENTITIES[char]!);
}

/** An attribute value: as xmlText, with tabs and line feeds as references, or parsers read spaces. */
export function xmlAttribute(text: string): string {
  return xmlText(text).replace(/[\t\n]/g, (char) => XML_ENTITIES[char]!);
}

/** Characters XML 1.0 cannot hold at all, not even as references (C0 controls, lone surrogates, U+FFFE/F). */
const NOT_XML =
  /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;

export function isXmlText(text: string): boolean {
  NOT_XML.lastIndex = 0;
  return !NOT_XML.test(text);
}

/** Text for XML content or attributes: escaped, and characters XML forbids replaced by U+FFFD. */
export function xmlText(text: string): string {
  return xmlEscape(isXmlText(text) ? text : text.replace(NOT_XML, '\ufffd'));
}

const XML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\r': '&#13;',
  '\t': '&#9;',
  '\n': '&#10;',
};

/** One RFC 4180 field: quoted only when it holds a comma, a quote or a line break. */
export function csvField(value: string | number | boolean | null): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: readonly (string | number | boolean | null)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
