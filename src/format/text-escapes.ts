export function xmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (char) => XML_ENTITIES[char]!);
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
