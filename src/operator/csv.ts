/**
 * RFC 4180 CSV: CRLF between records, a field quoted when it holds a comma, a quote, CR or LF,
 * quotes inside doubled. A field a spreadsheet would run as a formula (starting with `=`, `+`,
 * `-`, `@`, tab or CR: OWASP "CSV injection") is prefixed with `'`, since guests type the names.
 */
export function toCsv(
  header: readonly string[],
  records: ReadonlyArray<ReadonlyArray<string | null>>,
): string {
  return `${[header, ...records].map((record) => record.map(csvField).join(',')).join('\r\n')}\r\n`;
}

function csvField(value: string | null): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
